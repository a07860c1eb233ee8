import type { IssuePath } from '@conclave/scoring';
import type { LimitIssue } from '@conclave/core/data';

/**
 * Most members in one phase (64). A phase's members all answer in parallel and every later
 * phase reads all their statements, so past a few dozen the later prompts grow past what a model
 * reads well; real boards have three to twelve.
 */
export const MAX_PHASE_MEMBERS = 64;

/** Most members on a whole board (256): four full phases, or many small ones; a debate of 256 calls is already a costly run. */
export const MAX_BOARD_MEMBERS = 256;

/** Most phases on a board (32): each phase waits for the one before, so more phases mean a slower debate, not a better one. */
export const MAX_PHASES = 32;

/**
 * The caps on a board's size that the loaders enforce. The defaults are the caps above; a caller
 * that means to run a larger board (a benchmark, a deliberate stress run) raises them through
 * `LoadBoardOptions.limits` (ADR 0043). Core's input limits (list entries, values, string length)
 * still apply on top.
 */
export interface BoardLimits {
  /** Most members in one phase (default `MAX_PHASE_MEMBERS`). */
  readonly phaseMembers: number;
  /** Most members on the whole board (default `MAX_BOARD_MEMBERS`). */
  readonly boardMembers: number;
  /** Most phases on the board (default `MAX_PHASES`). */
  readonly phases: number;
}

/** The caps a board is held to unless its loader is told otherwise. */
export const DEFAULT_BOARD_LIMITS: BoardLimits = Object.freeze({
  phaseMembers: MAX_PHASE_MEMBERS,
  boardMembers: MAX_BOARD_MEMBERS,
  phases: MAX_PHASES,
});

/**
 * The limits in force: the defaults with the caller's overrides. A cap that is not a whole
 * number of 1 or more is a mistake in the caller's code, not in the board, so it throws a
 * `RangeError` naming the option rather than loading anything under a cap nobody meant.
 */
export function boardLimitsInForce(given: Partial<BoardLimits> | undefined): BoardLimits {
  if (given === undefined) return DEFAULT_BOARD_LIMITS;
  const limits = { ...DEFAULT_BOARD_LIMITS, ...given };
  for (const key of ['phaseMembers', 'boardMembers', 'phases'] as const) {
    const value = limits[key];
    if (!(Number.isSafeInteger(value) && value >= 1))
      throw new RangeError(`limits.${key} must be a whole number of 1 or more, got ${String(value)}`);
  }
  return limits;
}

/**
 * Checks how many phases and members a board has, reading only list lengths (no recursion), so
 * it is safe on any input and runs before anything else: a 10,000-member board gets one issue,
 * not 10,000 lines of per-member problems or progress. Each issue names the cap and the option
 * that raises it.
 */
export function boardCountIssues(raw: Record<string, unknown> | undefined, limits: BoardLimits = DEFAULT_BOARD_LIMITS): LimitIssue[] {
  const phases = Array.isArray(raw?.phases) ? (raw.phases as unknown[]) : [];
  if (phases.length > limits.phases) {
    return [
      tooMany(
        ['phases'],
        `${phases.length.toLocaleString('en-US')} phases are too many (limit ${limits.phases.toLocaleString('en-US')})`,
        `merge phases: members of one phase already answer in parallel${raiseHint('phases')}`,
      ),
    ];
  }
  const issues: LimitIssue[] = [];
  let total = 0;
  phases.forEach((phase, p) => {
    const members = typeof phase === 'object' && phase !== null ? (phase as Record<string, unknown>).members : undefined;
    if (!Array.isArray(members)) return;
    total += members.length;
    if (members.length > limits.phaseMembers) {
      issues.push(
        tooMany(
          ['phases', p, 'members'],
          `${members.length.toLocaleString('en-US')} members in one phase are too many (limit ${limits.phaseMembers.toLocaleString('en-US')})`,
          `keep at most ${limits.phaseMembers} members per phase: split the phase, or drop members whose view repeats another's${raiseHint('phaseMembers')}`,
        ),
      );
    }
  });
  if (issues.length === 0 && total > limits.boardMembers) {
    issues.push(
      tooMany(
        ['phases'],
        `${total.toLocaleString('en-US')} members on the board are too many (limit ${limits.boardMembers.toLocaleString('en-US')})`,
        `keep at most ${limits.boardMembers} members in all: a council that large costs more than the extra views add${raiseHint('boardMembers')}`,
      ),
    );
  }
  return issues;
}

/** How a program that loads boards itself raises a cap on purpose (a board file cannot). */
function raiseHint(key: keyof BoardLimits): string {
  return `; code that loads the board may raise the cap with the loader's limits.${key} option`;
}

function tooMany(path: IssuePath, message: string, fix: string): LimitIssue {
  return { code: 'too_many', path, message, fix };
}

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
 * Checks how many phases and members a board has, reading only list lengths (no recursion), so
 * it is safe on any input and runs before anything else: a 10,000-member board gets one issue,
 * not 10,000 lines of per-member problems or progress.
 */
export function boardCountIssues(raw: Record<string, unknown> | undefined): LimitIssue[] {
  const phases = Array.isArray(raw?.phases) ? (raw.phases as unknown[]) : [];
  if (phases.length > MAX_PHASES) {
    return [
      tooMany(
        ['phases'],
        `${phases.length.toLocaleString('en-US')} phases are too many (limit ${MAX_PHASES})`,
        'merge phases: members of one phase already answer in parallel',
      ),
    ];
  }
  const issues: LimitIssue[] = [];
  let total = 0;
  phases.forEach((phase, p) => {
    const members = typeof phase === 'object' && phase !== null ? (phase as Record<string, unknown>).members : undefined;
    if (!Array.isArray(members)) return;
    total += members.length;
    if (members.length > MAX_PHASE_MEMBERS) {
      issues.push(
        tooMany(
          ['phases', p, 'members'],
          `${members.length.toLocaleString('en-US')} members in one phase are too many (limit ${MAX_PHASE_MEMBERS})`,
          `keep at most ${MAX_PHASE_MEMBERS} members per phase: split the phase, or drop members whose view repeats another's`,
        ),
      );
    }
  });
  if (issues.length === 0 && total > MAX_BOARD_MEMBERS) {
    issues.push(
      tooMany(
        ['phases'],
        `${total.toLocaleString('en-US')} members on the board are too many (limit ${MAX_BOARD_MEMBERS})`,
        `keep at most ${MAX_BOARD_MEMBERS} members in all: a council that large costs more than the extra views add`,
      ),
    );
  }
  return issues;
}

function tooMany(path: IssuePath, message: string, fix: string): LimitIssue {
  return { code: 'too_many', path, message, fix };
}

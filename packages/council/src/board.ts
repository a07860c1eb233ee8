import { err, ok, type Result } from 'neverthrow';
import { modelFamily, parseModelRef } from '@conclave/core';
import { readBoundedInput, type LimitIssue } from '@conclave/core/data';
import { schemaIssueFix } from '@conclave/core/internal';
import {
  formatPath,
  MAX_MEMBER_WEIGHT,
  MIN_VALID_VOTES,
  PRODUCT_RUBRIC,
  validateRubric,
  type IssuePath,
  type Rubric,
} from '@conclave/scoring';
import { MAX_RATE_MEMBERS } from '@conclave/scoring/calibration';
import type { z } from 'zod';
import type { BoardIssue, BoardIssueCode } from './board-issue.js';
import { boardCountIssues, boardLimitsInForce, type BoardLimits } from './board-limits.js';
import { boardInputSchema } from './board-schema.js';
import { MEAN_SCORE_RULE, type DecisionRule } from './decision-rule.js';
import { DEFAULT_PROVIDERS } from './model-ref.js';

/** The default cap on calls in flight across a whole debate. */
export const DEFAULT_CONCURRENCY = 16;

/** A validated council member; `A` is the rubric's axis names. */
export interface Member<A extends string = string> {
  readonly id: string;
  readonly persona: string;
  /** A model reference, `provider:model`. */
  readonly model: string;
  readonly weight: number;
  /** Its model family: declared on the board, or derived from `model` (`modelFamily`). */
  readonly family: string;
  /** How much the member cares about each rubric axis; every axis is present (default 1). */
  readonly priorities: Readonly<Record<A, number>>;
}

/** A validated phase; `A` is the rubric's axis names. */
export interface Phase<A extends string = string> {
  readonly name: string;
  readonly description?: string;
  readonly contrarian: boolean;
  readonly members: readonly Member<A>[];
}

/** A structured fact the council weighs, on one axis of the rubric. */
export interface Fact<A extends string = string> {
  readonly axis: A;
  readonly value: number;
  readonly note: string;
}

declare const loadedBoard: unique symbol;

/**
 * A board that passed the loader: phases in declared order with the contrarian phase (if any)
 * last, unique ids, a valid rubric, known model references and a reachable quorum. Only
 * `loadBoard`, `parseBoard` and `defineBoard` make one, so an engine can never run a board
 * whose contrarian speaks early.
 *
 * `A` is the rubric's axis names: `defineBoard` infers them from a typed rubric (`defineRubric`,
 * `PRODUCT_RUBRIC`), `withAxes` checks them on a board from a file, and the debate carries them
 * into its votes, transcript, events and result. A board read from data is `Board<string>`.
 */
export interface Board<A extends string = string> {
  readonly [loadedBoard]: true;
  readonly id: string;
  readonly title?: string;
  readonly question: string;
  readonly rubric: Rubric<A>;
  readonly minValidVotes: number;
  /** The rule that turns the votes into the verdict (default: the mean-score rule). */
  readonly decision: DecisionRule;
  readonly concurrency: { readonly global: number; readonly perAdapter: Readonly<Record<string, number>> };
  readonly facts: readonly Fact<A>[];
  readonly phases: readonly Phase<A>[];
}

/** Options for loading a board. */
export interface LoadBoardOptions {
  /** Named in every issue, so errors point at the file. */
  readonly file?: string;
  /** Providers a model reference may name (default: offline, anthropic, openai, openai-compatible). */
  readonly knownProviders?: readonly string[];
  /** Overrides `knownProviders`: decides whether a full model reference is known. */
  readonly isKnownModel?: (ref: string) => boolean;
  /**
   * Raises (or lowers) the caps on phases and members; unset ones keep `DEFAULT_BOARD_LIMITS`.
   * For code that means to run a larger board (ADR 0043); a board file cannot raise its own caps.
   * A cap that is not a whole number of 1 or more throws a `RangeError`.
   */
  readonly limits?: Partial<BoardLimits>;
}

const loadedBoards = new WeakSet<object>();

/** Whether a value is a board that went through the loader (and so is known to be valid). */
export function isLoadedBoard(value: unknown): value is Board {
  return typeof value === 'object' && value !== null && loadedBoards.has(value);
}

/**
 * Validates a board given as data (parsed YAML or JSON, or an object) and returns every problem
 * together, each with its path and a fix: schema errors, a contrarian phase that is not last
 * (`contrarian_not_last`), more than one contrarian phase, duplicate member ids or phase names,
 * an empty phase, an unknown axis, a bad weight, an unknown model reference, a quorum larger
 * than the board. Input past the limits (`options.limits`, by default `MAX_PHASE_MEMBERS`,
 * `MAX_BOARD_MEMBERS`, `MAX_PHASES`, and core's string length and depth) is reported alone,
 * before anything else reads it.
 */
export function loadBoard(given: unknown, options: LoadBoardOptions = {}): Result<Board, BoardIssue[]> {
  const limits = boardLimitsInForce(options.limits);
  const issues: BoardIssue[] = [];
  const add = (code: BoardIssueCode, path: IssuePath, message: string, fix: string) =>
    issues.push({ code, path, message, fix, ...(options.file === undefined ? {} : { file: options.file }) });

  // Input past the limits is refused before the schema and the rules walk it: counts first (one
  // issue for a 10,000-member board), then a plain-data copy within every limit, read without
  // recursion; from here on only the copy is read, so a getter that throws cannot reach the rules.
  const beyond = countIssues(given, limits);
  const bounded = beyond.length === 0 ? readBoundedInput(given) : undefined;
  if (bounded === undefined || bounded.isErr()) {
    for (const issue of bounded?.error ?? beyond) add(issue.code, issue.path, issue.message, issue.fix);
    return err(issues);
  }
  const input = bounded.value;

  const parsed = boardInputSchema.safeParse(input, { reportInput: true });
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      // A member weight that is no finite number is a bad weight like one out of range: one code for both.
      const code = issue.path[0] === 'phases' && issue.path[2] === 'members' && issue.path[4] === 'weight' ? 'bad_weight' : 'schema';
      add(code, issue.path as IssuePath, issue.message, schemaIssueFix(issue));
    }

  // The structural rules are checked on the raw input too, so one pass reports schema problems
  // and structural problems together instead of one layer at a time.
  const raw = asRecord(input);
  const rubric = checkRubric(raw?.rubric, add);
  checkStructure(raw, rubric, options, add);

  if (issues.length > 0 || !parsed.success || rubric === undefined) return err(issues);
  const board = normalise(parsed.data, rubric);
  loadedBoards.add(board);
  return ok(board);
}

type Add = (code: BoardIssueCode, path: IssuePath, message: string, fix: string) => void;

function checkRubric(raw: unknown, add: Add): Rubric | undefined {
  if (raw === undefined || raw === 'product') return PRODUCT_RUBRIC;
  if (typeof raw === 'string') {
    add('rubric', ['rubric'], `unknown rubric "${raw}"`, 'use "product" or write the rubric inline as { axes, weights, thresholds }');
    return undefined;
  }
  return validateRubric(raw).match(
    (rubric) => rubric,
    (rubricIssues) => {
      for (const issue of rubricIssues) {
        const code: BoardIssueCode =
          issue.code === 'unknown_axis' ? 'unknown_axis' : issue.code.startsWith('weight') ? 'bad_weight' : 'rubric';
        add(code, ['rubric', ...issue.path], issue.message, issue.fix);
      }
      return undefined;
    },
  );
}

function checkStructure(raw: Record<string, unknown> | undefined, rubric: Rubric | undefined, options: LoadBoardOptions, add: Add): void {
  const phases = Array.isArray(raw?.phases) ? (raw.phases as unknown[]) : [];
  const phaseNames = new Map<string, number>();
  const memberIds = new Map<string, IssuePath>();
  const contrarians: number[] = [];
  let memberCount = 0;
  const axes = rubric?.axes;
  const isKnownModel = options.isKnownModel ?? knownProviderCheck(options.knownProviders ?? DEFAULT_PROVIDERS);

  phases.forEach((phaseRaw, p) => {
    const phase = asRecord(phaseRaw);
    if (!phase) return;
    if (typeof phase.name === 'string') {
      const first = phaseNames.get(phase.name);
      if (first !== undefined) {
        add(
          'duplicate_phase_name',
          ['phases', p, 'name'],
          `phase name "${phase.name}" is already used by phases[${first}]`,
          'give every phase a distinct name',
        );
      } else phaseNames.set(phase.name, p);
    }
    if (phase.contrarian === true) contrarians.push(p);
    const members = Array.isArray(phase.members) ? (phase.members as unknown[]) : undefined;
    if (members?.length === 0) {
      add(
        'empty_phase',
        ['phases', p, 'members'],
        `phase "${String(phase.name)}" has no members`,
        'add at least one member or remove the phase',
      );
    }
    members?.forEach((memberRaw, m) => {
      const member = asRecord(memberRaw);
      if (!member) return;
      memberCount += 1;
      const at: IssuePath = ['phases', p, 'members', m];
      if (typeof member.id === 'string') {
        const first = memberIds.get(member.id);
        if (first !== undefined) {
          add(
            'duplicate_member_id',
            [...at, 'id'],
            `member id "${member.id}" is already used at ${formatPath(first)}`,
            'member ids must be unique across the whole board: rename one',
          );
        } else memberIds.set(member.id, [...at, 'id']);
      }
      // A weight that is not a finite number is the schema's to report; here only its range.
      const weight = member.weight;
      if (typeof weight === 'number' && Number.isFinite(weight)) {
        if (weight <= 0) {
          add(
            'bad_weight',
            [...at, 'weight'],
            `weight must be a finite number above 0, got ${weight}`,
            'use a positive number such as 1 (the default)',
          );
        } else if (weight > MAX_MEMBER_WEIGHT) {
          // The consensus refuses such a vote (it could overflow a weighted total): refuse it here,
          // where the fix can be named, rather than lose the member's vote after a paid call.
          add(
            'bad_weight',
            [...at, 'weight'],
            `weight ${weight} is above the largest member weight, ${MAX_MEMBER_WEIGHT.toLocaleString('en-US')}`,
            `use a weight of at most ${MAX_MEMBER_WEIGHT}; only the ratio between members' weights matters, so scale them all down`,
          );
        }
      }
      if (typeof member.model === 'string' && !isKnownModel(member.model)) {
        add(
          'unknown_model',
          [...at, 'model'],
          describeUnknownModel(member.model, options),
          'write the model as provider:model, e.g. "offline:analyst" or "anthropic:claude-sonnet-5-5"',
        );
      }
      const priorities = asRecord(member.priorities);
      if (priorities && axes) {
        for (const [axis, value] of Object.entries(priorities)) {
          if (!axes.includes(axis))
            add(
              'unknown_axis',
              [...at, 'priorities', axis],
              unknownAxisMessage(axis, axes),
              'fix the spelling or use one of the rubric axes',
            );
          else if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
            add(
              'bad_weight',
              [...at, 'priorities', axis],
              `a priority must be a finite number of 0 or more, got ${JSON.stringify(value)}`,
              'use a number such as 1 (the default) or 2 for an axis the member cares about most',
            );
          }
        }
      }
    });
  });

  if (contrarians.length > 1) {
    for (const p of contrarians.slice(1)) {
      add(
        'multiple_contrarians',
        ['phases', p, 'contrarian'],
        `only one phase may be the contrarian phase; phases[${contrarians[0]}] already is`,
        'merge the contrarian members into one phase',
      );
    }
  }
  const contrarian = contrarians[0];
  if (contrarian !== undefined && contrarian !== phases.length - 1) {
    add(
      'contrarian_not_last',
      ['phases', contrarian, 'contrarian'],
      `the contrarian phase must be the last phase, but it is phase ${contrarian + 1} of ${phases.length}`,
      'move the contrarian phase to the end of phases, so it is built only after every other statement exists',
    );
  }

  const facts = Array.isArray(raw?.facts) ? (raw.facts as unknown[]) : [];
  facts.forEach((factRaw, f) => {
    const axis = asRecord(factRaw)?.axis;
    if (typeof axis === 'string' && axes && !axes.includes(axis))
      add('unknown_axis', ['facts', f, 'axis'], unknownAxisMessage(axis, axes), 'fix the spelling or use one of the rubric axes');
  });

  checkDecisionRule(asRecord(raw?.decision), memberCount, add);

  const minValidVotes = asRecord(raw?.quorum)?.minValidVotes;
  const required = typeof minValidVotes === 'number' ? minValidVotes : MIN_VALID_VOTES;
  if (memberCount > 0 && required > memberCount) {
    add(
      'quorum_unreachable',
      typeof minValidVotes === 'number' ? ['quorum', 'minValidVotes'] : ['phases'],
      `the quorum needs ${required} valid votes but the board has only ${memberCount} member${memberCount === 1 ? '' : 's'}, so it could never reach GO`,
      `add members or lower quorum.minValidVotes to ${memberCount} or less`,
    );
  }
}

/** The calibrated rule takes a cost ratio or a rate, not both, and neither under the mean-score rule. */
function checkDecisionRule(decision: Record<string, unknown> | undefined, memberCount: number, add: Add): void {
  if (decision === undefined) return;
  const tuning = ['costOfFalseGo', 'costOfMissedGo', 'falseGoRate', 'priorGo'].filter((key) => decision[key] !== undefined);
  if (decision.rule === 'mean-score' && tuning.length > 0) {
    add(
      'decision_rule',
      ['decision', tuning[0] as string],
      `${tuning.join(', ')} tune${tuning.length === 1 ? 's' : ''} the calibrated rule, but the rule is "mean-score"`,
      "set rule: calibrated, or remove the calibrated rule's settings",
    );
  }
  if (decision.falseGoRate !== undefined && (decision.costOfFalseGo !== undefined || decision.costOfMissedGo !== undefined)) {
    add(
      'decision_rule',
      ['decision', 'falseGoRate'],
      'a false-GO rate and a cost ratio each set the threshold; give one',
      'keep falseGoRate (the share of wrong GOs you accept) or the costs, not both',
    );
  }
  if (decision.falseGoRate !== undefined && memberCount > MAX_RATE_MEMBERS) {
    add(
      'decision_rule',
      ['decision', 'falseGoRate'],
      `falseGoRate enumerates the vote patterns of at most ${MAX_RATE_MEMBERS} members; the board has ${memberCount}`,
      'state costOfFalseGo instead, or use fewer members',
    );
  }
}

function normalise(input: z.output<typeof boardInputSchema>, rubric: Rubric): Board {
  const board = {
    id: input.id,
    ...(input.title === undefined ? {} : { title: input.title }),
    question: input.question ?? '{{question}}',
    rubric,
    minValidVotes: input.quorum?.minValidVotes ?? MIN_VALID_VOTES,
    decision: decisionRuleOf(input.decision),
    concurrency: Object.freeze({
      global: input.concurrency?.global ?? DEFAULT_CONCURRENCY,
      perAdapter: Object.freeze({ ...input.concurrency?.perAdapter }),
    }),
    facts: Object.freeze((input.facts ?? []).map((fact) => Object.freeze({ ...fact }))),
    phases: Object.freeze(
      input.phases.map((phase) =>
        Object.freeze({
          name: phase.name,
          ...(phase.description === undefined ? {} : { description: phase.description }),
          contrarian: phase.contrarian ?? false,
          members: Object.freeze(
            phase.members.map((member) =>
              Object.freeze({
                id: member.id,
                persona: member.persona,
                model: member.model,
                weight: member.weight ?? 1,
                family: member.family ?? modelFamily(member.model),
                priorities: Object.freeze(Object.fromEntries(rubric.axes.map((axis) => [axis, member.priorities?.[axis] ?? 1]))),
              }),
            ),
          ),
        }),
      ),
    ),
  };
  return Object.freeze(board) as unknown as Board;
}

function decisionRuleOf(input: z.output<typeof boardInputSchema>['decision']): DecisionRule {
  if (input?.rule !== 'calibrated') return MEAN_SCORE_RULE;
  return Object.freeze({
    rule: 'calibrated',
    priorGo: input.priorGo ?? 0.5,
    costOfFalseGo: input.costOfFalseGo ?? 1,
    costOfMissedGo: input.costOfMissedGo ?? 1,
    ...(input.falseGoRate === undefined ? {} : { falseGoRate: input.falseGoRate }),
  });
}

function knownProviderCheck(providers: readonly string[]): (ref: string) => boolean {
  return (ref) => {
    const parsed = parseModelRef(ref);
    return parsed !== undefined && providers.includes(parsed.provider);
  };
}

function describeUnknownModel(ref: string, options: LoadBoardOptions): string {
  const parsed = parseModelRef(ref);
  if (!parsed) return `"${ref}" is not a model reference (expected provider:model)`;
  if (options.isKnownModel) return `model "${ref}" is not known here`;
  return `unknown provider "${parsed.provider}" in "${ref}"; known providers: ${(options.knownProviders ?? DEFAULT_PROVIDERS).join(', ')}`;
}

function unknownAxisMessage(axis: string, axes: readonly string[]): string {
  return `"${axis}" is not an axis of the rubric (${axes.join(', ')})`;
}

/** The member-count issues, read in a guard: a board that throws when read is `readBoundedInput`'s to report. */
function countIssues(given: unknown, limits: BoardLimits): LimitIssue[] {
  try {
    return boardCountIssues(asRecord(given), limits);
  } catch {
    return [];
  }
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

import type { ConsensusResult, Rubric, ScoredConsensus, Vote } from '@conclave/scoring';
import type { Claim } from './claim.js';
import type { DecisionRecord } from './decision-record.js';
import type { Evidence, ValidationSignal } from './evidence.js';
import type { Tier } from './tier.js';

/** Makes every property of every nested object and array readonly. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/** A validation signal as oracles see it: no free text. */
export type ValidationSignalView = Readonly<Omit<ValidationSignal, 'detail'>>;

/** Evidence as oracles see it: no free text, and always a (possibly empty) list of signals. */
export type EvidenceView = Readonly<Omit<Evidence, 'statement' | 'validation'>> & { readonly validation: readonly ValidationSignalView[] };

/**
 * What oracles and lenses see of a record: a deep-frozen copy holding only the structured
 * fields. The free text (rationales, statements, details) is not in it, so no oracle can read
 * prose, and no oracle can change what the caller passed in.
 */
export interface DecisionView {
  readonly id: string;
  readonly tier: Tier;
  readonly rubric: DeepReadonly<Rubric>;
  readonly minValidVotes: number;
  readonly votes: readonly DeepReadonly<Vote>[];
  readonly consensus: DeepReadonly<ConsensusResult>;
  readonly evidence: readonly EvidenceView[];
  readonly claims: readonly DeepReadonly<Claim>[];
}

/**
 * Copies the structured part of a record into a deep-frozen view. Throws only if reading the
 * record throws (a hostile getter or proxy) or it is cyclic; the verifier turns that into a
 * refusal.
 */
export function decisionView(record: DecisionRecord): DecisionView {
  const evidence = listOf(record.evidence);
  const seen = new Map<object, unknown>();
  // A consensus member's scores are usually its vote's scores object: copy each object once.
  const scoreCopies = new Map<unknown, Vote['scores']>();
  const scores = (value: unknown): Vote['scores'] => {
    let copy = scoreCopies.get(value);
    if (copy === undefined) {
      copy = ((value !== null && typeof value === 'object' && flatNumbers(value)) || frozenCopy(value, seen)) as Vote['scores'];
      scoreCopies.set(value, copy);
    }
    return copy;
  };
  return Object.freeze({
    id: plain(record.id, seen) as string,
    tier: plain(record.tier, seen) as Tier,
    rubric: frozenCopy(record.rubric, seen) as DeepReadonly<Rubric>,
    minValidVotes: plain(record.minValidVotes, seen) as number,
    votes: Object.freeze(
      listOf(record.votes).map((vote) =>
        vote !== null && typeof vote === 'object'
          ? Object.freeze({ memberId: plain(vote.memberId, seen) as string, scores: scores(vote.scores), ...(vote.weight === undefined ? {} : { weight: plain(vote.weight, seen) as number }) })
          : (vote as unknown as Vote),
      ),
    ),
    consensus: consensusView(record.consensus, scores, seen),
    evidence: Object.freeze(
      evidence.map((item) =>
        Object.freeze({
          id: plain(item.id, seen) as string,
          sourceId: plain(item.sourceId, seen) as string,
          kind: plain(item.kind, seen) as Evidence['kind'],
          strength: plain(item.strength, seen) as number,
          confidence: plain(item.confidence, seen) as number,
          supports: plain(item.supports, seen) as string,
          validation: item.validation === undefined || item.validation.length === 0 ? NO_SIGNALS : Object.freeze(listOf(item.validation).map((signal) => Object.freeze({ kind: plain(signal.kind, seen) as 'gate' | 'test', name: plain(signal.name, seen) as string, passed: plain(signal.passed, seen) as boolean }))),
        }),
      ),
    ),
    claims: Object.freeze(listOf(record.claims).map((claim) => frozenCopy(claim, seen) as DeepReadonly<Claim>)),
  });
}

/**
 * The consensus, copied field by field (its shape is known, and this is the hot part of a
 * verification). A dissenter is the same object in `members` and `dissent`, as in the input.
 */
function consensusView(consensus: ConsensusResult, scores: (value: unknown) => Vote['scores'], seen: Map<object, unknown>): DeepReadonly<ConsensusResult> {
  if (consensus === null || typeof consensus !== 'object' || consensus.status !== 'scored') {
    return frozenCopy(consensus, seen) as DeepReadonly<ConsensusResult>;
  }
  const members = new Map<unknown, object>();
  const member = (m: ScoredConsensus['members'][number] | ScoredConsensus['dissent'][number]) => {
    let copy = members.get(m);
    if (copy === undefined) {
      copy = Object.freeze({
        memberId: plain(m.memberId, seen),
        weight: plain(m.weight, seen),
        scores: scores(m.scores),
        score: plain(m.score, seen),
        verdict: plain(m.verdict, seen),
        ...('direction' in m ? { direction: plain(m.direction, seen) } : {}),
      });
      members.set(m, copy);
    }
    return copy;
  };
  const { spread } = consensus;
  return Object.freeze({
    status: consensus.status,
    verdict: plain(consensus.verdict, seen),
    score: plain(consensus.score, seen),
    axisMeans: ((typeof consensus.axisMeans === 'object' && consensus.axisMeans !== null && flatNumbers(consensus.axisMeans)) || frozenCopy(consensus.axisMeans, seen)) as Record<string, number>,
    spread: Object.freeze({ min: plain(spread.min, seen), max: plain(spread.max, seen), range: plain(spread.range, seen), stdDev: plain(spread.stdDev, seen) }),
    validVotes: plain(consensus.validVotes, seen),
    minValidVotes: plain(consensus.minValidVotes, seen),
    members: Object.freeze(listOf(consensus.members).map(member)),
    dissent: Object.freeze(listOf(consensus.dissent).map(member)),
    invalid: frozenCopy(consensus.invalid, seen) as ScoredConsensus['invalid'],
  }) as DeepReadonly<ConsensusResult>;
}

/**
 * A field that should hold a primitive, copied: a primitive as it is, anything else as a frozen
 * copy, so a malformed record never lends its own (mutable) objects to the view.
 */
function plain(value: unknown, seen: Map<object, unknown>): unknown {
  return value !== null && typeof value === 'object' ? frozenCopy(value, seen) : value;
}

/** The list, or an empty one when the record has none (or something that is not a list). */
function listOf<T>(value: readonly T[] | undefined): readonly T[] {
  return Array.isArray(value) ? (value as readonly T[]) : [];
}

const NO_SIGNALS: readonly ValidationSignalView[] = Object.freeze([]);

/** Deeper than any real record; deeper means a cycle (or an attack), and copying stops. */
const MAX_DEPTH = 64;

/** Objects already known to be frozen all the way down: they cannot change, so they need no copy. */
const deepFrozen = new WeakSet<object>();

/**
 * A frozen deep copy of plain data (objects, arrays, primitives). Inputs frozen all the way down
 * are shared, not copied; an object reached twice (a consensus member's scores are its vote's
 * scores) is copied once, through `seen`.
 */
function frozenCopy(value: unknown, seen: Map<object, unknown>, depth = 0): unknown {
  // Records are data: a function has no place in one and is not passed on.
  if (typeof value === 'function') return undefined;
  if (value === null || typeof value !== 'object') return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (depth > MAX_DEPTH) throw new TypeError('the record is nested too deeply (or contains a cycle)');
  if (Object.isFrozen(value) && (deepFrozen.has(value) || isDeepFrozen(value, depth))) return value;
  let copy: unknown = flatNumbers(value);
  if (copy !== undefined) {
    // Scores and means: numbers only, nothing to recurse into.
  } else if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i += 1) items[i] = frozenCopy(value[i], seen, depth + 1);
    copy = Object.freeze(items);
  } else {
    const fields: Record<string, unknown> = {};
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = frozenCopy((value as Record<string, unknown>)[key], seen, depth + 1);
      // `__proto__` must become an own key, not the copy's prototype.
      if (key === '__proto__') Object.defineProperty(fields, key, { value: item, enumerable: true, writable: true, configurable: true });
      else fields[key] = item;
    }
    copy = Object.freeze(fields);
  }
  seen.set(value, copy);
  return copy;
}

/** A frozen copy of an object whose own values are all numbers (scores, means); otherwise undefined. */
function flatNumbers(value: object): Readonly<Record<string, number>> | undefined {
  if (Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const copy: Record<string, number> = {};
  for (const key of keys) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item !== 'number' || key === '__proto__') return undefined;
    copy[key] = item;
  }
  return Object.freeze(copy);
}

/** Whether an object is frozen all the way down (remembered, so each is walked once). */
function isDeepFrozen(value: object, depth: number): boolean {
  if (!Object.isFrozen(value) || depth > MAX_DEPTH) return false;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== null && typeof item === 'object' && !deepFrozen.has(item) && !isDeepFrozen(item, depth + 1)) return false;
  }
  deepFrozen.add(value);
  return true;
}

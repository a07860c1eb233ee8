import type { ConsensusResult, Rubric, ScoredConsensus, Vote } from '@conclave/scoring';
import type { CalibratedDecision } from '@conclave/scoring/calibration';
import type { Claim } from './claim.js';
import { readFlatVotes, type FlatVotes } from './exact/flat-record.js';
import type { PreRead } from './exact/pre-read.js';
import { NOT_NUMBERS, plainVote, ROW, ScoreRows } from './exact/score-rows.js';
import type { DecisionRecord } from './decision-record.js';
import type { Evidence, ValidationSignal } from './evidence.js';
import { freezeOnce } from './freeze-once.js';
import { boundedLength } from './record-bounds.js';
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
  /** The calibrated rule's decision, when the record was decided by it. */
  readonly calibrated?: DeepReadonly<CalibratedDecision>;
  readonly evidence: readonly EvidenceView[];
  readonly claims: readonly DeepReadonly<Claim>[];
}

/**
 * Copies the structured part of a record into a deep-frozen view. Throws only if reading the
 * record throws (a hostile getter or proxy) or it is cyclic; the verifier turns that into a
 * refusal.
 */
export function decisionView(record: DecisionRecord): DecisionView {
  return freezeView(privateView(record));
}

/**
 * The view of `decisionView`, not yet frozen: a private copy that only the verifier's own
 * readers (the built-in oracles and lenses) see as it is. Anything else must get it through
 * `freezeView` first. Freezing is most of a copy's cost (about 80 ns an object, several times
 * the cost of making it), so a verification that runs only built-in code never pays for it
 * (ADR 0009).
 *
 * This is the hot part of a verification, so it copies in one pass, field by field (the shape
 * is known), with plain loops: every field of the record is read once, and every object in the
 * view is made here. Only values of an unexpected shape go through the generic `frozenCopy`.
 * An object of numbers (scores, means) is copied by a spread, which also copies its symbol-keyed
 * properties: no reader of the private view looks at those, and `freezeView` removes them.
 */
export function privateView(record: DecisionRecord, preRead?: PreRead): DecisionView {
  const evidence = listOf(record.evidence);
  const copier = new Copier();
  const id = plain(record.id, copier) as string;
  const tier = plain(record.tier, copier) as Tier;
  const rubric = frozenCopy(record.rubric, copier) as DeepReadonly<Rubric>;
  const minValidVotes = plain(record.minValidVotes, copier) as number;
  const voteList = listOf(record.votes);
  const voteCount = boundedLength(voteList);
  // The rubric is the view's own (a frozen copy, or frozen plain data): its axes cannot change.
  // One it makes malformed is reported before anything reads the rows. Rows are read only for
  // a rubric of a usual size, so a malformed one (axes by the million) never sizes them.
  const axes: unknown = rubric !== null && typeof rubric === 'object' ? rubric.axes : undefined;
  let reader: ScoreRows<string> | undefined;
  if (preRead !== undefined && Array.isArray(axes) && axes.length <= MAX_PRE_READ_AXES) {
    reader = new ScoreRows(rubric);
    preRead.reserve(voteCount, axes.length);
  }
  const votes = votesView(voteList, voteCount, copier, reader, preRead, Array.isArray(axes) ? axes.length : 0);
  if (reader !== undefined && preRead !== undefined) preRead.votes = votes;
  const consensus = consensusView(record.consensus, copier);
  const evidenceView = evidenceListView(evidence, copier);
  const claims = listOf(record.claims);
  const claimCount = boundedLength(claims);
  const claimsView = claimCount === 0 ? NO_ITEMS : new Array<unknown>(claimCount);
  for (let i = 0; i < claimCount; i += 1) (claimsView as unknown[])[i] = frozenCopy(claims[i], copier);
  const calibrated =
    record.calibrated === undefined ? undefined : (frozenCopy(record.calibrated, copier) as DeepReadonly<CalibratedDecision>);
  const view = {
    id,
    tier,
    rubric,
    minValidVotes,
    votes,
    consensus,
    evidence: evidenceView,
    claims: claimsView as readonly DeepReadonly<Claim>[],
  };
  return calibrated === undefined ? view : { ...view, calibrated };
}

/** A view of a record read flat, and the votes and members it holds no objects for. */
export interface FlatView {
  /**
   * The view as `privateView` makes it, but for the votes and the consensus members and dissent,
   * which are empty lists: they are in `votes`. Only the verifier's built-in oracles read it, and
   * only through a context that offers `votes` (ADR 0049); it is never frozen or handed on.
   */
  readonly view: DecisionView;
  readonly votes: FlatVotes;
}

/**
 * The private view of a record of the usual shape, its votes and members read flat (ADR 0049):
 * no custom claims and no calibrated decision (so only the built-in oracles read it), a scored
 * consensus, and votes and members as `readFlatVotes` wants them. Undefined for any other
 * record, which is then read by `privateView`. Throws only as `privateView` does.
 */
export function flatPrivateView(record: DecisionRecord, preRead: PreRead): FlatView | undefined {
  const claims: unknown = record.claims;
  if (claims !== undefined && !(Array.isArray(claims) && claims.length === 0)) return undefined;
  if (record.calibrated !== undefined) return undefined;
  const given: unknown = record.consensus;
  if (given === null || typeof given !== 'object' || (given as { status?: unknown }).status !== 'scored') return undefined;
  const scored = given as ScoredConsensus;
  const copier = new Copier();
  const rubric = frozenCopy(record.rubric, copier) as DeepReadonly<Rubric>;
  const axes: unknown = rubric !== null && typeof rubric === 'object' ? rubric.axes : undefined;
  if (!Array.isArray(axes) || axes.length === 0 || axes.length > MAX_PRE_READ_AXES) return undefined;
  const votes: unknown = record.votes;
  const count = Array.isArray(votes) ? boundedLength(votes) : 0;
  preRead.reserveRows(count, axes.length);
  const source = { votes, members: scored.members, dissent: scored.dissent };
  const flat = readFlatVotes(source, new ScoreRows(rubric), preRead.rows, axes.length, preRead.lists);
  if (flat === undefined) return undefined;
  const view: DecisionView = {
    id: plain(record.id, copier) as string,
    tier: plain(record.tier, copier) as Tier,
    rubric,
    minValidVotes: plain(record.minValidVotes, copier) as number,
    votes: NO_ITEMS,
    consensus: scoredView(scored, copier, NO_ITEMS, NO_ITEMS),
    evidence: evidenceListView(listOf(record.evidence), copier),
    claims: NO_ITEMS,
  };
  return { view, votes: flat };
}

/**
 * Freezes a view made by `privateView`, all the way down, in place (once; later calls return at
 * once). What the view shares with the input is frozen already: it came from `frozenCopy`, or was
 * frozen all the way down when it was found.
 */
export const freezeView: (view: DecisionView) => DecisionView = freezeOnce(deepFreezeOwn);

/**
 * Freezes what `privateView` made, field by field (the shape is known, and a generic walk costs
 * twice as much). Anything of an unexpected shape came from `frozenCopy`, frozen already.
 */
function deepFreezeOwn(view: DecisionView): void {
  const { votes, consensus, evidence } = view;
  for (let i = 0; i < votes.length; i += 1) {
    const vote = votes[i];
    if (freeze(vote)) freezeNumbers(vote.scores);
  }
  freeze(votes);
  if (freeze(consensus) && consensus.status === 'scored') {
    freezeNumbers(consensus.axisMeans);
    freeze(consensus.spread);
    const { members } = consensus;
    for (let i = 0; i < members.length; i += 1) {
      const member = members[i];
      if (freeze(member)) freezeNumbers(member.scores);
    }
    freeze(members);
    const { dissent } = consensus;
    for (let i = 0; i < dissent.length; i += 1) {
      const member = dissent[i];
      if (freeze(member)) freezeNumbers(member.scores);
    }
    freeze(dissent);
  }
  for (let i = 0; i < evidence.length; i += 1) {
    const item = evidence[i] as EvidenceView;
    if (!freeze(item)) continue;
    const { validation } = item;
    for (let j = 0; j < validation.length; j += 1) freeze(validation[j]);
    freeze(validation);
  }
  freeze(evidence);
  freeze(view.claims);
  Object.freeze(view);
}

/** Freezes an object the view made; true when the value is an object (frozen now, if it was not). */
function freeze(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (!Object.isFrozen(value)) Object.freeze(value);
  return true;
}

/**
 * The votes; a vote that is not an object is passed on as it is (the shape check reports it).
 * With a reader, each vote's scores are read into `preRead` as they are copied.
 */
function votesView(
  votes: readonly Vote[],
  count: number,
  copier: Copier,
  reader: ScoreRows<string> | undefined,
  preRead: PreRead | undefined,
  width: number,
): readonly DeepReadonly<Vote>[] {
  if (count === 0) return NO_ITEMS;
  const copies = new Array<DeepReadonly<Vote>>(count);
  copier.reserve(count);
  for (let i = 0; i < count; i += 1) {
    const vote = votes[i] as Vote;
    if (vote === null || typeof vote !== 'object') {
      copies[i] = vote;
      continue;
    }
    const memberId = plain(vote.memberId, copier) as string;
    if (reader === undefined || preRead === undefined) {
      const scores = copier.scores(vote.scores, -1);
      const weight: unknown = vote.weight;
      copies[i] = weight === undefined ? { memberId, scores } : { memberId, scores, weight: plain(weight, copier) as number };
      continue;
    }
    const scores = copier.voteScores(vote.scores, reader, preRead.rows, i * width);
    const rowRead = copier.rowRead;
    const given: unknown = vote.weight;
    const weight = plain(given, copier) as number;
    copies[i] = given === undefined ? { memberId, scores } : { memberId, scores, weight };
    if (rowRead && plainVote(memberId, weight)) preRead.valid[i] = 1;
  }
  return copies;
}

function evidenceListView(evidence: readonly Evidence[], copier: Copier): readonly EvidenceView[] {
  const count = boundedLength(evidence);
  if (count === 0) return NO_ITEMS;
  const view = new Array<EvidenceView>(count);
  for (let i = 0; i < count; i += 1) view[i] = evidenceItemView(evidence[i] as Evidence, copier);
  return view;
}

function evidenceItemView(item: Evidence, copier: Copier): EvidenceView {
  const id = plain(item.id, copier) as string;
  const sourceId = plain(item.sourceId, copier) as string;
  const kind = plain(item.kind, copier) as Evidence['kind'];
  const strength = plain(item.strength, copier) as number;
  const confidence = plain(item.confidence, copier) as number;
  const supports = plain(item.supports, copier) as string;
  const given = item.validation;
  let validation = NO_SIGNALS;
  // `length` is read even when it is not a list: a null here makes the record unreadable.
  if (given !== undefined && given.length !== 0 && Array.isArray(given)) {
    const count = boundedLength(given);
    const signals = new Array<ValidationSignalView>(count);
    for (let j = 0; j < count; j += 1) {
      const signal = given[j] as ValidationSignal;
      const signalKind = plain(signal.kind, copier) as 'gate' | 'test';
      const name = plain(signal.name, copier) as string;
      signals[j] = { kind: signalKind, name, passed: plain(signal.passed, copier) as boolean };
    }
    validation = signals;
  }
  return { id, sourceId, kind, strength, confidence, supports, validation };
}

/**
 * The consensus, copied field by field (its shape is known). A dissenter is the same object in
 * `members` and `dissent`, as in the input, and a member's scores are its vote's.
 */
function consensusView(consensus: ConsensusResult, copier: Copier): DeepReadonly<ConsensusResult> {
  if (consensus === null || typeof consensus !== 'object') return frozenCopy(consensus, copier) as DeepReadonly<ConsensusResult>;
  if (consensus.status !== 'scored') return frozenCopy(consensus, copier) as DeepReadonly<ConsensusResult>;
  const members = listOf(consensus.members);
  const memberCount = boundedLength(members);
  const membersView = memberCount === 0 ? NO_ITEMS : new Array<object>(memberCount);
  for (let i = 0; i < memberCount; i += 1)
    (membersView as object[])[i] = copier.member(members[i] as ScoredConsensus['members'][number], i, false);
  const dissent = listOf(consensus.dissent);
  const dissentCount = boundedLength(dissent);
  const dissentView = dissentCount === 0 ? NO_ITEMS : new Array<object>(dissentCount);
  for (let i = 0; i < dissentCount; i += 1)
    (dissentView as object[])[i] = copier.member(dissent[i] as ScoredConsensus['members'][number], -1, true);
  return scoredView(consensus, copier, membersView, dissentView);
}

/** A scored consensus, copied field by field, around the members and dissent given. */
function scoredView(
  consensus: ScoredConsensus,
  copier: Copier,
  members: readonly object[],
  dissent: readonly object[],
): DeepReadonly<ConsensusResult> {
  const status = 'scored';
  const verdict = plain(consensus.verdict, copier);
  const score = plain(consensus.score, copier);
  const axisMeans = copier.numbers(consensus.axisMeans);
  const spread = consensus.spread;
  const spreadView = {
    min: plain(spread.min, copier),
    max: plain(spread.max, copier),
    range: plain(spread.range, copier),
    stdDev: plain(spread.stdDev, copier),
  };
  const validVotes = plain(consensus.validVotes, copier);
  const minValidVotes = plain(consensus.minValidVotes, copier);
  return {
    status,
    verdict,
    score,
    axisMeans,
    spread: spreadView,
    validVotes,
    minValidVotes,
    members,
    dissent,
    invalid: frozenCopy(consensus.invalid, copier),
  } as DeepReadonly<ConsensusResult>;
}

/**
 * The copies made for one record, by the object they copy, so that what the input shares the
 * view shares: a consensus member's scores are its vote's, and a dissenter is also a member.
 */
class Copier {
  /** What `frozenCopy` has copied, made on first use. */
  seen: Map<object, unknown> | undefined = undefined;
  readonly #scores = new CopyIndex<unknown, unknown>();
  readonly #members = new CopyIndex<unknown, object>();
  /** Where the next dissenter is looked for first: dissent lists members in the members' order. */
  #dissentCursor = 0;

  /**
   * A vote's or member's scores, as a copy. A vote's scores are copied (`hint` is -1); a
   * member's are usually its vote's, so they are looked up first at `hint`, then among them all.
   */
  scores(value: unknown, hint: number): Vote['scores'] {
    if (value === null || typeof value !== 'object') return frozenCopy(value, this) as Vote['scores'];
    if (hint >= 0) {
      const known = this.#scores.find(value, hint);
      if (known !== undefined) return known as Vote['scores'];
    }
    const copy = this.numbers(value);
    this.#scores.add(value, copy);
    return copy;
  }

  /** Room for `count` votes' scores and as many members, before any is copied. */
  reserve(count: number): void {
    this.#scores.reserve(count);
    this.#members.reserve(count);
  }

  /** Whether the last scores `voteScores` copied made a valid row (read into the rows given). */
  rowRead = false;

  /**
   * A vote's scores, as `scores` copies them; one walk over the copy both checks that it holds
   * numbers only and reads it as a row of `reader`'s rubric at `at` (`rowRead` says whether
   * it made a valid one).
   */
  voteScores(value: unknown, reader: ScoreRows<string>, rows: Float64Array, at: number): Vote['scores'] {
    this.rowRead = false;
    if (value === null || typeof value !== 'object') return frozenCopy(value, this) as Vote['scores'];
    let copy: Vote['scores'];
    if (Array.isArray(value)) copy = frozenCopy(value, this) as Vote['scores'];
    else {
      const spread: Record<string, unknown> = { ...value };
      const found = reader.readCopy(spread, rows, at);
      if (found === NOT_NUMBERS) copy = frozenCopy(value, this) as Vote['scores'];
      else {
        copy = spread as Vote['scores'];
        this.rowRead = found === ROW;
      }
    }
    this.#scores.add(value, copy);
    return copy;
  }

  /** Scores or means: a copy of an object of numbers, or the generic (frozen) copy of anything else. */
  numbers(value: unknown): Readonly<Record<string, number>> {
    return ((value !== null && typeof value === 'object' && flatNumbers(value)) || frozenCopy(value, this)) as Readonly<
      Record<string, number>
    >;
  }

  /**
   * A consensus member, copied. A dissenter (`dissent: true`) is usually a member too, and then
   * it is the member's copy: looked up first after the last dissenter found, then among the members.
   */
  member(m: ScoredConsensus['members'][number] | ScoredConsensus['dissent'][number], hint: number, dissent: boolean): object {
    if (dissent) {
      const at = this.#members.indexAtOrAfter(m, this.#dissentCursor);
      if (at >= 0) {
        this.#dissentCursor = at + 1;
        return this.#members.at(at);
      }
    }
    const memberId = plain(m.memberId, this);
    const weight = plain(m.weight, this);
    const scores = this.scores(m.scores, dissent ? 0 : hint);
    const score = plain(m.score, this);
    const verdict = plain(m.verdict, this);
    const copy =
      'direction' in m
        ? { memberId, weight, scores, score, verdict, direction: plain(m.direction, this) }
        : { memberId, weight, scores, score, verdict };
    this.#members.add(m, copy);
    return copy;
  }
}

/**
 * Objects copied so far, in order, and their copies. A lookup tries where the copy is expected
 * first (a record's lists line up: member i's scores are vote i's, and the dissent lists members
 * in the members' order), and only then searches: a short list by `indexOf`, a long one through a
 * `Map` built at the first miss. An honest record never misses, so it never pays for the `Map`
 * (two `Map` entries a vote were a third of copying a 100-vote record); one that misses pays
 * for the `Map` once, never a linear search per lookup.
 */
class CopyIndex<From, To> {
  #from: From[] = [];
  #to: To[] = [];
  /** How many are listed (the lists may have room for more). */
  #count = 0;
  /** First position of each object, once a long list has missed. */
  #index: Map<From, number> | undefined = undefined;
  /** Positions scanned forward so far; past twice the list's length, a miss builds the `Map`. */
  #scanned = 0;

  /** Room for `count` copies, made at once rather than grown one at a time; only before the first is added. */
  reserve(count: number): void {
    if (this.#count > 0) return;
    this.#from = new Array<From>(count);
    this.#to = new Array<To>(count);
  }

  add(from: From, to: To): void {
    const at = this.#count;
    this.#from[at] = from;
    this.#to[at] = to;
    this.#count = at + 1;
    if (this.#index !== undefined && !this.#index.has(from)) this.#index.set(from, at);
  }

  /** The copy at a position `indexOf` gave. */
  at(at: number): To {
    return this.#to[at] as To;
  }

  /** The copy of `from`, or undefined; position `hint` is tried first. */
  find(from: From, hint: number): To | undefined {
    const list = this.#from;
    if (hint < this.#count && list[hint] === from) return this.#to[hint];
    const at = this.#search(from);
    return at < 0 ? undefined : this.#to[at];
  }

  /**
   * A position of `from`, or -1: the first at or after `from` (a subsequence of the list is
   * found in one pass over it), else the first anywhere.
   */
  indexAtOrAfter(from: From, start: number): number {
    const list = this.#from;
    const count = this.#count;
    if (this.#index === undefined && this.#scanned <= 2 * count) {
      for (let i = start; i < count; i += 1) {
        this.#scanned += 1;
        if (list[i] === from) return i;
      }
    }
    return this.#search(from);
  }

  #search(from: From): number {
    const list = this.#from;
    const count = this.#count;
    if (count <= SHORT_LIST) {
      for (let i = 0; i < count; i += 1) if (list[i] === from) return i;
      return -1;
    }
    if (this.#index === undefined) {
      const index = new Map<From, number>();
      // Built backwards so that, as with `indexOf`, the first copy of an object is the one found.
      for (let i = count - 1; i >= 0; i -= 1) index.set(list[i] as From, i);
      this.#index = index;
    }
    return this.#index.get(from) ?? -1;
  }
}

/** Lists up to this long are searched for an object already copied; longer ones are indexed. */
const SHORT_LIST = 16;

/**
 * A field that should hold a primitive, copied: a primitive as it is, anything else as a frozen
 * copy, so a malformed record never lends its own (mutable) objects to the view.
 */
function plain(value: unknown, copier: Copier): unknown {
  return value !== null && typeof value === 'object' ? frozenCopy(value, copier) : value;
}

/** The list, or an empty one when the record has none (or something that is not a list). */
function listOf<T>(value: readonly T[] | undefined): readonly T[] {
  return Array.isArray(value) ? (value as readonly T[]) : NO_ITEMS;
}

const NO_ITEMS: readonly never[] = Object.freeze([]);

/** The most axes a rubric may have for the view to read the votes' rows (more are read by the recomputation itself). */
const MAX_PRE_READ_AXES = 64;
const NO_SIGNALS: readonly ValidationSignalView[] = NO_ITEMS;

/** Deeper than any real record; deeper means a cycle (or an attack), and copying stops. */
const MAX_DEPTH = 64;

/** Objects already known to be frozen all the way down: they cannot change, so they need no copy. */
const deepFrozen = new WeakSet<object>();

/**
 * A frozen deep copy of plain data (objects, arrays, primitives). Inputs frozen all the way down
 * (plain data only, see `isDeepFrozen`) are shared, not copied; an object reached twice is
 * copied once, through the copier's `seen`.
 */
function frozenCopy(value: unknown, copier: Copier, depth = 0): unknown {
  // Records are data: a function has no place in one and is not passed on.
  if (typeof value === 'function') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (deepFrozen.has(value)) return value;
  // An empty list (the usual `invalid`) needs no bookkeeping: it becomes the shared empty list.
  if (Array.isArray(value) && value.length === 0 && !Object.isFrozen(value)) return NO_ITEMS;
  const seen = (copier.seen ??= new Map<object, unknown>());
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (depth > MAX_DEPTH) throw new TypeError('the record is nested too deeply (or contains a cycle)');
  if (Object.isFrozen(value) && isDeepFrozen(value, depth)) return value;
  let copy: unknown;
  if (Array.isArray(value)) {
    const length = boundedLength(value);
    if (length === 0) {
      copy = NO_ITEMS;
    } else {
      const items = new Array<unknown>(length);
      for (let i = 0; i < length; i += 1) items[i] = frozenCopy(value[i], copier, depth + 1);
      copy = Object.freeze(items);
    }
  } else {
    // Scores and means: numbers only, nothing to recurse into.
    const numbers = flatNumbers(value);
    if (numbers !== undefined) {
      freezeNumbers(numbers);
      copy = numbers;
    } else {
      const fields: Record<string, unknown> = {};
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const item = frozenCopy((value as Record<string, unknown>)[key], copier, depth + 1);
        // `__proto__` must become an own key, not the copy's prototype.
        if (key === '__proto__') Object.defineProperty(fields, key, { value: item, enumerable: true, writable: true, configurable: true });
        else fields[key] = item;
      }
      copy = Object.freeze(fields);
    }
  }
  seen.set(value, copy);
  return copy;
}

/**
 * A copy of an object whose own enumerable string-keyed values are all numbers (scores, means);
 * otherwise undefined. The copy is a spread: each own property is read once (a getter runs once),
 * and V8 clones a plain object's layout in one step, several times faster than a walk that builds
 * the copy key by key. The check then walks the copy, which is ours and cannot change under it.
 * A spread also copies symbol-keyed properties; no reader of the view looks at them, and
 * `freezeNumbers` removes them before the view is frozen and handed to anyone else.
 */
function flatNumbers(value: object): Record<string, number> | undefined {
  if (Array.isArray(value)) return undefined;
  const copy: Record<string, unknown> = { ...value };
  // Own keys come first in a for-in walk; an inherited one that is not a number also sends the
  // object down the generic path, which copies own keys only.
  for (const key in copy) if (typeof copy[key] !== 'number') return undefined;
  return copy as Record<string, number>;
}

/** Freezes an object of numbers `flatNumbers` made, without the symbol-keyed properties its spread copied. */
function freezeNumbers(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  for (const symbol of Object.getOwnPropertySymbols(value)) delete (value as Record<symbol, unknown>)[symbol];
  Object.freeze(value);
}

/**
 * Whether an object is frozen all the way down and holds plain data only (remembered, so each is
 * walked once). A getter, even on a frozen object, could answer each oracle differently, and an
 * object with a prototype of its own could inherit one, so neither is shared: it is copied.
 */
function isDeepFrozen(value: object, depth: number): boolean {
  if (deepFrozen.has(value)) return true;
  if (!Object.isFrozen(value) || depth > MAX_DEPTH) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== null && proto !== Object.prototype && proto !== Array.prototype) return false;
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor)) return false;
    const item: unknown = descriptor.value;
    if (typeof item === 'function') return false;
    if (item !== null && typeof item === 'object' && !isDeepFrozen(item, depth + 1)) return false;
  }
  deepFrozen.add(value);
  return true;
}

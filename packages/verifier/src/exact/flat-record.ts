import type { Rubric, Vote } from '@conclave/scoring';
import { boundedLength } from '../record-bounds.js';
import { plainVote, type ScoreRows } from './score-rows.js';

/**
 * The votes and consensus members of a record in its usual shape, read straight into lists
 * (ADR 0049): no copy of a vote, of its scores or of a member is made. It is read only when the
 * whole of that part has the usual shape, each value once:
 *
 * - every vote a plain object with a member id and weight as `isValidVote` wants them, and
 *   scores that make a valid row (read into `rows`, row i vote i's, walked once);
 * - the consensus members are the voters, in the same order, each member's scores the very
 *   object its vote's are (read once, with the vote's) or an object holding the very same row
 *   (a record parsed from JSON holds a copy), its score a number and its verdict a string;
 * - the dissenters are those member objects, in the members' order, then objects with a member
 *   id of their own (copies, again).
 *
 * The votes, which alone decide the tally, are each read once. A member's scores that are not
 * its vote's own object, or a dissenter that is not the next member found, are read as
 * objects of their own: should such an object be one read already (another vote's scores), it
 * is read again, where the general view would share the first reading. Plain data reads the
 * same both times; and the member check then only confirms that the scores are its vote's.
 *
 * Anything else (an invalid vote, a member that is not its vote's, a member's scores that differ
 * from its vote's or are another's object) gives undefined, and the record is read into the
 * general private view instead, which copies it (ADR 0009). What was read here is then dropped.
 */
export interface FlatVotes {
  /** How many votes (and consensus members): the lists' first `count` entries are this record's (they are lent, and may be longer). */
  readonly count: number;
  /** Vote i's member id (member i's too). */
  readonly ids: readonly string[];
  /** Vote i's weight, undefined when it has none. */
  readonly weights: readonly (number | undefined)[];
  /** Row i is vote i's scores in the rubric's axis order (space lent for one verification). */
  readonly rows: Float64Array;
  /** Member i's recorded score and verdict. */
  readonly memberScores: readonly number[];
  readonly memberVerdicts: readonly string[];
  /** The recorded dissenters' member ids, in order. */
  readonly dissent: readonly string[];
}

/** What `readFlatVotes` reads: the record's votes and its scored consensus's members and dissent. */
export interface FlatSource {
  readonly votes: unknown;
  readonly members: unknown;
  readonly dissent: unknown;
}

/**
 * The lists a flat reading fills, kept from one verification to the next (made anew, they were a
 * twentieth of a 100-vote verification) and lent for one (`PreRead`). They hold primitives only;
 * the ids and verdicts a reading put in them are dropped when the verification ends.
 */
export class FlatLists {
  readonly ids: string[] = [];
  readonly weights: (number | undefined)[] = [];
  readonly memberScores: number[] = [];
  readonly memberVerdicts: string[] = [];
  /** How many entries the readings since the last `clear` may have filled. */
  #filled = 0;

  /** Marks the first `count` entries of each list as about to be filled. */
  fill(count: number): void {
    if (count > this.#filled) this.#filled = count;
  }

  /** Drops the ids and verdicts the readings put in the lists. */
  clear(): void {
    const { ids, memberVerdicts } = this;
    for (let i = 0; i < this.#filled; i += 1) {
      ids[i] = '';
      memberVerdicts[i] = '';
    }
    this.#filled = 0;
  }
}

/**
 * The votes and members read flat into `lists`, or undefined when any of them has another
 * shape. `rows` has room for a row of `reader`'s rubric per vote.
 */
export function readFlatVotes(
  source: FlatSource,
  reader: ScoreRows<string>,
  rows: Float64Array,
  width: number,
  lists: FlatLists,
): FlatVotes | undefined {
  const { votes, members, dissent } = source;
  if (!Array.isArray(votes) || !Array.isArray(members) || !Array.isArray(dissent)) return undefined;
  const count = boundedLength(votes);
  // `rows` was sized by a reading of the votes' length before this one: a list whose length changed since is not read flat.
  if (count === 0 || boundedLength(members) !== count || rows.length < count * width) return undefined;
  lists.fill(count);
  const { ids, weights, memberScores, memberVerdicts } = lists;
  // The dissenters, each read once; matched to the members in one pass (they list members in the
  // members' order), up to the first that is not the next of them: from there on each is read as
  // an object of its own (a record parsed from JSON holds copies).
  const dissentCount = boundedLength(dissent);
  const dissenters = dissentCount === 0 ? NO_ITEMS : new Array<unknown>(dissentCount);
  for (let d = 0; d < dissentCount; d += 1) (dissenters as unknown[])[d] = dissent[d];
  const dissentIds = dissentCount === 0 ? NO_ITEMS : new Array<string>(dissentCount);
  let matched = 0;
  // Space for a member's own row, made at the first member whose scores are an object of their own.
  let memberRow: Float64Array | undefined;
  for (let i = 0; i < count; i += 1) {
    const vote: unknown = votes[i];
    if (vote === null || typeof vote !== 'object' || Array.isArray(vote)) return undefined;
    const { memberId, weight, scores } = vote as { memberId?: unknown; weight?: unknown; scores?: unknown };
    if (!plainVote(memberId, weight)) return undefined;
    if (scores === null || typeof scores !== 'object' || Array.isArray(scores)) return undefined;
    if (!reader.readRow(scores, rows, i * width)) return undefined;
    ids[i] = memberId as string;
    weights[i] = weight as number | undefined;
    const member: unknown = members[i];
    if (member === null || typeof member !== 'object' || Array.isArray(member)) return undefined;
    const read = member as { memberId?: unknown; scores?: unknown; score?: unknown; verdict?: unknown };
    const own = read.scores;
    const score = read.score;
    const verdict = read.verdict;
    if (read.memberId !== memberId || typeof score !== 'number' || typeof verdict !== 'string') return undefined;
    // Scores of the member's own (a record parsed from JSON holds a copy) must hold the very same row.
    if (own !== scores) {
      if (own === null || typeof own !== 'object' || Array.isArray(own)) return undefined;
      memberRow ??= new Float64Array(width);
      if (!reader.readRow(own, memberRow, 0) || !sameRow(rows, i * width, memberRow, width)) return undefined;
    }
    memberScores[i] = score;
    memberVerdicts[i] = verdict;
    if (matched < dissentCount && dissenters[matched] === member) (dissentIds as string[])[matched++] = memberId as string;
  }
  for (let d = matched; d < dissentCount; d += 1) {
    const dissenter = dissenters[d];
    if (dissenter === null || typeof dissenter !== 'object') return undefined;
    const memberId: unknown = (dissenter as { memberId?: unknown }).memberId;
    if (typeof memberId !== 'string') return undefined;
    (dissentIds as string[])[d] = memberId;
  }
  return { count, ids, weights, rows, memberScores, memberVerdicts, dissent: dissentIds };
}

const NO_ITEMS: readonly never[] = Object.freeze([]);

/** Whether row `at` of `rows` holds the first `width` numbers of `row`, each the same number. */
function sameRow(rows: Float64Array, at: number, row: Float64Array, width: number): boolean {
  for (let a = 0; a < width; a += 1) if (!Object.is(rows[at + a], row[a])) return false;
  return true;
}

/**
 * The votes of flat lists as objects (scores in the rubric's axis order, read from the rows), to
 * recompute the whole consensus from. Made only during the verification that read the rows.
 */
export function flatVoteObjects<A extends string>(flat: FlatVotes, rubric: Rubric<A>): Vote<A>[] {
  const { axes } = rubric;
  const width = axes.length;
  const votes = new Array<Vote<A>>(flat.count);
  for (let i = 0; i < flat.count; i += 1) {
    const scores = {} as Record<A, number>;
    for (let a = 0; a < width; a += 1) {
      // Plain assignment would not make an own `__proto__` key.
      Object.defineProperty(scores, axes[a] as A, {
        value: flat.rows[i * width + a],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    const memberId = flat.ids[i] as string;
    const weight = flat.weights[i];
    votes[i] = weight === undefined ? { memberId, scores } : { memberId, scores, weight };
  }
  return votes;
}

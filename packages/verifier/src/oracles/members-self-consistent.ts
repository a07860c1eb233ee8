import { MAX_SCORE, type MemberScore, type Verdict, type Vote } from '@conclave/scoring';
import { exactMemberUnits, exactVerdict, tallyScore, tallyVerdict, type ScoredTally } from '../exact/exact-consensus.js';
import type { FlatVotes } from '../exact/flat-record.js';
import { flatVotesOf, tallyOf } from '../exact/tally-of.js';
import type { OracleFinding } from '../claim.js';
import type { DecisionView } from '../decision-view.js';
import type { Oracle } from '../oracle.js';
import { proven, refuted, SCORE_TOLERANCE, unprovable } from './finding.js';

/**
 * Each member's recorded score and verdict follow from its own axis scores, the members are the
 * valid voters with the scores their votes give (recomputed), and the dissent lists exactly the
 * members whose own verdict differs from the consensus.
 */
export const membersSelfConsistent: Oracle<'members_self_consistent'> = {
  name: 'members-self-consistent',
  kind: 'members_self_consistent',
  prove(_claim, record, context) {
    const { consensus, rubric } = record;
    if (consensus.status !== 'scored') return unprovable('there is no scored consensus whose members could be checked');
    const members = consensus.members;
    // Self-consistent is not enough: a maker could rewrite a dissenter's scores to hide it.
    // The usual case, an honest record: the same members in the same order. The verifier's own
    // context gives the recomputed members as a tally, with no member objects (ADR 0045).
    const tally = tallyOf(context);
    const flat = flatVotesOf(context);
    // A record read flat (ADR 0049): the members are the voters in order, each scored from its vote's scores.
    if (flat !== undefined && tally !== undefined && tally.status === 'scored') return flatInOrder(consensus.verdict, flat, tally);
    if (tally !== undefined && tally.status === 'scored' && tally.valid !== undefined && sameIds(members, tally.valid))
      return inOrder(consensus, tallyTwins(tally, tally.valid), rubric);
    const truth = context.recomputed();
    if (truth.status === 'scored' && sameIds(members, truth.members)) return inOrder(consensus, memberTwins(truth.members), rubric);
    const problems: string[] = [];
    // The recomputed member behind each recorded one (by member id), when there is one.
    const matched = new Array<MemberScore | undefined>(members.length);
    if (truth.status === 'scored') {
      const real = truth.members;
      const recordedIds = idsOf(members);
      let left: string[] | undefined;
      for (const m of real) if (!recordedIds.has(m.memberId)) (left ??= []).push(m.memberId);
      if (left !== undefined) problems.push(`members left out: ${left.join(', ')}`);
      const realIds = idsOf(real);
      for (let i = 0; i < members.length; i += 1) {
        const member = members[i] as RecordedMember;
        const at = realIds.indexOf(member.memberId);
        const found = at < 0 ? undefined : real[at];
        matched[i] = found;
        if (found === undefined) problems.push(`${member.memberId}: listed as a member but cast no valid vote`);
        else if (!(Math.abs(found.score - member.score) <= SCORE_TOLERANCE))
          problems.push(`${member.memberId}: the votes give a score of ${found.score}, recorded ${member.score}`);
      }
    }
    const dissenters: string[] = [];
    for (let i = 0; i < members.length; i += 1)
      ownProblems(members[i] as RecordedMember, matched[i], consensus.verdict, rubric, problems, dissenters);
    return withDissent(memberIds(consensus.dissent), dissenters, problems);
  },
};

type ScoredView = Extract<DecisionView['consensus'], { status: 'scored' }>;
type RecordedMember = ScoredView['members'][number];

/**
 * The recomputed members, by position: member i's score, its verdict and the scores object it was
 * scored from. Read from the member objects, or from a tally, which has none.
 */
interface Twins {
  score(i: number): number;
  verdict(i: number): Verdict;
  scores(i: number): unknown;
}

function memberTwins(real: readonly MemberScore[]): Twins {
  return {
    score: (i) => (real[i] as MemberScore).score,
    verdict: (i) => (real[i] as MemberScore).verdict,
    scores: (i) => (real[i] as MemberScore).scores,
  };
}

function tallyTwins(tally: ScoredTally, valid: readonly Vote[]): Twins {
  return {
    score: (i) => tallyScore(tally, i),
    verdict: (i) => tallyVerdict(tally, i),
    scores: (i) => (valid[i] as Vote).scores,
  };
}

/**
 * The check when the recorded members are the recomputed ones in the same order (an honest
 * record): one pass over both lists, with no lookups. It finds what the general check finds, and
 * lists it in the same order: every recomputed score that differs first, then each member's own.
 */
function inOrder(consensus: ScoredView, twins: Twins, rubric: DecisionView['rubric']): OracleFinding {
  const members = consensus.members;
  let differ: string[] | undefined;
  const own: string[] = [];
  const dissenters: string[] = [];
  for (let i = 0; i < members.length; i += 1) {
    const member = members[i] as RecordedMember;
    const score = twins.score(i);
    if (!(Math.abs(score - member.score) <= SCORE_TOLERANCE))
      (differ ??= []).push(`${member.memberId}: the votes give a score of ${score}, recorded ${member.score}`);
    // A member whose scores are the very (frozen) object its recomputed twin was scored from
    // already has that score and verdict: both were just computed exactly from those scores.
    if (twins.scores(i) === member.scores)
      ownChecked(member.memberId, member.score, member.verdict, score, twins.verdict(i), consensus.verdict, own, dissenters);
    else ownProblems(member, undefined, consensus.verdict, rubric, own, dissenters);
  }
  return withDissent(memberIds(consensus.dissent), dissenters, differ === undefined ? own : [...differ, ...own]);
}

/**
 * `inOrder` for a record read flat (ADR 0049): member i is vote i's member, its scores the very
 * object vote i's are, so its own score and verdict are the recomputed ones. The same findings,
 * in the same order, from the lists.
 */
function flatInOrder(verdict: ScoredView['verdict'], flat: FlatVotes, tally: ScoredTally): OracleFinding {
  const { ids, memberScores, memberVerdicts } = flat;
  let differ: string[] | undefined;
  const own: string[] = [];
  const dissenters: string[] = [];
  for (let i = 0; i < flat.count; i += 1) {
    const memberId = ids[i] as string;
    const recorded = memberScores[i] as number;
    const score = tallyScore(tally, i);
    if (!(Math.abs(score - recorded) <= SCORE_TOLERANCE))
      (differ ??= []).push(`${memberId}: the votes give a score of ${score}, recorded ${recorded}`);
    ownChecked(memberId, recorded, memberVerdicts[i] as string, score, tallyVerdict(tally, i), verdict, own, dissenters);
  }
  return withDissent(flat.dissent, dissenters, differ === undefined ? own : [...differ, ...own]);
}

/**
 * One member's own score and verdict checked against its axis scores (its problems added to
 * `problems`), and the member added to `dissenters` when the verdict its scores earn is not the
 * consensus's.
 */
function ownProblems(
  member: RecordedMember,
  twin: MemberScore | undefined,
  verdict: ScoredView['verdict'],
  rubric: DecisionView['rubric'],
  problems: string[],
  dissenters: string[],
): void {
  // A member whose scores are the very (frozen) object its recomputed twin was scored from
  // already has that score and verdict: both were just computed exactly from those scores.
  if (twin !== undefined && twin.scores === member.scores) {
    ownChecked(member.memberId, member.score, member.verdict, twin.score, twin.verdict, verdict, problems, dissenters);
    return;
  }
  const unreadable = notAScore(member.scores, rubric.axes);
  if (unreadable !== undefined) {
    problems.push(`${member.memberId}: ${unreadable}`);
    return;
  }
  const own = exactMemberUnits(member.scores, rubric) / 1e9;
  ownChecked(member.memberId, member.score, member.verdict, own, exactVerdict(own, rubric.thresholds), verdict, problems, dissenters);
}

/**
 * Why a recorded member's own scores cannot be scored (an axis missing, or not a number from 0
 * to MAX_SCORE: NaN, Infinity, a string), or undefined when they can. The shape check does not
 * read members' scores, and the exact arithmetic takes finite numbers only.
 */
function notAScore(scores: unknown, axes: readonly string[]): string | undefined {
  if (scores === null || typeof scores !== 'object') return `its scores are ${String(scores)}, not an object of axis scores`;
  for (const axis of axes) {
    const value: unknown = (scores as Record<string, unknown>)[axis];
    if (typeof value !== 'number' || !(value >= 0 && value <= MAX_SCORE))
      return `its ${axis} score is ${typeof value === 'string' ? `"${value}"` : String(value)}, not a number from 0 to ${MAX_SCORE}`;
  }
  return undefined;
}

/**
 * `ownProblems` for a member (its id, recorded score and recorded verdict) whose scores give the
 * score `own`, which earns `earned`.
 */
function ownChecked(
  memberId: string,
  score: number,
  recordedVerdict: string,
  own: number,
  earned: Verdict,
  verdict: ScoredView['verdict'],
  problems: string[],
  dissenters: string[],
): void {
  if (!(Math.abs(own - score) <= SCORE_TOLERANCE)) problems.push(`${memberId}: scores add up to ${own}, recorded ${score}`);
  if (earned !== recordedVerdict) problems.push(`${memberId}: a score of ${own} earns ${earned}, recorded ${recordedVerdict}`);
  if (earned !== verdict) dissenters.push(memberId);
}

/** The finding, once the recorded dissent is compared with the members whose own verdict differs. */
function withDissent(dissent: readonly string[], dissenters: string[], problems: string[]): OracleFinding {
  if (!sameIdList(dissent, dissenters)) {
    const recorded = new Ids(dissent);
    const missing = dissenters.filter((id) => !recorded.has(id));
    const expected = dissenters.length > SHORT_LIST ? new Set(dissenters) : undefined;
    const invented = recorded.distinct().filter((id) => !(expected !== undefined ? expected.has(id) : dissenters.includes(id)));
    if (missing.length > 0) problems.push(`dissent left out: ${missing.join(', ')}`);
    if (invented.length > 0) problems.push(`listed as dissent but agreeing: ${invented.join(', ')}`);
  }
  return problems.length === 0
    ? proven(`every member's verdict follows from its scores; ${dissenters.length} dissent${dissenters.length === 1 ? 's' : ''}`, {
        dissent: dissenters,
      })
    : refuted(problems.join('; '), { problems, dissent: dissenters });
}

/** `sameIds` of two lists of ids. */
function sameIdList(a: readonly string[], ids: readonly string[]): boolean {
  if (a.length !== ids.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as string;
    const y = ids[i] as string;
    if (x !== y && !(x !== x && y !== y)) return false;
  }
  return true;
}

/** Whether two lists hold the same member ids in the same order (no id missing, none invented). */
function sameIds(a: readonly { readonly memberId: string }[], b: readonly { readonly memberId: string }[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = (a[i] as { readonly memberId: string }).memberId;
    const y = (b[i] as { readonly memberId: string }).memberId;
    if (x !== y && !(x !== x && y !== y)) return false;
  }
  return true;
}

/** Lists up to this long are searched; longer ones are indexed. */
const SHORT_LIST = 16;

/** Member ids, looked up as a Set would (SameValueZero): a short list is searched, a long one indexed. */
class Ids {
  readonly #ids: readonly string[];
  readonly #first: Map<string, number> | undefined;
  constructor(ids: readonly string[]) {
    this.#ids = ids;
    if (ids.length > SHORT_LIST) {
      const first = new Map<string, number>();
      for (let i = 0; i < ids.length; i += 1) if (!first.has(ids[i] as string)) first.set(ids[i] as string, i);
      this.#first = first;
    }
  }

  has(id: string): boolean {
    return this.#first !== undefined ? this.#first.has(id) : this.#ids.includes(id);
  }

  /** Where the id first appears, or -1. */
  indexOf(id: string): number {
    if (this.#first !== undefined) return this.#first.get(id) ?? -1;
    const ids = this.#ids;
    for (let i = 0; i < ids.length; i += 1) if (ids[i] === id || (ids[i] !== ids[i] && id !== id)) return i;
    return -1;
  }

  /** Each id once, in the order of first appearance. */
  distinct(): string[] {
    if (this.#first !== undefined) return [...this.#first.keys()];
    const ids = this.#ids;
    const once: string[] = [];
    for (let i = 0; i < ids.length; i += 1) if (!once.includes(ids[i] as string)) once.push(ids[i] as string);
    return once;
  }
}

function idsOf(list: readonly { readonly memberId: string }[]): Ids {
  return new Ids(memberIds(list));
}

/** The member ids of a list of members, in order. */
function memberIds(list: readonly { readonly memberId: string }[]): string[] {
  const ids = new Array<string>(list.length);
  for (let i = 0; i < list.length; i += 1) ids[i] = (list[i] as { readonly memberId: string }).memberId;
  return ids;
}

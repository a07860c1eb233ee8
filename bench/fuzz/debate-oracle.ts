/**
 * The fault campaign's own judge of a debate, written from the rules in docs/council.md and
 * packages/scoring (not by calling them): a member's score is the rubric-weighted sum of its
 * axis scores, the board's score the member-weighted mean of those, GO at or above the `go`
 * threshold, PIVOT at or above `pivot`, and NO_GO without a quorum of valid votes or when the
 * debate stopped. The plan keeps scores in halves and rubric weights in twentieths, so the
 * arithmetic here is exact in integers: no rounding can move a board across a threshold, and a
 * disagreement is the engine's.
 */
import type { DebateResult } from '@conclave/council';
import type { Expectation } from './adapter-kinds.js';
import type { Finding } from './findings.js';

/** One member of a planned debate. */
export interface DebateMemberPlan {
  readonly id: string;
  readonly phaseIndex: number;
  /** The weight the board gives the member (1 when the board names none). */
  readonly weight: number;
  readonly kind: string;
  readonly expect: Expectation;
  /** The scores its honest reply carries (what a counted member must be counted with). */
  readonly scores: Readonly<Record<string, number>>;
}

/** Everything the oracle knows about a debate: the board as generated, not as loaded. */
export interface DebatePlan {
  readonly axes: readonly string[];
  /** Each axis' rubric weight in twentieths (they sum to 20). */
  readonly twentieths: readonly number[];
  /** The thresholds in halves: GO at `goHalves / 2`, PIVOT at `pivotHalves / 2`. */
  readonly goHalves: number;
  readonly pivotHalves: number;
  readonly quorum: number;
  readonly members: readonly DebateMemberPlan[];
  readonly maxCalls?: number;
}

type Verdict = 'GO' | 'PIVOT' | 'NO_GO';

/**
 * The verdict the oracle computes from the transcript's votes, or a finding when a counted vote
 * is not one this board could have produced.
 */
export function oracleVerdict(plan: DebatePlan, result: DebateResult, findings: Finding[]): Verdict {
  const byId = new Map(plan.members.map((member) => [member.id, member]));
  let totalWeight = 0;
  // Σ weight × (member score × 40): a member score in fortieths is Σ twentieths × (2 × score).
  let weighted = 0;
  let valid = 0;
  const seen = new Set<string>();
  for (const contribution of result.transcript) {
    const member = byId.get(contribution.memberId);
    if (member === undefined) {
      findings.push({ kind: 'fail_open', message: `counted "${contribution.memberId}", who is not on the board` });
      continue;
    }
    if (seen.has(member.id)) {
      findings.push({ kind: 'fail_open', message: `counted ${member.id} twice` });
      continue;
    }
    seen.add(member.id);
    const fortieths = scoreInFortieths(plan, contribution.scores);
    if (fortieths === undefined) {
      findings.push({
        kind: 'fail_open',
        message: `counted ${member.id} (${member.kind}) with scores that are not a valid vote: ${describe(contribution.scores)}`,
      });
      continue;
    }
    valid += 1;
    totalWeight += member.weight;
    weighted += member.weight * fortieths;
  }
  if (result.status !== 'completed' || valid < plan.quorum) return 'NO_GO';
  // score = weighted / (40 × totalWeight); GO iff score ≥ goHalves / 2, i.e. 2 × weighted ≥ goHalves × 40 × totalWeight.
  if (2 * weighted >= plan.goHalves * 40 * totalWeight) return 'GO';
  if (2 * weighted >= plan.pivotHalves * 40 * totalWeight) return 'PIVOT';
  return 'NO_GO';
}

/** A vote's score in fortieths, or undefined unless it scores exactly the rubric's axes in halves from 0 to 10. */
function scoreInFortieths(plan: DebatePlan, scores: unknown): number | undefined {
  if (typeof scores !== 'object' || scores === null) return undefined;
  const keys = Object.keys(scores);
  if (keys.length !== plan.axes.length) return undefined;
  let total = 0;
  for (const [a, axis] of plan.axes.entries()) {
    if (!Object.hasOwn(scores, axis)) return undefined;
    const value: unknown = (scores as Record<string, unknown>)[axis];
    if (typeof value !== 'number' || !(value >= 0 && value <= 10) || !Number.isInteger(value * 2)) return undefined;
    total += (plan.twentieths[a] as number) * value * 2;
  }
  return total;
}

/**
 * Every way a debate's result can be wrong, against the plan: a verdict other than NO_GO from
 * a stopped or quorum-less board, a member counted although its adapter cannot give a valid
 * vote, a counted member whose scores are not those it sent, an abort the debate ignored, and
 * a verdict the oracle's arithmetic disagrees with. An honest member left out of a completed
 * debate fails closed and is reported as a lost vote.
 */
export function checkDebate(plan: DebatePlan, result: DebateResult, abortFired: boolean): Finding[] {
  const findings: Finding[] = [];
  const expected = oracleVerdict(plan, result, findings);
  const counted = new Set(result.transcript.map((c) => c.memberId));
  const degraded =
    result.status !== 'completed'
      ? `a ${result.stopReason?.kind ?? 'stopped'} debate`
      : counted.size < plan.quorum
        ? `${counted.size} valid votes for a quorum of ${plan.quorum}`
        : undefined;
  if (result.verdict !== 'NO_GO' && degraded !== undefined)
    findings.push({ kind: 'fail_open', message: `${result.verdict} from ${degraded}` });
  if (abortFired && result.status === 'completed')
    findings.push({ kind: 'fail_open', message: 'the caller aborted mid-run, yet the debate completed' });
  for (const contribution of result.transcript) {
    const member = plan.members.find((m) => m.id === contribution.memberId);
    if (member === undefined) continue;
    if (member.expect === 'fails') {
      const timing = result.timings.find((t) => t.memberId === member.id);
      const took = timing === undefined ? '' : ` (its call took ${timing.latencyMs.toFixed(0)} ms)`;
      findings.push({
        kind: 'fail_open',
        message: `counted ${member.id} as a vote although its adapter (${member.kind}) cannot give one${took}`,
      });
    } else if (!sameScores(member.scores, contribution.scores)) {
      findings.push({
        kind: 'fail_open',
        message: `counted ${member.id} (${member.kind}) with ${describe(contribution.scores)}, not the ${describe(member.scores)} it sent`,
      });
    }
  }
  if (result.status === 'completed') {
    for (const member of plan.members) {
      if (member.expect === 'valid' && !counted.has(member.id)) {
        const failure = result.failures.find((f) => f.memberId === member.id);
        findings.push({
          kind: 'lost_honest_vote',
          message: `${member.id} (${member.kind}) answered honestly but was not counted (${failure?.reason.kind ?? 'no failure recorded'})`,
        });
      }
    }
  }
  if (result.verdict !== expected) findings.push({ kind: 'verdict_mismatch', message: `engine ${result.verdict}, oracle ${expected}` });
  return findings;
}

function sameScores(sent: Readonly<Record<string, number>>, counted: unknown): boolean {
  if (typeof counted !== 'object' || counted === null) return false;
  const keys = Object.keys(sent);
  return (
    Object.keys(counted).length === keys.length &&
    keys.every((axis) => Object.hasOwn(counted, axis) && Object.is((counted as Record<string, unknown>)[axis], sent[axis]))
  );
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '(unprintable)';
  }
}

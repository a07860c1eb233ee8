/**
 * The fault campaign's own judge of a meeting, written from docs/meeting.md (not by calling
 * the package): only `decided` carries a decision; every round a decision rests on kept a
 * quorum of 3 answering members; a member whose adapter cannot give a stance never has one; a
 * counted stance is the one the member sent; and the choice is the front-runner of the last
 * round: most backers, then the higher total confidence, then slate order. Confidences are
 * eighths, so their totals are exact.
 */
import type { MeetingResult, MemberTurn } from '@conclave/meeting';
import type { Expectation } from './adapter-kinds.js';
import type { Finding } from './findings.js';

/** Fewest answering members a round needs (docs/meeting.md, "Abstention and quorum"). */
const QUORUM = 3;

/** One member of a planned meeting. */
export interface MeetingMemberPlan {
  readonly id: string;
  readonly facilitator: boolean;
  readonly kind: string;
  readonly expect: Expectation;
  /** The option its honest stance backs, in every round. */
  readonly preferred: string;
  /** Its honest confidence, in eighths. */
  readonly eighths: number;
}

/** Everything the oracle knows about a meeting: the brief as generated. */
export interface MeetingPlan {
  readonly options: readonly string[];
  readonly members: readonly MeetingMemberPlan[];
  readonly maxRounds: number;
}

type Stanced = Extract<MemberTurn, { readonly stance: unknown }>;

function stances(turns: readonly MemberTurn[]): Stanced[] {
  return turns.filter((turn): turn is Stanced => 'stance' in turn);
}

/** The front-runner of a round by the oracle's own tally, with merged options counted for their target. */
export function oracleChoice(result: MeetingResult, turns: readonly Stanced[]): string | undefined {
  const slate = result.record.slate;
  const target = (id: string): string => slate.find((option) => option.id === id)?.mergedInto ?? id;
  const live = slate.filter((option) => option.mergedInto === undefined).map((option) => option.id);
  const support = new Map<string, { backers: number; confidence: number }>();
  for (const turn of turns) {
    const option = target(turn.stance.preferredOption);
    const entry = support.get(option) ?? { backers: 0, confidence: 0 };
    entry.backers += 1;
    entry.confidence += turn.stance.confidence;
    support.set(option, entry);
  }
  const rank = (option: string): number => (live.includes(option) ? live.indexOf(option) : Number.MAX_SAFE_INTEGER);
  return [...support].sort(([a, x], [b, y]) => y.backers - x.backers || y.confidence - x.confidence || rank(a) - rank(b))[0]?.[0];
}

/** Every way a meeting's result can be wrong, against the plan. */
export function checkMeeting(plan: MeetingPlan, result: MeetingResult, abortFired: boolean): Finding[] {
  const findings: Finding[] = [];
  const { outcome, synthesis } = result;
  const rounds = result.record.rounds;
  if (outcome !== 'decided' && synthesis !== undefined)
    findings.push({ kind: 'fail_open', message: `a synthesis (choice ${synthesis.decision.choice}) from a meeting that ended ${outcome}` });
  if (abortFired && outcome !== 'aborted') {
    findings.push({
      kind: outcome === 'decided' ? 'fail_open' : 'verdict_mismatch',
      message: `the caller aborted mid-run, yet the meeting ended ${outcome}`,
    });
  }
  const byId = new Map(plan.members.map((member) => [member.id, member]));
  for (const round of rounds) {
    for (const turn of stances(round.turns)) {
      const member = byId.get(turn.memberId);
      if (member === undefined)
        findings.push({ kind: 'fail_open', message: `round ${round.round} counted "${turn.memberId}", who is not on the roster` });
      else if (member.expect === 'fails')
        findings.push({
          kind: 'fail_open',
          message: `round ${round.round} counted ${member.id}'s stance although its adapter (${member.kind}) cannot give one`,
        });
      else if (turn.stance.preferredOption !== member.preferred || turn.stance.confidence * 8 !== member.eighths) {
        findings.push({
          kind: 'fail_open',
          message: `round ${round.round} counted ${member.id} (${member.kind}) for ${turn.stance.preferredOption} at ${turn.stance.confidence}, not the ${member.preferred} at ${member.eighths / 8} it sent`,
        });
      }
    }
  }
  const thin = rounds.find((round) => stances(round.turns).length < QUORUM);
  if (outcome === 'decided') {
    if (thin !== undefined)
      findings.push({
        kind: 'fail_open',
        message: `decided although round ${thin.round} had ${stances(thin.turns).length} answering members, fewer than ${QUORUM}`,
      });
    const last = rounds.at(-1);
    if (last === undefined || synthesis === undefined) {
      findings.push({
        kind: 'fail_open',
        message: `decided with ${rounds.length} rounds and ${synthesis === undefined ? 'no' : 'a'} synthesis`,
      });
    } else {
      const expected = oracleChoice(result, stances(last.turns));
      if (synthesis.decision.choice !== expected)
        findings.push({
          kind: 'verdict_mismatch',
          message: `engine chose ${synthesis.decision.choice}, oracle ${expected ?? '(nothing)'}`,
        });
    }
    for (const member of plan.members) {
      const missed =
        member.expect === 'valid' ? rounds.find((round) => !stances(round.turns).some((turn) => turn.memberId === member.id)) : undefined;
      if (missed !== undefined)
        findings.push({
          kind: 'lost_honest_vote',
          message: `${member.id} (${member.kind}) answered honestly but abstained in round ${missed.round}`,
        });
    }
  } else if (outcome === 'no_quorum' && thin === undefined) {
    findings.push({ kind: 'verdict_mismatch', message: 'ended no_quorum although every round kept a quorum' });
  }
  return findings;
}

import type { ConsensusResult, Rubric, Vote } from '@conclave/scoring';
import type { CalibratedDecision } from '@conclave/scoring/calibration';
import type { Claim } from './claim.js';
import type { DecisionRecord } from './decision-record.js';
import type { Evidence, ValidationSignal } from './evidence.js';
import type { Tier } from './tier.js';

/**
 * The parts of a council board the record needs. Structural, so the verifier depends on no
 * council code: `@conclave/council`'s `Board` fits as it is. `A` is the rubric's axis names.
 */
export interface DebateBoardShape<A extends string = string> {
  readonly id: string;
  readonly rubric: Rubric<A>;
  readonly minValidVotes: number;
  readonly facts: readonly { readonly axis: string; readonly value: number; readonly note: string }[];
}

/** The parts of a debate result the record needs; `@conclave/council`'s `DebateResult` fits. `A` is the rubric's axis names. */
export interface DebateResultShape<A extends string = string> {
  readonly question: string;
  readonly consensus: ConsensusResult<A>;
  readonly votes: readonly Vote<A>[];
  readonly transcript: readonly {
    readonly memberId: string;
    readonly scores: Readonly<Record<A, number>>;
    readonly statement: string;
    readonly evidence: readonly { readonly claim: string }[];
  }[];
  /**
   * Whether every phase ran. A stopped debate (a budget, an abort, invalid input) is NO_GO
   * whatever its partial votes add up to (ADR 0005), so its record can never be approved.
   */
  readonly status?: 'completed' | 'stopped';
  readonly stopReason?: { readonly kind: string };
  /** The board's decision rule and, under the calibrated rule, its working (absent without a quorum). */
  readonly decision?: { readonly rule: { readonly rule: string }; readonly calibrated?: CalibratedDecision };
}

/**
 * A debate as a decision record the verifier can check: the votes and the consensus as the
 * engine computed them, the board's facts as document evidence, and each member's citations as
 * model statements. Gates or tests that ran for the decision come in as validation signals.
 * The board's rubric axes `A` carry into the record's rubric, votes and consensus.
 *
 * @example
 * const result = await DebateEngine.run(board, { question, adapters });
 * const gate = emissionGate(decisionRecordFromDebate(board, result, { tier: 'T3', validation: [{ kind: 'test', name: 'e2e', passed: true }] }));
 */
export function decisionRecordFromDebate<A extends string = string>(
  board: DebateBoardShape<A>,
  result: DebateResultShape<A>,
  options: { readonly tier: Tier; readonly validation?: readonly ValidationSignal[] },
): DecisionRecord<A> {
  const facts: Evidence[] = board.facts.map((fact, i) => ({
    id: `fact-${i + 1}`,
    sourceId: `board:${board.id}`,
    kind: 'document',
    strength: 0.7,
    confidence: 0.8,
    supports: 'verdict_matches_score',
    statement: `${fact.axis} ${fact.value}/10: ${fact.note}`,
  }));
  const citations: Evidence[] = result.transcript.flatMap((c) =>
    c.evidence.map((cited, i) => ({
      id: `${c.memberId}-${i + 1}`,
      sourceId: `member:${c.memberId}`,
      kind: 'model_statement',
      strength: 0.5,
      confidence: 0.6,
      supports: 'verdict_matches_score',
      statement: cited.claim,
    })),
  );
  const checks: Evidence[] = (options.validation ?? []).map((signal, i) => ({
    id: `check-${i + 1}`,
    sourceId: `${signal.kind}:${signal.name}`,
    kind: signal.kind,
    strength: 0.9,
    confidence: 0.95,
    supports: 'verdict_matches_score',
    validation: [signal],
  }));
  return {
    id: `${board.id}: ${result.question}`,
    tier: options.tier,
    rubric: board.rubric,
    minValidVotes: board.minValidVotes,
    votes: result.transcript.map((c) => ({
      memberId: c.memberId,
      scores: c.scores,
      weight: result.votes.find((v) => v.memberId === c.memberId)?.weight ?? 1,
      rationale: c.statement,
    })),
    consensus: result.consensus,
    ...calibratedOf(result),
    evidence: [...facts, ...citations, ...checks],
    ...stoppedClaim(result),
  };
}

/**
 * For a debate that stopped, a required claim that it completed, which no oracle proves: its
 * votes are partial (a phase, perhaps the contrarian, never spoke), so the record is never
 * approved and no gate lets it act, whatever those votes add up to. The engine's own verdict for
 * it is NO_GO (ADR 0005); the claim says why the record is not approved: `stopped: <reason>`.
 */
function stoppedClaim(result: DebateResultShape): { claims?: readonly Claim[] } {
  if (result.status !== 'stopped') return {};
  const subject = `stopped: ${result.stopReason?.kind ?? 'unknown'}`;
  return { claims: [{ id: 'debate_completed', kind: 'debate_completed', subject, expected: true, required: true }] };
}

/** The calibrated decision when the board's rule is the calibrated one: a quorum not met is stated as such. */
function calibratedOf(result: DebateResultShape): { calibrated?: CalibratedDecision } {
  if (result.decision?.rule.rule !== 'calibrated') return {};
  const { consensus } = result;
  return {
    calibrated: result.decision.calibrated ?? {
      status: 'quorum_not_met',
      rule: 'calibrated',
      verdict: 'NO_GO',
      validVotes: consensus.validVotes,
      minValidVotes: consensus.minValidVotes,
    },
  };
}

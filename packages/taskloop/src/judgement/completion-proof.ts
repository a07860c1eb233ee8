import { aggregateConsensus, defineRubric } from '@conclave/scoring';
import {
  isPanelEmissionApproved,
  PANEL_TIER,
  tierAtLeast,
  verifyDecision,
  verifyPanel,
  type Claim,
  type DecisionRecord,
  type Evidence,
  type PanelVerdict,
  type RecordedVote,
  type Tier,
  type VerificationReport,
} from '@conclave/verifier';
import { createOracleRegistry, proven, refuted, type Oracle } from '@conclave/verifier/oracles';
import type { GateEvidence } from '../gates/gate-evidence.js';
import type { JudgementOutcome } from './rule-table.js';

/** The facts of one attempt the kernel is asked to prove complete. */
export interface CompletionFacts {
  readonly runId: string;
  readonly taskId: string;
  readonly attempt: number;
  readonly tier: Tier;
  /** Every gate selected for the task, as it ran: each one is required. */
  readonly gates: readonly GateEvidence[];
  /** Whether the builder ran properly (a check only when no gate ran); undefined for a re-verification, which builds nothing. */
  readonly builderOk?: boolean;
  /** The spec hash the run started with, and the hash of the snapshot now. */
  readonly specSha256: { readonly expected: string; readonly actual: string };
  /** Whether plan.md is byte for byte the orchestrator's last write. */
  readonly ledgerUntampered: boolean;
  /** The rule table's outcome, when the neural verifiers judged the attempt. */
  readonly judgement?: JudgementOutcome;
  /** A council's review verdict, when a board reviews completions. */
  readonly review?: { readonly go: boolean };
}

/** What the kernel concluded: complete only when the verifier (and from T3 the panel) approves. */
export interface CompletionProof {
  readonly complete: boolean;
  readonly report: VerificationReport;
  /** The lens panel's verdict, for tasks of tier T3 and above. */
  readonly panel?: PanelVerdict;
  /** The record the verifier checked, kept in the attempt's evidence. */
  readonly record: DecisionRecord;
}

/**
 * The completion rubric: one axis, and GO only at the top of the scale, so a single check that
 * fails (a 0 among 10s) makes the consensus NO_GO. Every check is a "member" that must vote.
 */
const COMPLETION_RUBRIC = defineRubric({
  id: 'taskloop.completion',
  axes: ['holds'] as const,
  weights: { holds: 1 },
  thresholds: { go: 10, pivot: 9.999 },
});

const SPEC_SOURCE = 'spec:sha256:';

/** `{ kind: 'completion_gates_passed', expected: [gate names] }`: each named gate ran and passed. */
const gatesPassed: Oracle<'completion_gates_passed'> = {
  name: 'completion-gates-passed',
  kind: 'completion_gates_passed',
  prove(claim, record) {
    if (!Array.isArray(claim.expected) || claim.expected.some((name) => typeof name !== 'string'))
      return refuted('the claim must list gate names');
    const signals = record.evidence.flatMap((item) => item.validation).filter((signal) => signal.kind === 'gate');
    const failing = (claim.expected as readonly string[]).filter((name) => {
      const runs = signals.filter((signal) => signal.name === `gate:${name}`);
      return runs.length === 0 || runs.some((signal) => !signal.passed);
    });
    return failing.length === 0
      ? proven(`${claim.expected.length} required gate(s) ran and passed`)
      : refuted(`required gate(s) missing or failed: ${failing.join(', ')}`, failing);
  },
};

/** `{ kind: 'completion_spec_unchanged', expected: '<sha256>' }`: the spec snapshot still has the run's hash. */
const specUnchanged: Oracle<'completion_spec_unchanged'> = {
  name: 'completion-spec-unchanged',
  kind: 'completion_spec_unchanged',
  prove(claim, record) {
    const seen = record.evidence
      .filter((item) => item.sourceId.startsWith(SPEC_SOURCE))
      .map((item) => item.sourceId.slice(SPEC_SOURCE.length));
    if (seen.length === 0) return refuted('no spec hash in the evidence');
    return seen.every((hash) => hash === claim.expected)
      ? proven('the spec hash is the one the run started with')
      : refuted('the spec changed during the run', seen);
  },
};

/** `{ kind: 'completion_ledger_untampered', expected: true }`: the ledger check ran and found the orchestrator's own write. */
const ledgerUntampered: Oracle<'completion_ledger_untampered'> = {
  name: 'completion-ledger-untampered',
  kind: 'completion_ledger_untampered',
  prove(_claim, record) {
    const checks = record.evidence.flatMap((item) => item.validation).filter((signal) => signal.name === 'ledger:untampered');
    if (checks.length === 0) return refuted('no ledger check in the evidence');
    return checks.every((signal) => signal.passed)
      ? proven('plan.md is the orchestrator’s last write')
      : refuted('plan.md was edited by someone else');
  },
};

/** The built-in oracles plus the three completion oracles. */
export const COMPLETION_ORACLES = createOracleRegistry([gatesPassed, specUnchanged, ledgerUntampered]);

/**
 * Builds the decision record of a completion: every check (each gate, the builder, the spec hash,
 * the ledger, the rule table, the review board) casts a vote of 10 when it holds and 0 when it
 * does not; the consensus is computed by `@conclave/scoring`, and three claims restate the
 * checks for the completion oracles to prove from the evidence. Pure.
 */
export function completionRecord(facts: CompletionFacts): DecisionRecord {
  const checks: { readonly id: string; readonly holds: boolean }[] = [
    ...facts.gates.map((gate) => ({ id: `gate:${gate.name}`, holds: gate.passed })),
    // With gates, the gates decide (a builder that reported an error but left passing work is done);
    // without any (level speed), the builder running properly is the only check there is.
    ...(facts.builderOk === undefined || facts.gates.length > 0 ? [] : [{ id: 'builder', holds: facts.builderOk }]),
    { id: 'spec', holds: facts.specSha256.actual === facts.specSha256.expected },
    { id: 'ledger', holds: facts.ledgerUntampered },
    ...(facts.judgement === undefined ? [] : [{ id: 'rule-table', holds: facts.judgement === 'done' }]),
    ...(facts.review === undefined ? [] : [{ id: 'review-board', holds: facts.review.go }]),
  ];
  const votes: RecordedVote<'holds'>[] = checks.map((check) => ({ memberId: check.id, scores: { holds: check.holds ? 10 : 0 } }));
  const consensus = aggregateConsensus(votes, { rubric: COMPLETION_RUBRIC, minValidVotes: checks.length });
  const claims: Claim[] = [
    { id: 'gates', kind: 'completion_gates_passed', subject: facts.taskId, expected: facts.gates.map((gate) => gate.name) },
    { id: 'spec', kind: 'completion_spec_unchanged', subject: facts.taskId, expected: facts.specSha256.expected },
    { id: 'ledger', kind: 'completion_ledger_untampered', subject: facts.taskId, expected: true },
  ];
  const evidence: Evidence[] = [
    ...facts.gates.map((gate) => ({
      id: `gate:${gate.name}`,
      sourceId: `gate:${gate.name}`,
      kind: 'gate' as const,
      strength: 1,
      confidence: 1,
      supports: 'gates',
      validation: [{ kind: 'gate' as const, name: `gate:${gate.name}`, passed: gate.passed, detail: gate.reason }],
    })),
    // The builder's own account is the weakest evidence there is, and at level speed with no gate the only work evidence.
    ...(facts.builderOk === undefined
      ? []
      : [
          {
            id: 'builder',
            sourceId: 'builder',
            kind: 'model_statement' as const,
            strength: 0.5,
            confidence: 0.5,
            supports: 'gates',
            validation: [],
          },
        ]),
    {
      id: 'spec',
      sourceId: `${SPEC_SOURCE}${facts.specSha256.actual}`,
      kind: 'measurement',
      strength: 1,
      confidence: 1,
      supports: 'spec',
      validation: [{ kind: 'gate', name: 'spec:sha256', passed: facts.specSha256.actual === facts.specSha256.expected }],
    },
    {
      id: 'ledger',
      sourceId: 'ledger',
      kind: 'measurement',
      strength: 1,
      confidence: 1,
      supports: 'ledger',
      validation: [{ kind: 'gate', name: 'ledger:untampered', passed: facts.ledgerUntampered }],
    },
  ];
  return {
    id: `${facts.runId}:${facts.taskId}`,
    tier: facts.tier,
    rubric: COMPLETION_RUBRIC,
    minValidVotes: checks.length,
    votes,
    consensus,
    evidence,
    claims,
  };
}

/**
 * Proves an attempt complete with the kernel: `verifyDecision` over the completion record with
 * the completion oracles must approve (every claim proven, built-in and custom), the verified
 * consensus must be GO, and from tier T3 the lens panel must ALSO approve (quorum and no veto).
 * The panel is added to the verifier, never instead of it: a lens outvoted on the panel still
 * leaves the verifier's refuted claim standing.
 */
export function proveCompletion(facts: CompletionFacts): CompletionProof {
  const record = completionRecord(facts);
  const report = verifyDecision(record, { oracles: COMPLETION_ORACLES });
  // An approved report proved the record's consensus equals the one recomputed from its votes, so its verdict is the verified one.
  const verified = report.approved && record.consensus.verdict === 'GO';
  if (!tierAtLeast(facts.tier, PANEL_TIER)) return { complete: verified, report, record };
  const panel = verifyPanel(record, { oracles: COMPLETION_ORACLES });
  return { complete: verified && isPanelEmissionApproved(panel), report, panel, record };
}

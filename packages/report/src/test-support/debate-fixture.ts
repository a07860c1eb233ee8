import { createOfflineAdapter, DebateEngine, defineBoard, type Board, type DebateResult } from '@conclave/council';
import { createPanel, decisionRecordFromDebate, emissionGate, verifyDecision, verifyPanel } from '@conclave/verifier';
import { runRecord, type DebateRunRecord, type VerificationRunRecord } from '../run-record.js';

/** Text with markup in it: the question is user input, and it reaches the report through the real engine. */
export const HOSTILE_QUESTION = 'raise prices 10% <script>alert("pwned")</script> & <b>bold</b>';

/**
 * The pricing board of examples/verify-debate.ts, plus a member whose model no adapter serves,
 * so the debate has a real typed failure next to four real votes.
 */
export function pricingBoard(): Board {
  return defineBoard({
    id: 'pricing',
    question: 'Should we {{question}}?',
    facts: [
      { axis: 'revenue', value: 9, note: 'Churn model predicts +12% ARR' },
      { axis: 'feasibility', value: 9, note: 'A config change; billing supports it today' },
      { axis: 'cx', value: 8, note: 'Two of three interviewed customers accept the price' },
      { axis: 'risk', value: 8, note: 'Grandfathered plans for existing customers' },
    ],
    phases: [
      {
        name: 'analysis',
        members: [
          { id: 'cfo', persona: 'A careful CFO', model: 'offline:analyst', priorities: { revenue: 3, risk: 2 } },
          { id: 'pm', persona: 'The product manager', model: 'offline:analyst', priorities: { cx: 3 } },
          { id: 'cto', persona: 'The CTO', model: 'offline:analyst', priorities: { feasibility: 3 } },
          { id: 'ops', persona: 'The head of operations', model: 'offline:unserved' },
        ],
      },
      { name: 'challenge', contrarian: true, members: [{ id: 'skeptic', persona: 'Finds the flaw', model: 'offline:contrarian' }] },
    ],
  });
}

/** A real offline debate on the pricing board; `unserved` members fail as `unbound_model`. */
export async function runPricingDebate(question = HOSTILE_QUESTION): Promise<{ readonly board: Board; readonly result: DebateResult }> {
  const board = pricingBoard();
  const offline = createOfflineAdapter();
  // Adapters by full model reference: `offline:unserved` has none, so that member is a typed failure.
  const result = await DebateEngine.run(board, { question, adapters: { 'offline:analyst': offline, 'offline:contrarian': offline } });
  return { board, result };
}

/**
 * A debate record that went through the gates as a T3 decision on opinions alone: the panel's
 * DOMAIN lens vetoes a GO without a passing test, so emission is blocked.
 */
export async function debateRecord(question = HOSTILE_QUESTION): Promise<DebateRunRecord> {
  const { board, result } = await runPricingDebate(question);
  const decision = decisionRecordFromDebate(board, result, { tier: 'T3' });
  const verification = verifyDecision(decision);
  const panel = verifyPanel(decision, { quorum: 2 });
  const emission = emissionGate(decision, { panel: createPanel({ quorum: 2 }) });
  return runRecord<DebateRunRecord>({
    kind: 'debate',
    offline: true,
    board: { id: board.id },
    result,
    decision,
    verification,
    panel,
    emission,
  });
}

/** A verification record: the same decision with a passing billing test, checked at T2 (the verifier route), plus the panel's view. */
export async function verificationRecord(): Promise<VerificationRunRecord> {
  const { board, result } = await runPricingDebate('raise prices 10%');
  const decision = decisionRecordFromDebate(board, result, {
    tier: 'T2',
    validation: [{ kind: 'test', name: 'billing e2e suite', passed: true }],
  });
  return runRecord<VerificationRunRecord>({
    kind: 'verification',
    offline: true,
    title: 'Verification: raise prices 10% (with a passing test)',
    decision,
    verification: verifyDecision(decision),
    panel: verifyPanel(decision, { quorum: 2 }),
    emission: emissionGate(decision),
  });
}

import { createOfflineAdapter, DebateEngine, defineBoard } from '@conclave/council';
import { createPanel, decisionRecordFromDebate, emissionGate } from '@conclave/verifier';

const board = defineBoard({
  id: 'pricing',
  question: 'Should we {{question}}?',
  facts: [
    { axis: 'revenue', value: 9, note: 'Churn model predicts +12% ARR' },
    { axis: 'feasibility', value: 9, note: 'A config change; billing supports it today' },
    { axis: 'cx', value: 8, note: 'Two of three interviewed customers accept the price' },
    { axis: 'risk', value: 8, note: 'Grandfathered plans for existing customers' },
  ],
  phases: [
    { name: 'analysis', members: ['cfo', 'pm', 'cto'].map((id) => ({ id, persona: `The ${id}`, model: 'offline:analyst' })) },
    { name: 'challenge', contrarian: true, members: [{ id: 'skeptic', persona: 'Finds the flaw', model: 'offline:contrarian' }] },
  ],
});
const result = await DebateEngine.run(board, { question: 'raise prices 10%', adapters: { offline: createOfflineAdapter() } });

// T3: a pricing change customers feel, so the N-lens panel decides (quorum 2 of 3, any veto blocks).
const panel = createPanel({ quorum: 2, escalateAfter: 3 });
const opinionsOnly = emissionGate(decisionRecordFromDebate(board, result, { tier: 'T3' }), { panel });
const withChecks = emissionGate(
  decisionRecordFromDebate(board, result, { tier: 'T3', validation: [{ kind: 'test', name: 'billing e2e suite', passed: true }] }),
  { panel },
);

for (const [label, gate] of [
  ['opinions only', opinionsOnly],
  ['with a passing test', withChecks],
] as const) {
  if (gate.route !== 'panel') continue;
  console.log(`${result.verdict}, ${label}: ${gate.mayAct ? 'may act' : 'do not act'} (panel ${gate.verdict.status})`);
  for (const lens of gate.verdict.lenses)
    console.log(`  ${lens.lens}: ${lens.decision}${lens.decision === 'approve' ? '' : ` (${lens.reasons.join('; ')})`}`);
}

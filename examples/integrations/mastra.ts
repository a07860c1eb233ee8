import { pathToFileURL } from 'node:url';
import { createOfflineAdapter, DebateEngine, defineBoard } from '@conclave/council';
import { decisionRecordFromDebate, verifyPanel, type ValidationSignal } from '@conclave/verifier';
import { BUILT_IN_LENSES, type Lens } from '@conclave/verifier/lenses';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { z } from 'zod';

// Usage: node --conditions=conclave-source --import tsx examples/integrations/mastra.ts [drilled|undrilled]
// A Mastra workflow: a council step debates a launch, a panel step gates it with verifyPanel (the
// three built-in lenses plus a custom ROLLBACK lens), and a branch publishes only an approved GO
// decision; a veto sends the run to the hold step instead. Offline: the council's members
// compute their votes from the board's facts.

/** A fourth lens: a launch needs a rehearsed rollback. Vetoes when no passing gate of that name ran. */
export const ROLLBACK: Lens = {
  name: 'ROLLBACK',
  evaluate(record) {
    const drilled = record.evidence.some((e) => e.validation.some((signal) => signal.name === 'rollback drill' && signal.passed));
    return drilled ? { decision: 'approve', reasons: [] } : { decision: 'veto', reasons: ['no passing "rollback drill" gate among the evidence'] };
  },
};

const board = defineBoard({
  id: 'launch',
  question: 'Should we {{question}}?',
  facts: [
    { axis: 'revenue', value: 9, note: 'Waitlist of 4,000 teams' },
    { axis: 'feasibility', value: 9, note: 'Feature complete; load-tested at 3x' },
    { axis: 'cx', value: 8, note: 'Beta NPS 61' },
    { axis: 'risk', value: 8, note: 'Behind a kill switch' },
  ],
  phases: [
    { name: 'analysis', members: ['cfo', 'pm', 'cto'].map((id) => ({ id, persona: `The ${id}`, model: 'offline:analyst' })) },
    { name: 'challenge', contrarian: true, members: [{ id: 'skeptic', persona: 'Finds the flaw', model: 'offline:contrarian' }] },
  ],
});

const checkSchema = z.object({ kind: z.enum(['gate', 'test']), name: z.string(), passed: z.boolean() });
const lensSchema = z.object({ lens: z.string(), decision: z.enum(['approve', 'reject', 'veto']), reasons: z.array(z.string()) });
const panelSchema = z.object({ launch: z.string(), verdict: z.string(), status: z.string(), approved: z.boolean(), lenses: z.array(lensSchema) });
const outcomeSchema = z.object({ outcome: z.enum(['published', 'held']), detail: z.string() });

const panelStep = createStep({
  id: 'council-and-panel',
  description: 'A council debates the launch; the N-lens panel (quorum 3 of 4, any veto blocks) judges the decision record',
  inputSchema: z.object({ launch: z.string(), checks: z.array(checkSchema) }),
  outputSchema: panelSchema,
  execute: async ({ inputData }) => {
    const debate = await DebateEngine.run(board, { question: inputData.launch, adapters: { offline: createOfflineAdapter() } });
    const record = decisionRecordFromDebate(board, debate, { tier: 'T3', validation: inputData.checks });
    const verdict = verifyPanel(record, { lenses: [...BUILT_IN_LENSES, ROLLBACK], quorum: 3 });
    const lenses = verdict.lenses.map(({ lens, decision, reasons }) => ({ lens, decision, reasons: [...reasons] }));
    return { launch: inputData.launch, verdict: debate.verdict, status: verdict.status, approved: verdict.status === 'approved' && verdict.report.verdict === 'GO', lenses };
  },
});

const publishStep = createStep({
  id: 'publish',
  inputSchema: panelSchema,
  outputSchema: outcomeSchema,
  execute: ({ inputData }) => Promise.resolve({ outcome: 'published' as const, detail: `${inputData.launch}: announced` }),
});

const holdStep = createStep({
  id: 'hold',
  inputSchema: panelSchema,
  outputSchema: outcomeSchema,
  execute: ({ inputData }) => {
    const vetoes = inputData.lenses.filter((l) => l.decision === 'veto').map((l) => `${l.lens}: ${l.reasons.join('; ')}`);
    return Promise.resolve({ outcome: 'held' as const, detail: `panel ${inputData.status}; ${vetoes.join(' | ') || 'no quorum of approvals'}` });
  },
});

/** The workflow: the panel step, then a branch on its verdict. */
export const launchWorkflow = createWorkflow({
  id: 'gated-launch',
  inputSchema: z.object({ launch: z.string(), checks: z.array(checkSchema) }),
  outputSchema: z.object({ publish: outcomeSchema.optional(), hold: outcomeSchema.optional() }),
})
  .then(panelStep)
  .branch([
    [({ inputData }) => Promise.resolve(inputData.approved), publishStep],
    [({ inputData }) => Promise.resolve(!inputData.approved), holdStep],
  ])
  .commit();

export const SCENARIOS: Readonly<Record<string, ValidationSignal[]>> = {
  drilled: [
    { kind: 'test', name: 'e2e suite', passed: true },
    { kind: 'gate', name: 'rollback drill', passed: true },
  ],
  undrilled: [{ kind: 'test', name: 'e2e suite', passed: true }],
};

/** Runs the workflow once: the panel's verdict and the branch that ran. */
export async function runLaunch(checks: readonly ValidationSignal[]) {
  const run = await launchWorkflow.createRunAsync();
  const result = await run.start({ inputData: { launch: 'launch the team plan on Monday', checks: checks.map(({ kind, name, passed }) => ({ kind, name, passed })) } });
  if (result.status !== 'success') throw new Error(`workflow ${result.status}`);
  const panel = result.steps['council-and-panel'];
  return {
    panel: panel?.status === 'success' ? (panel.output as z.infer<typeof panelSchema>) : undefined,
    ran: Object.keys(result.steps),
    outcome: (result.result.publish ?? result.result.hold)!,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const name = process.argv[2] ?? 'drilled';
  const checks = SCENARIOS[name];
  if (checks === undefined) {
    console.error(`unknown scenario "${name}": use one of ${Object.keys(SCENARIOS).join(', ')}`);
    process.exit(2);
  }
  const { panel, ran, outcome } = await runLaunch(checks);
  console.log(`scenario ${name}: checks ${checks.map((c) => c.name).join(', ')}`);
  console.log(`council: ${panel?.verdict}; panel (quorum 3 of 4, any veto blocks): ${panel?.status}`);
  for (const lens of panel?.lenses ?? []) console.log(`  ${lens.lens}: ${lens.decision}${lens.decision === 'approve' ? '' : ` (${lens.reasons.join('; ')})`}`);
  console.log(`steps: ${ran.join(' -> ')}`);
  console.log(`outcome: ${outcome.outcome} (${outcome.detail})`);
  process.exitCode = outcome.outcome === 'published' ? 0 : 1;
}

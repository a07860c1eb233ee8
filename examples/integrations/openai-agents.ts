import { pathToFileURL } from 'node:url';
import { DebateEngine, defineBoard } from '@conclave/council';
import { scriptedAdapter } from '@conclave/testing';
import { createFakeOpenAIServer } from '@conclave/testing/servers';
import { createPanel, decisionRecordFromDebate, emissionGate, type ValidationSignal } from '@conclave/verifier';
import { Agent, OpenAIChatCompletionsModel, OutputGuardrailTripwireTriggered, run, setTracingDisabled, type OutputGuardrail } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';

// Usage: node --conditions=conclave-source --import tsx examples/integrations/openai-agents.ts [tested|untested]
// An OpenAI Agents SDK agent proposes a release; an output guardrail whose tripwire is conclave's
// emission gate decides whether that output may leave the run. Offline: the agent's model is
// OpenAIChatCompletionsModel over real HTTP to a loopback fake OpenAI server.

/** What the agent must answer: a structured release proposal. */
export const ReleaseProposal = z.object({
  action: z.string(),
  summary: z.string(),
});

/** What the application knows that the model does not: the checks its own code ran. */
export interface ReleaseContext {
  readonly checks: readonly ValidationSignal[];
}

/** The reviewers: a council. `offline:` members are bound to a scripted adapter below; real models in production. */
const board = defineBoard({
  id: 'release',
  question: 'Should we {{question}}?',
  facts: [
    { axis: 'feasibility', value: 9, note: 'The release branch builds and the migration is reversible' },
    { axis: 'risk', value: 8, note: 'Feature flags default off; canary at 5% for an hour' },
  ],
  phases: [
    { name: 'review', members: ['sre', 'pm', 'security'].map((id) => ({ id, persona: `The ${id} reviewer`, model: 'offline:reviewer' })) },
    { name: 'challenge', contrarian: true, members: [{ id: 'skeptic', persona: 'Finds the flaw', model: 'offline:contrarian' }] },
  ],
});
const review = (statement: string, score: number, claim: string) => ({
  value: { statement, scores: { feasibility: score, revenue: score, cx: score, ttm: score, risk: score }, evidence: [{ claim, source: 'release notes' }] },
});
const reviewers = scriptedAdapter({
  sre: review('Rollback is one command; ship behind the flag.', 8, 'the migration has a down step'),
  pm: review('Customers asked for this; ship it.', 9, 'three enterprise requests'),
  security: review('No new endpoints; fine.', 8, 'no auth changes in the diff'),
  skeptic: review('The canary will catch what tests miss.', 7, 'canary alerts are wired'),
});

/** The output guardrail: a council reviews the agent's proposal, and the T3 emission gate decides. */
export const conclaveGuardrail: OutputGuardrail<typeof ReleaseProposal, ReleaseContext> = {
  name: 'conclave-emission-gate',
  async execute({ agentOutput, context }) {
    const debate = await DebateEngine.run(board, { question: agentOutput.action, adapters: { offline: reviewers } });
    // The checks come from the run context (the application's own test run), never from the model's prose.
    const record = decisionRecordFromDebate(board, debate, { tier: 'T3', validation: context.context.checks });
    const gate = emissionGate(record, { panel: createPanel({ quorum: 2 }) });
    const lenses = gate.route === 'panel' ? gate.verdict.lenses.map(({ lens, decision, reasons }) => ({ lens, decision, reasons: [...reasons] })) : [];
    return {
      tripwireTriggered: !gate.mayAct, // an approved GO only: a sound PIVOT is no release
      outputInfo: { verdict: debate.verdict, route: gate.route, status: gate.route === 'panel' ? gate.verdict.status : gate.route, lenses },
    };
  },
};

/** What happened in one run. */
export interface AgentsRecipeOutcome {
  readonly released: boolean;
  readonly proposal: z.infer<typeof ReleaseProposal> | undefined;
  readonly guardrail: { verdict: string; route: string; status: string; lenses: { lens: string; decision: string; reasons: string[] }[] };
  readonly httpRequests: number;
}

/** Runs the agent once against the loopback server, with the checks the application ran. */
export async function releaseWithGuardrail(checks: readonly ValidationSignal[]): Promise<AgentsRecipeOutcome> {
  setTracingDisabled(true); // nothing leaves the machine, traces included
  // The model says the same thing either way, "all tests pass": the gate does not take its word for it.
  const reply = JSON.stringify({ action: 'deploy v2.4.0 to production', summary: 'All tests pass; ready to ship.' });
  const server = await createFakeOpenAIServer(() => ({ kind: 'reply', content: reply }));
  try {
    const client = new OpenAI({ apiKey: 'offline-fake-key', baseURL: server.baseURL, maxRetries: 0 });
    const agent = new Agent<ReleaseContext, typeof ReleaseProposal>({
      name: 'release-agent',
      instructions: 'Propose the next release action for the service and summarise why.',
      model: new OpenAIChatCompletionsModel(client, 'gpt-4.1-mini'),
      outputType: ReleaseProposal,
      outputGuardrails: [conclaveGuardrail],
    });
    try {
      const result = await run(agent, 'v2.4.0 is tagged. What should we do?', { context: { checks } });
      const info = result.outputGuardrailResults[0]?.output.outputInfo as AgentsRecipeOutcome['guardrail'];
      return { released: true, proposal: result.finalOutput, guardrail: info, httpRequests: server.requests.length };
    } catch (error) {
      if (!(error instanceof OutputGuardrailTripwireTriggered)) throw error;
      const tripped = error as OutputGuardrailTripwireTriggered<{ type: 'output'; name: string }, typeof ReleaseProposal>;
      return { released: false, proposal: tripped.result.agentOutput, guardrail: tripped.result.output.outputInfo as AgentsRecipeOutcome['guardrail'], httpRequests: server.requests.length };
    }
  } finally {
    await server.close();
  }
}

export const SCENARIOS: Readonly<Record<string, readonly ValidationSignal[]>> = {
  tested: [{ kind: 'test', name: 'e2e suite', passed: true }],
  untested: [{ kind: 'test', name: 'e2e suite', passed: false, detail: '3 of 41 failed' }],
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const scenario = process.argv[2] ?? 'tested';
  const checks = SCENARIOS[scenario];
  if (checks === undefined) {
    console.error(`unknown scenario "${scenario}": use one of ${Object.keys(SCENARIOS).join(', ')}`);
    process.exit(2);
  }
  const outcome = await releaseWithGuardrail(checks);
  console.log(`scenario ${scenario}: checks ${checks.map((c) => `${c.name} ${c.passed ? 'passed' : 'failed'}`).join(', ')}`);
  console.log(`agent (${outcome.httpRequests} HTTP request to the loopback model): "${outcome.proposal?.action}": ${outcome.proposal?.summary}`);
  console.log(`council: ${outcome.guardrail.verdict}; emission gate (${outcome.guardrail.route}): ${outcome.guardrail.status}`);
  for (const lens of outcome.guardrail.lenses) console.log(`  ${lens.lens}: ${lens.decision}${lens.decision === 'approve' ? '' : ` (${lens.reasons.join('; ')})`}`);
  console.log(outcome.released ? 'output released to the caller' : 'tripwire triggered: OutputGuardrailTripwireTriggered, the output is withheld');
  process.exitCode = outcome.released ? 0 : 1;
}

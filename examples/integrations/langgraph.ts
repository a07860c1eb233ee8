import { pathToFileURL } from 'node:url';
import { DebateEngine, defineBoard, type DebateResult } from '@conclave/council';
import { scriptedAdapter } from '@conclave/testing';
import { decisionRecordFromDebate, verifyDecision, type ValidationSignal } from '@conclave/verifier';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';

// Usage: node --conditions=conclave-source --import tsx examples/integrations/langgraph.ts [ship|failing-tests|weak-case]
// A LangGraph.js StateGraph whose conditional edge routes on a conclave council's consensus and
// the verifier's report: GO and approved -> act; GO without proof -> revise (run the checks) once;
// anything else -> escalate to a person. Offline: the council's members are scripted.

/** A scenario: how the council's members score the change, and whether its tests pass when run. */
export interface Scenario {
  readonly memberScore: number;
  readonly testsPass: boolean;
}
export const SCENARIOS: Readonly<Record<string, Scenario>> = {
  ship: { memberScore: 8, testsPass: true },
  'failing-tests': { memberScore: 8, testsPass: false },
  'weak-case': { memberScore: 3, testsPass: true },
};

const board = defineBoard({
  id: 'schema-migration',
  question: 'Should we {{question}}?',
  facts: [{ axis: 'risk', value: 7, note: 'The migration is online and reversible' }],
  phases: [
    { name: 'analysis', members: ['dba', 'backend', 'product'].map((id) => ({ id, persona: `The ${id} lead`, model: 'offline:analyst' })) },
    { name: 'challenge', contrarian: true, members: [{ id: 'skeptic', persona: 'Finds the flaw', model: 'offline:contrarian' }] },
  ],
});

/** The graph's state: the council's result, the checks gathered so far, the verifier's answer and the path taken. */
const State = Annotation.Root({
  question: Annotation<string>(),
  debate: Annotation<DebateResult | undefined>(),
  validation: Annotation<ValidationSignal[]>({ reducer: (all, more) => [...all, ...more], default: () => [] }),
  approved: Annotation<boolean>(),
  refuted: Annotation<string[]>(),
  revisions: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
  path: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  outcome: Annotation<string>(),
});
type S = typeof State.State;

/** Where the conditional edge sends the state: the routing rule, in code. */
export function route(state: S): 'act' | 'revise' | 'escalate' {
  if (state.debate?.verdict !== 'GO') return 'escalate';
  if (state.approved) return 'act';
  return state.revisions < 1 ? 'revise' : 'escalate';
}

/** Builds and compiles the graph for one scenario. */
export function buildGraph(scenario: Scenario) {
  const reply = (statement: string) => ({ value: { statement, scores: { feasibility: scenario.memberScore, revenue: scenario.memberScore, cx: scenario.memberScore, ttm: scenario.memberScore, risk: scenario.memberScore }, evidence: [{ claim: statement, source: 'design doc' }] } });
  const members = scriptedAdapter({ dba: reply('Online migration, tested on a copy'), backend: reply('Code is ready behind a flag'), product: reply('Unblocks the reporting work'), skeptic: reply('Watch the replication lag') });

  return new StateGraph(State)
    .addNode('council', async (state: S) => {
      const debate = await DebateEngine.run(board, { question: state.question, adapters: { offline: members } });
      const score = debate.consensus.status === 'scored' ? debate.consensus.score.toFixed(2) : 'no quorum';
      return { debate, path: [`council: ${debate.verdict} ${score}`] };
    })
    .addNode('verify', (state: S) => {
      const report = verifyDecision(decisionRecordFromDebate(board, state.debate!, { tier: 'T2', validation: state.validation }));
      const refuted = report.claims.filter((c) => c.status !== 'proven').map((c) => c.claim.kind);
      return { approved: report.approved, refuted, path: [`verify: ${report.approved ? 'approved' : `not approved (${refuted.join(', ')})`}`] };
    })
    .addNode('revise', () => {
      // Gather proof: run the change's checks (here the scenario says how they come out).
      const signal: ValidationSignal = { kind: 'test', name: 'migration dry run', passed: scenario.testsPass };
      return { validation: [signal], revisions: 1, path: [`revise: ran ${signal.name}: ${signal.passed ? 'passed' : 'failed'}`] };
    })
    .addNode('act', () => ({ outcome: 'acted', path: ['act: migration applied'] }))
    .addNode('escalate', (state: S) => ({ outcome: 'escalated', path: [`escalate: to a person (${state.debate?.verdict === 'GO' ? `unproven: ${state.refuted.join(', ')}` : `council said ${state.debate?.verdict}`})`] }))
    .addEdge(START, 'council')
    .addEdge('council', 'verify')
    .addConditionalEdges('verify', route, ['act', 'revise', 'escalate'])
    .addEdge('revise', 'verify')
    .addEdge('act', END)
    .addEdge('escalate', END)
    .compile();
}

/** Runs the graph once; returns the final state. */
export async function runGraph(scenario: Scenario): Promise<S> {
  return buildGraph(scenario).invoke({ question: 'run the orders table migration tonight' });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const name = process.argv[2] ?? 'ship';
  const scenario = SCENARIOS[name];
  if (scenario === undefined) {
    console.error(`unknown scenario "${name}": use one of ${Object.keys(SCENARIOS).join(', ')}`);
    process.exit(2);
  }
  const final = await runGraph(scenario);
  console.log(`scenario ${name}:`);
  for (const step of final.path) console.log(`  ${step}`);
  console.log(`outcome: ${final.outcome}`);
  process.exitCode = final.outcome === 'acted' ? 0 : 1;
}

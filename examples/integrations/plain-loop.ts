import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { createGuardian } from '@conclave/guardian';
import { gateDefinitionSchema, runGates, type GateRunReport } from '@conclave/taskloop/gates';
import { safeBuild } from '@conclave/taskloop/builders';
import { scrubbedEnv, secretValuesFrom } from '@conclave/taskloop/security';
import type { BuildFeedback, BuildTask } from '@conclave/taskloop';
import { scriptedAdapter } from '@conclave/testing';
import { offlineAgent, sampleWorkspace } from '../sample-workspace.js';

// Usage: node --conditions=conclave-source --import tsx examples/integrations/plain-loop.ts [on-track|drifting]
// A plain `while` loop around a coding-agent CLI, with no task loop and no plan ledger: the agent
// edits the workspace, conclave's gates (a test run under a command policy, a regex, a file check)
// decide whether the work is done, and the guardian judges every report against the original
// intent and can stop the loop. Offline: the agent is a deterministic stand-in CLI run as a child
// process (`claude -p --output-format json` would go in its place) and the guardian is scripted.

/** The work, as the agent gets it in its prompt. */
const task: BuildTask = {
  id: 'farewell',
  text: 'Add `farewell(name)` to src/greet.js',
  specId: 'add-farewell',
  specTitle: 'Teach the greeter to say goodbye',
  acceptance: ['src/greet.js exports farewell(name), which returns "Goodbye, <name>!"', 'the test suite passes and src/ holds no TODO'],
  constraints: ['no dependencies; plain ES modules for Node 20', 'do not edit or delete the existing tests'],
  specBody: 'The greeter in src/greet.js can say hello; test/greet.test.js already expects it to say goodbye as well.',
};

/** What "done" means, checked by code: the agent's own claim that it is done counts for nothing. */
const gates = [
  { type: 'shell', name: 'tests', run: 'node --test' },
  { type: 'regex', name: 'no-todo', files: ['src/**/*.js'], pattern: 'TODO', mode: 'must_not_match' },
  { type: 'file_exists', name: 'greeter', paths: ['src/greet.js'] },
].map((gate) => gateDefinitionSchema.parse(gate));

/** A scenario: what the (scripted) guardian makes of the agent's reports. */
export const SCENARIOS = {
  'on-track': { misalignedWhen: /^$/ },
  // The first report claims "Done: the tests pass" while the spec also forbids a TODO: declaring victory early.
  drifting: { misalignedWhen: /Done: the tests pass/ },
} as const;
export type Scenario = keyof typeof SCENARIOS;

/** What happened in one run of the loop. */
export interface PlainLoopOutcome {
  readonly outcome: 'done' | 'gave_up' | 'blocked';
  readonly attempts: readonly { readonly summary: string; readonly gates: GateRunReport['gates'] }[];
  readonly blockedBecause?: string;
}

/** Runs the loop on a fresh copy of the sample project, then removes it. */
export async function plainLoop(scenario: Scenario, log: (line: string) => void = () => {}): Promise<PlainLoopOutcome> {
  const { workspace } = await sampleWorkspace();
  try {
    return await loop(workspace, scenario, log);
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

async function loop(workspace: string, scenario: Scenario, log: (line: string) => void): Promise<PlainLoopOutcome> {
  const agent = offlineAgent();
  // The guardian's model is scripted here; in production any adapter, e.g. createAnthropicAdapter({ model }).
  const guardian = createGuardian({
    intent: { spec: `${task.specTitle}\n${task.acceptance.join('\n')}`, context: 'user: ship the farewell; no loose ends left in src/.' },
    adapter: scriptedAdapter((request) => {
      const report = request.messages.at(-1)?.content.split('Latest report:')[1] ?? '';
      return SCENARIOS[scenario].misalignedWhen.test(report)
        ? { value: { status: 'misaligned', rationale: 'The agent declares the work done because the tests pass; the user also asked for no loose ends in src/.' } }
        : { value: { status: 'aligned' } };
    }),
  });
  // Gates and the agent get a scrubbed environment: no provider key reaches a child process.
  const env = scrubbedEnv(process.env);
  const secretValues = secretValuesFrom(process.env);
  const attempts: { summary: string; gates: GateRunReport['gates'] }[] = [];
  const maxAttempts = 3;
  let feedback: BuildFeedback | undefined;

  while (attempts.length < maxAttempts) {
    // Ask the guardian before every job: a misaligned report blocks the loop until a person resolves it.
    const permit = await guardian.beforeJob();
    if (!permit.started) {
      const because = permit.block?.kind === 'misaligned' ? permit.block.rationale : permit.reason;
      log(`blocked by the guardian: ${because}`);
      return { outcome: 'blocked', attempts, blockedBecause: because };
    }
    const build = await safeBuild(agent, task, feedback, { workspace, timeoutMs: 60_000, env, secretValues });
    const report = await runGates(gates, {
      workspace,
      level: 'balanced',
      taskId: task.id,
      // Shell gates run only what the policy allows, parsed and checked before anything runs.
      policy: { allow: ['node --test'] },
      env,
      secretValues,
      defaultTimeoutMs: 30_000,
      maxOutputBytes: 16_000,
    });
    attempts.push({ summary: build.summary, gates: report.gates });
    log(`attempt ${attempts.length}: agent says "${build.summary}"`);
    for (const gate of report.gates) log(`  gate ${gate.name}: ${gate.passed ? 'passed' : `FAILED (${gate.reason})`}`);
    guardian.report({ id: `attempt-${attempts.length}`, kind: 'attempt', summary: build.summary });
    if (build.ok && report.passed) {
      await guardian.idle();
      // The last report's verdict may still block: done only when the guardian agrees.
      if (guardian.status === 'misaligned') break;
      log('done: every gate passed');
      return { outcome: 'done', attempts };
    }
    // Retry with the gates' evidence, never with the agent's own account of how it went.
    feedback = { attempt: attempts.length + 1, maxRetries: maxAttempts - 1, failedGates: report.gates.filter((g) => !g.passed).map((g) => ({ name: g.name, type: g.type, reason: g.reason, excerpt: g.stderr ?? g.stdout ?? '' })) };
  }
  await guardian.idle();
  const block = guardian.block;
  if (block !== undefined) {
    const because = block.kind === 'misaligned' ? block.rationale : `${block.count} failed evaluations`;
    log(`blocked by the guardian: ${because}`);
    return { outcome: 'blocked', attempts, blockedBecause: because };
  }
  log(`gave up after ${attempts.length} attempts`);
  return { outcome: 'gave_up', attempts };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const scenario = process.argv[2] ?? 'on-track';
  if (!(scenario in SCENARIOS)) {
    console.error(`unknown scenario "${scenario}": use one of ${Object.keys(SCENARIOS).join(', ')}`);
    process.exit(2);
  }
  const result = await plainLoop(scenario as Scenario, (line) => console.log(line));
  process.exitCode = result.outcome === 'done' ? 0 : result.outcome === 'blocked' ? 3 : 1;
}

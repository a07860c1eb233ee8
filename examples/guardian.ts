import { createGuardian, type GuardianEvent } from '@conclave/guardian';
import { scriptedAdapter } from '@conclave/testing';

// Usage: node --conditions=conclave-source --import tsx examples/guardian.ts
// The original intent: the spec, and the ideation transcript it came out of.
const intent = {
  spec: '# Greeter\nA command line that greets people by name (`greet Ada`). Plain Node, no dependencies, no server.',
  context:
    'user: I only need a tiny CLI for scripts.\nassistant: So no web UI and no HTTP server?\nuser: Right, nothing that listens on a port.',
};

// A scripted guardian (no model, no key, no network), slow on purpose: 20 ms per verdict. It
// flags any report that mentions a server; after the person's resolution it is content again.
const adapter = scriptedAdapter((request) => {
  const report = request.messages.at(-1)?.content.split('Latest report:')[1] ?? '';
  if (/server/i.test(report) && !/remove/i.test(report)) {
    return {
      value: { status: 'misaligned', rationale: 'The work adds an HTTP server; the user ruled out anything that listens on a port.' },
      delayMs: 20,
    };
  }
  return { value: { status: 'aligned' }, delayMs: 20 };
});

const log = (event: GuardianEvent) => {
  if (event.type === 'verdict')
    console.log(
      `  guardian: ${event.reportId} ${event.outcome.kind === 'verdict' ? event.outcome.status : `failed (${event.outcome.reason})`}`,
    );
  if (event.type === 'blocked' && event.block.kind === 'misaligned')
    console.log(`  BLOCKED by ${event.block.reportId}: ${event.block.rationale}`);
};
const guardian = createGuardian({ adapter, intent, onEvent: log });

// Another framework's plain loop: a fake agent works through its jobs, asks the guardian before
// each one and reports after it. report() returns at once; verdicts arrive in the background.
const jobs = [
  'parse the name argument',
  'print the greeting',
  'add an HTTP server for a web page',
  'write the README',
  'remove the HTTP server again',
  'add a --shout flag',
];
const agent = (job: string): Promise<string> => Promise.resolve(`done: ${job}`);

for (let i = 0; i < jobs.length;) {
  const permit = await guardian.beforeJob();
  if (!permit.started) {
    // Blocked: a person reads the rationale and resolves it; the resolution joins the guardian's context.
    await guardian.idle();
    const resolution = 'Keep it a CLI. Remove the HTTP server; a web page is out of scope.';
    console.log(`  person resolves: ${resolution}`);
    guardian.unblock(resolution);
    continue;
  }
  const job = jobs[i] as string;
  console.log(`job ${permit.job}: ${job}`);
  guardian.report({ id: `job-${i + 1}`, kind: 'external', summary: await agent(job) });
  i += 1;
}
await guardian.idle();

console.log(`status: ${guardian.status}, jobs started: ${guardian.jobsStarted}`);
for (const entry of guardian.timeline) {
  if (entry.kind === 'status')
    console.log(`  ${entry.from} -> ${entry.to} (${entry.cause.kind === 'resolution' ? 'resolution' : entry.cause.report.id})`);
}

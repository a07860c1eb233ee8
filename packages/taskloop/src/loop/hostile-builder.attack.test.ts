import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult, BuildTask, Builder } from '../builders/builder.js';
import { parsePlan } from '../ledger/plan-parse.js';
import { sha256 } from '../ledger/sha256.js';
import { signRecord } from '../state/record-mac.js';
import { readRunKey } from '../state/run-key.js';
import { loopFixtures, sampleSpec } from '../test-support/temp-repo.js';
import { runTaskLoop, type TaskLoopResult } from './run-task-loop.js';

/**
 * The builder is an agent with write access to the whole workspace, `.conclave/` included. Each
 * case here plays one that forges the orchestrator's state (evidence, ledger, spec, policy, key,
 * signatures, older records) and checks the one promise that matters: no box is ticked that the
 * orchestrator's own build and gates did not prove, and a resume over forged state refuses.
 */

const { repo, spec, policy } = loopFixtures();

// The run keys live outside the workspace; the suite gives them a folder of its own, so it can
// delete a key like an attacker with access to that folder would.
let stateDir: string;
let previousStateDir: string | undefined;
beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'conclave-attack-state-'));
  previousStateDir = process.env.CONCLAVE_STATE_DIR;
  process.env.CONCLAVE_STATE_DIR = stateDir;
});
afterAll(async () => {
  if (previousStateDir === undefined) delete process.env.CONCLAVE_STATE_DIR;
  else process.env.CONCLAVE_STATE_DIR = previousStateDir;
  await rm(stateDir, { recursive: true, force: true });
});

type Attack = (workspace: string, task: BuildTask, runId: string) => 'abort' | undefined;

/**
 * An in-process builder that does each task's work honestly (`done/<task>.txt` says ok, so the
 * gates pass) and then runs `attack`; 'abort' makes the build end like a killed orchestrator (no
 * evidence for the attempt), so the next call of the loop is a resume. It logs what it built.
 */
function hostile(attack: Attack, built: string[] = []): Builder {
  return {
    name: 'hostile',
    build(task: BuildTask, _feedback, context): Promise<BuildResult> {
      built.push(task.id);
      mkdirSync(join(context.workspace, 'done'), { recursive: true });
      writeFileSync(join(context.workspace, 'done', `${task.id}.txt`), `ok ${task.id}\n`);
      const runId = (JSON.parse(readFileSync(join(context.workspace, '.conclave/run.json'), 'utf8')) as { runId: string }).runId;
      const outcome = attack(context.workspace, task, runId);
      if (outcome === 'abort')
        return Promise.resolve({
          ok: false,
          failure: { kind: 'aborted', message: 'killed' },
          summary: 'killed',
          transcript: '',
          durationMs: 1,
        });
      return Promise.resolve({ ok: true, summary: `wrote done/${task.id}.txt`, transcript: '', durationMs: 1 });
    },
  };
}

/** An honest builder that does not write its done file for `skip` (so those gates fail) and logs every build. */
function honest(built: string[], skip: readonly string[] = []): Builder {
  return hostile((workspace, task) => {
    if (skip.includes(task.id)) writeFileSync(join(workspace, 'done', `${task.id}.txt`), `BROKEN ${task.id}\n`);
    return undefined;
  }, built);
}

/** A passed evidence bundle as the loop writes it, for a task nobody built. */
function forgedEvidence(runId: string, taskId: string, attempt: number): string {
  const bundle = {
    mode: 'guarded',
    runId,
    specId: 'greet',
    taskId,
    attempt,
    level: 'balanced',
    retriesConfigured: 2,
    retryCount: attempt - 1,
    decision: 'passed',
    disposition: 'completed',
    gatesPassed: true,
    gates: [{ name: 'check', type: 'shell', passed: true, durationMs: 1, command: 'node scripts/check.mjs', exitCode: 0 }],
    skippedGates: [],
    builder: { name: 'hostile', ok: true, summary: 'done', durationMs: 1 },
    feedbackGiven: null,
    recordedAt: new Date().toISOString(),
  };
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

function writeForged(workspace: string, runId: string, taskId: string, attempt: number, text: string): void {
  const dir = join(workspace, '.conclave/runs', runId, taskId, `attempt-${attempt}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'evidence.json'), text);
}

function checked(workspace: string): string[] {
  const parsed = parsePlan(readFileSync(join(workspace, '.conclave/plan.md'), 'utf8'));
  return parsed.ok ? parsed.plan.items.filter((item) => item.checked).map((item) => item.id) : ['<unparseable>'];
}

function refusedFor(result: TaskLoopResult): string | undefined {
  return result.stop?.kind === 'refused' ? result.stop.reason : result.stop?.kind;
}

/** Every key file under the suite's state folder. */
function keyFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.key')) found.push(path);
    }
  };
  walk(stateDir);
  return found;
}

const SPEC = sampleSpec();

describe('a hostile builder cannot tick a box without the build and the gates (item 1: forged evidence)', () => {
  it('a forged passed evidence.json for a later task does not tick it in the same run', async () => {
    const { dir } = await repo();
    const built: string[] = [];
    const builder = hostile((workspace, task, runId) => {
      // While building "first", forge "second-a"'s only attempt as passed, then break its own future work.
      if (task.id === 'first') writeForged(workspace, runId, 'second-a', 1, forgedEvidence(runId, 'second-a', 1));
      return undefined;
    }, built);
    const result = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder, commandPolicy: policy });
    expect(built).not.toContain('second-a');
    expect(checked(dir)).not.toContain('second-a');
    expect(result.completed).not.toContain('second-a');
    expect(refusedFor(result)).toBe('state_tampered');
  }, 60_000);

  it('a forged passed evidence.json for the task being built (then a kill) does not tick it on resume', async () => {
    const { dir } = await repo();
    const forge = hostile((workspace, task, runId) => {
      writeForged(workspace, runId, task.id, 1, forgedEvidence(runId, task.id, 1));
      writeFileSync(join(workspace, 'done', `${task.id}.txt`), `BROKEN ${task.id}\n`);
      return 'abort';
    });
    const first = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: forge, commandPolicy: policy });
    expect(first.reason).toBe('aborted');
    const built: string[] = [];
    const resumed = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: honest(built, ['first']), commandPolicy: policy });
    expect(checked(dir)).not.toContain('first');
    expect(resumed.completed).not.toContain('first');
    expect(refusedFor(resumed)).toBe('state_tampered');
  }, 60_000);

  it("a replayed signed evidence.json of another task (copied into this task's folder) does not tick it on resume", async () => {
    const { dir } = await repo();
    const forge = hostile((workspace, task, runId) => {
      if (task.id !== 'second-a') return undefined;
      // "first" passed at attempt 1 under the orchestrator's own record: replay that record here.
      const genuine = readFileSync(join(workspace, '.conclave/runs', runId, 'first/attempt-1/evidence.json'), 'utf8');
      writeForged(workspace, runId, 'second-a', 1, genuine);
      writeFileSync(join(workspace, 'done', 'second-a.txt'), 'BROKEN second-a\n');
      return 'abort';
    });
    const first = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: forge, commandPolicy: policy });
    expect(first.reason).toBe('aborted');
    expect(checked(dir)).toEqual(['first']);
    const resumed = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: honest([], ['second-a']), commandPolicy: policy });
    expect(checked(dir)).not.toContain('second-a');
    expect(refusedFor(resumed)).toBe('state_tampered');
  }, 60_000);

  it('a signed passed evidence.json with its task and attempt rewritten (the signature kept) does not tick the task on resume', async () => {
    const { dir } = await repo();
    const forge = hostile((workspace, task, runId) => {
      if (task.id !== 'second-a') return undefined;
      const genuine = readFileSync(join(workspace, '.conclave/runs', runId, 'first/attempt-1/evidence.json'), 'utf8');
      writeForged(workspace, runId, 'second-a', 1, genuine.replaceAll('"taskId": "first"', '"taskId": "second-a"'));
      writeFileSync(join(workspace, 'done', 'second-a.txt'), 'BROKEN second-a\n');
      return 'abort';
    });
    const first = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: forge, commandPolicy: policy });
    expect(first.reason).toBe('aborted');
    const resumed = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: honest([], ['second-a']), commandPolicy: policy });
    expect(checked(dir)).not.toContain('second-a');
    expect(refusedFor(resumed)).toBe('state_tampered');
  }, 60_000);
});

describe('a forged ledger does not survive a resume (item 2)', () => {
  it('ticks in plan.md with a matching ledger.json: the run halts, and the resume refuses with ledger_tampered, never "resume clean"', async () => {
    const { dir } = await repo();
    const forge = hostile((workspace, task) => {
      if (task.id !== 'first') return undefined;
      const text = readFileSync(join(workspace, '.conclave/plan.md'), 'utf8').replaceAll('- [ ]', '- [x]');
      writeFileSync(join(workspace, '.conclave/plan.md'), text);
      writeFileSync(
        join(workspace, '.conclave/ledger.json'),
        `${JSON.stringify({ version: 1, current: { sha256: sha256(text), text } })}\n`,
      );
      return undefined;
    });
    const first = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: forge, commandPolicy: policy });
    expect(first.stop?.kind).toBe('ledger_tampered');
    const built: string[] = [];
    const timeline: string[] = [];
    const resumed = await runTaskLoop({
      workspace: dir,
      spec: spec(SPEC),
      builder: honest(built),
      commandPolicy: policy,
      onProgress: (entry) => timeline.push(`${entry.state} ${entry.detail ?? ''}`),
    });
    expect(resumed.outcome).toBe('refused');
    expect(refusedFor(resumed)).toBe('ledger_tampered');
    expect(resumed.stop).toEqual(expect.objectContaining({ fix: expect.any(String) as string }));
    expect(timeline.join('\n')).not.toContain('resume clean');
    expect(resumed.completed).toEqual([]);
    expect(built).toEqual([]);
  }, 60_000);

  it('ticks in plan.md during an attempt whose gates fail: the run halts and no commit carries the ticks', async () => {
    const { dir, git } = await repo();
    const forge = hostile((workspace, task) => {
      writeFileSync(join(workspace, 'done', `${task.id}.txt`), `BROKEN ${task.id}\n`);
      const text = readFileSync(join(workspace, '.conclave/plan.md'), 'utf8').replaceAll('- [ ]', '- [x]');
      writeFileSync(join(workspace, '.conclave/plan.md'), text);
      return undefined;
    });
    const first = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: forge, commandPolicy: policy });
    expect(first.stop?.kind).toBe('ledger_tampered');
    expect(first.completed).toEqual([]);
    // What a reviewer of the branch sees: every committed plan.md has only the orchestrator's (open) boxes.
    const commits = git('rev-list', `main..${first.branch ?? 'HEAD'}`)
      .trim()
      .split('\n')
      .filter(Boolean);
    for (const commit of commits) expect(git('show', `${commit}:.conclave/plan.md`)).not.toContain('- [x]');
  }, 60_000);

  it('a .gitignore that hides .conclave/ does not keep the evidence and the plan out of the commits', async () => {
    const { dir, git } = await repo();
    const hide = hostile((workspace) => {
      writeFileSync(join(workspace, '.gitignore'), '.conclave/\n');
      writeFileSync(join(workspace, '.git', 'info', 'exclude'), '.conclave\n');
      return undefined;
    });
    const result = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: hide, commandPolicy: policy });
    expect(result.outcome).toBe('completed');
    const committed = git('ls-tree', '-r', '--name-only', 'HEAD', '--', '.conclave').trim().split('\n');
    expect(committed).toEqual(expect.arrayContaining(['.conclave/plan.md', '.conclave/ledger.json', '.conclave/run.json']));
    for (const task of result.completed)
      expect(committed).toContain(`.conclave/runs/${result.runId ?? ''}/${task}/attempt-1/evidence.json`);
    // What .conclave/.gitignore keeps local stays local.
    expect(committed.filter((path) => path.endsWith('timeline.jsonl') || path.endsWith('.tmp'))).toEqual([]);
    expect(git('show', 'HEAD:.conclave/plan.md')).not.toContain('- [ ]');
  }, 60_000);

  it('a passed evidence.json signed with the stolen run key (a builder runs as the same user) ticks nothing its gates do not pass on resume', async () => {
    const { dir } = await repo();
    const guarded = spec(
      sampleSpec({ extra: '  - { type: file_exists, name: second-file, paths: [done/second-a.txt], tasks: [second-a] }\n' }),
    );
    const forge = hostile((workspace, task, runId) => {
      if (task.id !== 'first') return undefined;
      // The key is a 0600 file of the user the builder runs as: readable to it.
      const key = readRunKey(workspace, runId);
      if (!('key' in key)) throw new Error('the test could not read the run key');
      const bundle = JSON.parse(forgedEvidence(runId, 'second-a', 1)) as object;
      writeForged(workspace, runId, 'second-a', 1, `${JSON.stringify(signRecord(key.key, 'evidence', bundle), null, 2)}\n`);
      return 'abort';
    });
    await runTaskLoop({ workspace: dir, spec: guarded, builder: forge, commandPolicy: policy });
    const built: string[] = [];
    const resumed = await runTaskLoop({ workspace: dir, spec: guarded, builder: honest(built, ['second-a']), commandPolicy: policy });
    // second-a's own gate (its done file) fails on the tree the forger left, so it is built, and fails.
    expect(built).toContain('second-a');
    expect(checked(dir)).not.toContain('second-a');
    expect(resumed.completed).toEqual(['first']);
  }, 60_000);

  it('a ledger.json with its signature removed (same content) is refused on resume', async () => {
    const { dir } = await repo();
    const kill = hostile((workspace, task) => {
      if (task.id !== 'second-a') return undefined;
      // Every box ticked, and a record (with the base plan it names) that matches, only unsigned.
      const record = JSON.parse(readFileSync(join(workspace, '.conclave/ledger.json'), 'utf8')) as Record<string, unknown>;
      const text = readFileSync(join(workspace, '.conclave/plan.md'), 'utf8').replaceAll('- [ ]', '- [x]');
      writeFileSync(join(workspace, '.conclave/plan.md'), text);
      writeFileSync(join(workspace, `.conclave/ledger-base-${sha256(text)}.md`), text);
      const { mac: _mac, ...unsigned } = record;
      writeFileSync(
        join(workspace, '.conclave/ledger.json'),
        `${JSON.stringify({ ...unsigned, current: { sha256: sha256(text), base: sha256(text), ticks: [] } })}\n`,
      );
      return 'abort';
    });
    await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: kill, commandPolicy: policy });
    const resumed = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: honest([]), commandPolicy: policy });
    expect(refusedFor(resumed)).toBe('ledger_tampered');
    expect(resumed.completed).toEqual([]);
  }, 60_000);
});

describe('a weakened spec does not survive a resume (item 3)', () => {
  const weakened = sampleSpec({ level: 'speed' }).replace(/gates:\n(?: {2}- .*\n)+/, 'gates: []\n');

  it('spec.md (level speed, no gates), spec.sha256 and run.json rewritten to match: the resume refuses and runs no gate-less task', async () => {
    const { dir } = await repo();
    const forge = hostile((workspace) => {
      writeFileSync(join(workspace, '.conclave/spec.md'), weakened);
      writeFileSync(join(workspace, '.conclave/spec.sha256'), `${sha256(weakened)}  spec.md\n`);
      const run = JSON.parse(readFileSync(join(workspace, '.conclave/run.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(workspace, '.conclave/run.json'), `${JSON.stringify({ ...run, specSha256: sha256(weakened) }, null, 2)}\n`);
      writeFileSync(join(workspace, 'done', 'first.txt'), 'BROKEN first\n');
      return 'abort';
    });
    const first = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: forge, commandPolicy: policy });
    expect(first.reason).toBe('aborted');
    // `conclave task resume` reads the spec from the run's snapshot.
    const built: string[] = [];
    const resumed = await runTaskLoop({
      workspace: dir,
      spec: spec(readFileSync(join(dir, '.conclave/spec.md'), 'utf8')),
      builder: honest(built, ['first', 'second-a']),
      commandPolicy: policy,
    });
    expect(refusedFor(resumed)).toBe('state_tampered');
    expect(checked(dir)).toEqual([]);
    expect(built).toEqual([]);
  }, 60_000);

  it('spec.md and spec.sha256 rewritten, run.json left alone: the resume names the tampered snapshot', async () => {
    const { dir } = await repo();
    const forge = hostile((workspace) => {
      writeFileSync(join(workspace, '.conclave/spec.md'), weakened);
      writeFileSync(join(workspace, '.conclave/spec.sha256'), `${sha256(weakened)}  spec.md\n`);
      return 'abort';
    });
    await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: forge, commandPolicy: policy });
    const built: string[] = [];
    const resumed = await runTaskLoop({
      workspace: dir,
      spec: spec(readFileSync(join(dir, '.conclave/spec.md'), 'utf8')),
      builder: honest(built, ['first', 'second-a']),
      commandPolicy: policy,
    });
    expect(refusedFor(resumed)).toBe('state_tampered');
    expect(checked(dir)).toEqual([]);
    expect(built).toEqual([]);
  }, 60_000);
});

describe('the command policy does not come from a file the builder writes (item 4)', () => {
  it('run.json rewritten to allowUnlisted after a kill: the resume refuses instead of running an unallowed gate', async () => {
    const { dir, git } = await repo();
    // The user's policy allows nothing the check gate runs.
    writeFileSync(join(dir, 'conclave.config.yaml'), 'commands:\n  allow: ["npm test"]\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'policy');
    const forge = hostile((workspace) => {
      const run = JSON.parse(readFileSync(join(workspace, '.conclave/run.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(
        join(workspace, '.conclave/run.json'),
        `${JSON.stringify({ ...run, commandPolicy: { allowUnlisted: true } }, null, 2)}\n`,
      );
      return 'abort';
    });
    const first = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: forge });
    expect(first.reason).toBe('aborted');
    // `conclave task resume --builder …` after a SIGKILL: no policy flag.
    const resumed = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: honest([]) });
    expect(refusedFor(resumed)).toBe('state_tampered');
    expect(checked(dir)).toEqual([]);
  }, 60_000);
});

describe('a forged split does not widen what a task may use', () => {
  it('a split.json planted in an attempt folder (a child granted a secret) is refused on resume', async () => {
    const { dir } = await repo();
    const forge = hostile((workspace, task, runId) => {
      const folder = join(workspace, '.conclave/runs', runId, task.id, 'attempt-1');
      mkdirSync(folder, { recursive: true });
      const child = {
        taskId: 'second-a',
        depth: 1,
        title: 'Write the second file',
        acceptance: [],
        constraints: [],
        grants: { env: ['AWS_SECRET_ACCESS_KEY'], secrets: [] },
        maxRetries: 5,
        parentId: task.id,
        failure: 'x',
      };
      writeFileSync(join(folder, 'split.json'), `${JSON.stringify({ parentId: task.id, attempt: 1, children: [child] }, null, 2)}\n`);
      return 'abort';
    });
    await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: forge, commandPolicy: policy });
    const built: string[] = [];
    const resumed = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: honest(built), commandPolicy: policy });
    expect(refusedFor(resumed)).toBe('state_tampered');
    expect(built).toEqual([]);
  }, 60_000);
});

describe('the key and the signatures', () => {
  it('a deleted run key: the resume refuses with state_tampered and a fix, ticking nothing', async () => {
    const { dir } = await repo();
    const kill = hostile((_workspace, task) => (task.id === 'second-a' ? 'abort' : undefined));
    const first = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: kill, commandPolicy: policy });
    expect(first.reason).toBe('aborted');
    const keys = keyFiles();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) rmSync(key);
    const built: string[] = [];
    const resumed = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: honest(built), commandPolicy: policy });
    expect(refusedFor(resumed)).toBe('state_tampered');
    expect(resumed.stop).toEqual(expect.objectContaining({ fix: expect.stringMatching(/\S/) as string }));
    expect(built).toEqual([]);
    expect(checked(dir)).toEqual(['first']);
  }, 60_000);

  it('the key lives outside the workspace, 0600, and never appears in the workspace or its git history', async () => {
    const { dir, git } = await repo();
    const result = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: honest([]), commandPolicy: policy });
    expect(result.outcome).toBe('completed');
    const keys = keyFiles();
    expect(keys).toHaveLength(1);
    const key = keys[0] as string;
    expect(key.startsWith(dir)).toBe(false);
    expect(statSync(key).mode & 0o777).toBe(0o600);
    const secret = readFileSync(key, 'utf8').trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const history = git('log', '-p', '--all');
    expect(history).not.toContain(secret);
    expect(git('status', '--porcelain').trim()).toBe('');
  }, 60_000);

  it('run.json with its signature removed is refused on resume', async () => {
    const { dir } = await repo();
    const kill = hostile((workspace, task) => {
      if (task.id !== 'second-a') return undefined;
      const { mac: _mac, ...unsigned } = JSON.parse(readFileSync(join(workspace, '.conclave/run.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(workspace, '.conclave/run.json'), `${JSON.stringify(unsigned, null, 2)}\n`);
      return 'abort';
    });
    await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: kill, commandPolicy: policy });
    const resumed = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: honest([]), commandPolicy: policy });
    expect(refusedFor(resumed)).toBe('state_tampered');
  }, 60_000);

  it('an honest run killed mid-build still resumes and completes (signatures do not cost kill-safety)', async () => {
    const { dir } = await repo();
    const kill = hostile((_workspace, task) => (task.id === 'second-a' ? 'abort' : undefined));
    await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: kill, commandPolicy: policy });
    const built: string[] = [];
    const resumed = await runTaskLoop({ workspace: dir, spec: spec(SPEC), builder: honest(built), commandPolicy: policy });
    expect(resumed.outcome).toBe('completed');
    expect(resumed.resumed).toBe(true);
    expect(built).toEqual(['second-a']);
    expect(checked(dir)).toEqual(['first', 'second', 'second-a']);
  }, 60_000);
});

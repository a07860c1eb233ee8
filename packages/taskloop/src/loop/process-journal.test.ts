import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { groupAlive } from '../process/process-group.js';
import { CHECK_SCRIPT, sampleSpec, tempRepo } from '../test-support/temp-repo.js';
import { newProcessToken, PROCESS_TOKEN_VAR, processesWithToken } from '../process/process-token.js';
import { readJournal, stopLeftoverGroups } from './process-journal.js';

const CHILD = fileURLToPath(new URL('./test-fixtures/loop-child.ts', import.meta.url));

function startLoop(workspace: string, mode: string) {
  const child = spawn(process.execPath, ['--conditions=conclave-source', '--import', 'tsx', CHILD, workspace, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, TASK_AGENT_SLEEP_MS: '60000' },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<string>((resolve) => child.on('exit', () => resolve(stdout)));
  return { child, exited };
}

async function waitFor<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a rerun stops what a killed run left running', () => {
  it('the builder of a SIGKILLed run is stopped by the rerun before it builds anything', async () => {
    const spec = sampleSpec({ extra: 'grants: { env: [TASK_AGENT_SLEEP_MS] }\n', tasks: '- [ ] Write it {#only}\n' });
    const repo = await tempRepo({ 'scripts/check.mjs': CHECK_SCRIPT, 'spec.md': spec });
    try {
      const first = startLoop(repo.dir, 'slow');
      const pgid = await waitFor(async () => {
        const runs = await readdir(join(repo.dir, '.conclave/runs')).catch(() => []);
        const groups = runs.length === 0 ? [] : readJournal(join(repo.dir, '.conclave/runs', runs[0] as string));
        const started = await readFile(join(repo.dir, 'build-log.txt'), 'utf8').catch(() => '');
        return groups.length > 0 && started.includes('start') ? groups[0] : undefined;
      }, 20_000);
      first.child.kill('SIGKILL');
      await first.exited;
      // The orphaned agent sleeps on, in its own process group.
      expect(groupAlive(pgid)).toBe(true);

      const rerun = startLoop(repo.dir, 'good');
      const out = await rerun.exited;
      expect(JSON.parse(out)).toEqual(expect.objectContaining({ outcome: 'completed', resumed: true }));
      expect(groupAlive(pgid)).toBe(false);
      // The orphan never finished its edit; the rerun's build did the work.
      expect((await readFile(join(repo.dir, 'build-log.txt'), 'utf8')).trim().split('\n')).toEqual([
        'only attempt 1 start',
        'only attempt 1 start',
        'only attempt 1 end',
      ]);
      const timeline = await readFile(
        join(repo.dir, '.conclave/runs', (await readdir(join(repo.dir, '.conclave/runs')))[0] as string, 'timeline.jsonl'),
        'utf8',
      );
      expect(timeline).toMatch(/stopped 1 process group\(s\) the killed run left running/);
    } finally {
      await repo.cleanup();
    }
  }, 60_000);
});

describe('stopLeftoverGroups', () => {
  it("stops a process that carries a tree's token although its group leader has exited (setsid, a double fork)", async () => {
    const repo = await tempRepo();
    const runDir = join(repo.dir, '.conclave/runs/r1');
    await mkdir(runDir, { recursive: true });
    const token = newProcessToken();
    // The escaped child: its own session, the token in its environment, and no leader left.
    const escaped = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      detached: true,
      stdio: 'ignore',
      cwd: repo.dir,
      env: { PATH: process.env.PATH ?? '/usr/bin', [PROCESS_TOKEN_VAR]: token },
    });
    escaped.unref();
    const gone = new Promise<void>((resolve) => escaped.once('exit', () => resolve()));
    try {
      await writeFile(join(runDir, 'processes.json'), `${JSON.stringify([{ pgid: 999_999_999, token }])}\n`);
      expect(await stopLeftoverGroups(runDir, repo.dir)).toEqual([999_999_999]);
      await gone;
      expect(processesWithToken(token)).toEqual([]);
    } finally {
      escaped.kill('SIGKILL');
      await repo.cleanup();
    }
  }, 30_000);
});

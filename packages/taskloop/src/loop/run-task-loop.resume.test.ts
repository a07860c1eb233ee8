import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mulberry32 } from '@conclave/core/internal';
import { describe, expect, it } from 'vitest';
import { parsePlan } from '../ledger/plan-parse.js';
import { CHECK_SCRIPT, sampleSpec, tempRepo } from '../test-support/temp-repo.js';

const CHILD = fileURLToPath(new URL('./test-fixtures/loop-child.ts', import.meta.url));
const TASKS = ['t1', 't2', 't3'];
const TRIALS = 4;
const MAX_KILLS = 4;

/** Starts the loop in a child process; kills it with SIGKILL after `killAfterMs` unless it finished first. */
function runChild(workspace: string, killAfterMs: number | undefined): Promise<{ killed: boolean; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=conclave-source', '--import', 'tsx', CHILD, workspace, 'flaky'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL', stdout });
    });
  });
}

async function planState(workspace: string): Promise<{ parseable: boolean; checked: string[] } | undefined> {
  let text: string;
  try {
    text = await readFile(join(workspace, '.conclave/plan.md'), 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parsePlan(text);
  return parsed.ok
    ? { parseable: true, checked: parsed.plan.items.filter((i) => i.checked).map((i) => i.id) }
    : { parseable: false, checked: [] };
}

describe('runTaskLoop resumes after SIGKILL at random moments', () => {
  it('plan.md always parses, completed tasks are never rebuilt, and every rerun ends with all tasks completed', async () => {
    const random = mulberry32(20261122);
    const tasks = TASKS.map((id) => `- [ ] Write ${id} {#${id}}`).join('\n');
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const repo = await tempRepo({ 'scripts/check.mjs': CHECK_SCRIPT, 'spec.md': sampleSpec({ tasks: `${tasks}\n`, maxRetries: 2 }) });
      try {
        let finished: string | undefined;
        let kills = 0;
        let checkedBefore: string[] = [];
        for (let run = 0; finished === undefined; run += 1) {
          // Early kills land in start-up and the first writes; later ones mid-build, mid-gate, mid-commit.
          const killAfter = kills < MAX_KILLS ? 300 + Math.floor(random() * 1_700) : undefined;
          const outcome = await runChild(repo.dir, killAfter);
          if (outcome.killed) kills += 1;
          else finished = outcome.stdout;
          const state = await planState(repo.dir);
          if (state !== undefined) {
            expect(state.parseable).toBe(true);
            // A ticked box is never unticked by a kill or a rerun.
            for (const id of checkedBefore) expect(state.checked).toContain(id);
            checkedBefore = state.checked;
          }
          expect(run).toBeLessThan(MAX_KILLS + 2);
        }
        expect(JSON.parse(finished), finished).toEqual(expect.objectContaining({ outcome: 'completed' }));
        expect((await planState(repo.dir))?.checked).toEqual(TASKS);
        // Builds start in plan order: once a later task started, no earlier (completed) task is built again.
        const starts = (await readFile(join(repo.dir, 'build-log.txt'), 'utf8'))
          .split('\n')
          .filter((line) => line.endsWith(' start'))
          .map((line) => line.split(' ')[0] as string);
        const order = starts.map((id) => TASKS.indexOf(id));
        expect(order).toEqual([...order].sort((a, b) => a - b));
        // Every task's passing attempt is committed.
        const log = await promisify(execFile)('git', ['log', '--format=%s'], { cwd: repo.dir });
        for (const id of TASKS) expect(log.stdout).toMatch(new RegExp(`\\[${id}\\] attempt \\d+: passed`));
      } finally {
        await repo.cleanup();
      }
    }
  }, 240_000);
});

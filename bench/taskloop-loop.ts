/**
 * Task loop overhead per attempt, excluding the builder and the gates (target < 30 ms): a real
 * git repository in a temporary folder, a 20-task plan, an in-process builder that writes one
 * file (its first attempt at every third task is wrong, so retries are included) and one cheap
 * file_exists gate. Overhead = the run's wall time minus the builder and gate durations recorded
 * in the evidence, divided by the attempts. What remains is the loop's own work per attempt: the
 * spec hash check, the ledger check, the evidence bundle and transcript (atomic, fsynced), the
 * timeline, the flip, and `git add -A` + `git commit`.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSpec, runTaskLoop, type Builder, type EvidenceBundle } from '@conclave/taskloop';
import { figure, type BenchResult } from './harness.js';

const TASKS = 20;

function specText(): string {
  const tasks = Array.from({ length: TASKS }, (_, i) => `- [ ] Write file ${i + 1} {#t${i + 1}}`).join('\n');
  return `---
id: bench-loop
title: Loop overhead benchmark
acceptance: [every file exists]
budgets: { maxRetries: 2 }
gates:
  - { type: file_exists, name: marker, paths: [ok.marker] }
---
# Benchmark

## Tasks

${tasks}
`;
}

export async function taskloopLoop(): Promise<BenchResult> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-taskloop-loop-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
  try {
    git('init', '-q', '-b', 'main');
    await writeFile(join(dir, 'README.md'), '# bench\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'initial');
    const seen = new Map<string, number>();
    const builder: Builder = {
      name: 'in-process',
      async build(task, _feedback, context) {
        const started = performance.now();
        const attempt = (seen.get(task.id) ?? 0) + 1;
        seen.set(task.id, attempt);
        const wrong = attempt === 1 && Number(task.id.slice(1)) % 3 === 0;
        await mkdir(join(context.workspace, 'out'), { recursive: true });
        await writeFile(join(context.workspace, 'out', `${task.id}.txt`), `${task.id}\n`);
        await (wrong ? rm(join(context.workspace, 'ok.marker'), { force: true }) : writeFile(join(context.workspace, 'ok.marker'), 'ok\n'));
        return { ok: true, summary: `wrote ${task.id}`, transcript: '', durationMs: Math.round(performance.now() - started) };
      },
    };
    const parsed = parseSpec(specText(), 'bench.md');
    if (!parsed.ok) throw new Error('bench spec is invalid');
    const started = performance.now();
    const result = await runTaskLoop({ workspace: dir, spec: parsed.spec, builder });
    const wall = performance.now() - started;
    if (result.outcome !== 'completed') throw new Error(`the benchmark run did not complete: ${JSON.stringify(result.stop)}`);

    let attempts = 0;
    let excluded = 0;
    for (const [taskId, count] of seen) {
      for (let n = 1; n <= count; n += 1) {
        const bundle = JSON.parse(await readFile(join(dir, '.conclave/runs', result.runId as string, taskId, `attempt-${n}`, 'evidence.json'), 'utf8')) as EvidenceBundle;
        attempts += 1;
        excluded += (bundle.builder?.durationMs ?? 0) + bundle.gates.reduce((sum, gate) => sum + gate.durationMs, 0);
      }
    }
    const overhead = (wall - excluded) / attempts;
    return {
      name: 'taskloop-loop',
      figures: [
        figure('attempts in the run', attempts, `for ${TASKS} tasks`),
        figure('loop overhead per attempt (excl. builder and gates)', overhead, 'ms', { op: '<', value: 30 }),
        figure('builder + gate time per attempt', excluded / attempts, 'ms'),
        figure('whole run', wall, 'ms'),
      ],
      details: { attempts, tasks: TASKS, wallMs: Math.round(wall), excludedMs: Math.round(excluded) },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

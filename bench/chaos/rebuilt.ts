/**
 * Tasks rebuilt after they had passed: the run's branch holds one commit per attempt, subject
 * `[<task>] attempt <n>: passed|failed`; any commit for a task after one that passed means a
 * resume redid work that was already proven.
 */
import { execFileSync } from 'node:child_process';

const SUBJECT = /^\[([^\]]+)\] attempt (\d+): (\w+)/;

/** The attempts' commit subjects on `branch` since `main`, oldest first (none when git cannot tell). */
export function attemptSubjects(workspace: string, branch: string): string[] {
  try {
    const out = execFileSync('git', ['-c', 'core.hooksPath=/dev/null', 'log', '--reverse', '--format=%s', `main..${branch}`], {
      cwd: workspace,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.split('\n').filter((line) => SUBJECT.test(line));
  } catch {
    return [];
  }
}

/** The tasks with an attempt committed after one of theirs passed. */
export function rebuiltTasks(subjects: readonly string[]): string[] {
  const passed = new Set<string>();
  const rebuilt = new Set<string>();
  for (const subject of subjects) {
    const [, task = '', , decision] = SUBJECT.exec(subject) ?? [];
    if (passed.has(task)) rebuilt.add(task);
    if (decision === 'passed') passed.add(task);
  }
  return [...rebuilt];
}

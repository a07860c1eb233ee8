import { execFileSync } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCommandBuilder } from '@conclave/taskloop';

/** A fresh git repository holding a copy of examples/tasks/sample-project: the loop commits every attempt there. */
export async function sampleWorkspace(): Promise<{ readonly workspace: string; readonly git: (...argv: string[]) => string }> {
  const workspace = await mkdtemp(join(tmpdir(), 'conclave-taskloop-example-'));
  await cp(fileURLToPath(new URL('tasks/sample-project', import.meta.url)), workspace, { recursive: true });
  const identity = {
    GIT_AUTHOR_NAME: 'example',
    GIT_AUTHOR_EMAIL: 'example@localhost',
    GIT_COMMITTER_NAME: 'example',
    GIT_COMMITTER_EMAIL: 'example@localhost',
  };
  const git = (...argv: string[]) => execFileSync('git', argv, { cwd: workspace, encoding: 'utf8', env: { ...process.env, ...identity } });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'sample project');
  return { workspace, git };
}

/**
 * The builder: a coding-agent CLI run as a child process with the prompt on stdin. Here a
 * deterministic stand-in; `claude -p --output-format json` would go in the same place. The
 * command runs in the workspace, so its script is given by absolute path (quoted: no shell).
 */
export function offlineAgent() {
  const agent = fileURLToPath(new URL('tasks/offline-agent.js', import.meta.url));
  return createCommandBuilder({ command: `'${process.execPath}' '${agent}'`, promptVia: 'stdin', name: 'offline-agent' });
}

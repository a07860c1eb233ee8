/**
 * One trial's world: a fresh git repository holding the sample project, an empty HOME and its
 * own CONCLAVE_STATE_DIR (where the run key lives), and the CLI's argv for `task run` and
 * `task resume` with the offline agent as the builder.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const spec = join(repoRoot, 'examples/tasks/add-farewell.md');
const builder = `'${process.execPath}' '${join(repoRoot, 'examples/tasks/offline-agent.js')}'`;

/** A trial's folders and environment. */
export interface TrialWorkspace {
  readonly root: string;
  readonly workspace: string;
  readonly env: Record<string, string>;
  /** Removes every folder of the trial. */
  remove(): void;
}

/** A fresh trial world under one temp folder. */
export function trialWorkspace(): TrialWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'conclave-chaos-'));
  const workspace = join(root, 'repo');
  cpSync(join(repoRoot, 'examples/tasks/sample-project'), workspace, { recursive: true });
  const identity = {
    GIT_AUTHOR_NAME: 'chaos',
    GIT_AUTHOR_EMAIL: 'chaos@localhost',
    GIT_COMMITTER_NAME: 'chaos',
    GIT_COMMITTER_EMAIL: 'chaos@localhost',
  };
  for (const argv of [
    ['init', '-q', '-b', 'main'],
    ['add', '-A'],
    ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'sample'],
  ]) {
    execFileSync('git', argv, { cwd: workspace, env: { PATH: process.env.PATH ?? '', HOME: root, ...identity }, stdio: 'ignore' });
  }
  const home = join(root, 'home');
  mkdirSync(home);
  const env = { PATH: process.env.PATH ?? '', HOME: home, USER: 'chaos', CI: 'true', CONCLAVE_STATE_DIR: join(root, 'state') };
  return { root, workspace, env, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The node argv of the CLI from source (tsx by absolute URL: the child runs in the temp repo). */
function cli(args: readonly string[]): string[] {
  const tsx = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  return ['--conditions=conclave-source', '--import', tsx, join(repoRoot, 'packages/cli/src/bin.ts'), ...args];
}

/** `task run` when the workspace has no run yet (none was recorded before a kill), else `task resume`. */
export function nextCommand(workspace: string): { readonly kind: 'run' | 'resume'; readonly argv: string[] } {
  const settings = ['--builder', builder, '--allow', 'node --test', '--json'];
  // A kill before the run recorded anything leaves nothing to resume; a person would start it again.
  if (!existsSync(join(workspace, '.conclave/run.json'))) return { kind: 'run', argv: cli(['task', 'run', spec, ...settings]) };
  // cli.json (the builder on record) is written when a run returns, so a killed run has none: pass it again.
  return { kind: 'resume', argv: cli(['task', 'resume', ...settings]) };
}

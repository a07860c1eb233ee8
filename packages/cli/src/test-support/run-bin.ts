import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { offlineEnv, repoRoot } from './run-main.js';

const exec = promisify(execFile);

/** The node arguments that run the bin from source, as the repository's scripts do, then `args`. */
export function binArgv(args: readonly string[]): string[] {
  // tsx by absolute URL: the child runs in a temp folder, where a bare "tsx" would not resolve.
  const tsx = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  return ['--conditions=conclave-source', '--import', tsx, join(repoRoot, 'packages/cli/src/bin.ts'), ...args];
}

/** The bin from source in a real child process (offline, CI set); its exit code and captured streams. */
export async function runBin(args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, binArgv(args), { cwd, env: offlineEnv({ CI: 'true' }) });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

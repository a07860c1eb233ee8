import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { offlineEnv, repoRoot } from './run-main.js';

/**
 * Where a child runs the bin from: `source`, through tsx, as the repository's scripts do; or
 * `built`, the installed entry point bin/conclave.js over dist/ (the cli project's global setup
 * builds it), which also starts in a third of the time.
 */
export type BinFrom = 'source' | 'built';

/** The node arguments that run the bin, then `args`. */
export function binArgv(args: readonly string[], from: BinFrom = 'source'): string[] {
  if (from === 'built') return [join(repoRoot, 'packages/cli/bin/conclave.js'), ...args];
  // tsx by absolute URL: the child runs in a temp folder, where a bare "tsx" would not resolve.
  const tsx = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  return ['--conditions=conclave-source', '--import', tsx, join(repoRoot, 'packages/cli/src/bin.ts'), ...args];
}

/** What one run of the bin did. */
export interface BinRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The bin in a real child process (offline, CI set, unless `env` says otherwise); its exit code and captured streams. */
export function runBin(
  args: readonly string[],
  cwd: string,
  options: { from?: BinFrom; env?: Record<string, string | undefined> } = {},
): Promise<BinRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      binArgv(args, options.from),
      { cwd, env: options.env ?? offlineEnv({ CI: 'true' }), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

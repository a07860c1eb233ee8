import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { offlineEnv, repoRoot } from './run-main.js';

/** The installed entry point: bin/conclave.js over dist/ (the cli project's global setup builds it). */
export const realBin = join(repoRoot, 'packages/cli/bin/conclave.js');

/** What one run of the binary did. */
export interface BinRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real `conclave` binary in a child process, offline unless `env` says otherwise. */
export function runRealBin(args: readonly string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<BinRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [realBin, ...args], { cwd: options.cwd, env: options.env ?? offlineEnv({ CI: 'true' }), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The repository root, where a new user runs the examples from. */
export const root = new URL('..', import.meta.url).pathname;

const run = promisify(execFile);

/** Runs a TypeScript entry point the way the README and the guides tell a new user to. */
export async function runTs(file: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--conditions=conclave-source', '--import', 'tsx', file, ...args], {
      cwd: root,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Vitest global setup of the cli project: builds every package once (`tsc -b`, incremental, so
 * a second run costs a few seconds), so tests can run the real `conclave` binary —
 * packages/cli/bin/conclave.js over dist/, exactly what `npm i -g @conclave/cli` installs —
 * as a child process, at a third of the start-up time of the source through tsx.
 */
export default async function buildOnce(): Promise<void> {
  const tsc = fileURLToPath(new URL('node_modules/typescript/bin/tsc', `file://${repoRoot}`));
  try {
    await exec(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`the cli tests build the packages first (tsc -b tsconfig.build.json), and the build failed:\n${stdout}${stderr}`);
  }
}

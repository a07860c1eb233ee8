import { join } from 'node:path';
import { runCommand } from './run-command.js';
import { repoRoot } from './workspaces.js';

/**
 * Builds every package (`tsc -b tsconfig.build.json`, incremental, so a second run costs a few
 * seconds): what `npm pack` ships is dist/. The global setup of the test projects that run or
 * pack the build (cli, packaging); Vitest runs global setups one after another, never two
 * builds at once.
 */
export default async function buildPackages(): Promise<void> {
  const build = await runCommand(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], {
    cwd: repoRoot,
  });
  if (build.code !== 0)
    throw new Error(`the packages must build first (tsc -b tsconfig.build.json), and the build failed:\n${build.stdout}${build.stderr}`);
}

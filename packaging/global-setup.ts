import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import buildPackages from './build-packages.js';
import { npmPack, type PackedPackage } from './npm-pack.js';
import { readWorkspaces } from './workspaces.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Every package, built and packed once for the whole packaging project. */
    readonly packed: readonly PackedPackage[];
    /** A temp folder the packaging tests work in; removed after the run. */
    readonly workRoot: string;
  }
}

/** The packaging project's global setup: build once, pack every package once, share the tarballs. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildPackages();
  const workRoot = await mkdtemp(join(tmpdir(), 'conclave-packaging-'));
  const destination = join(workRoot, 'tarballs');
  await mkdir(destination);
  project.provide('packed', await npmPack(await readWorkspaces(), { destination }));
  project.provide('workRoot', workRoot);
  return () => rm(workRoot, { recursive: true, force: true });
}

import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this folder's parent). */
export const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/** The fields of a package.json the packaging checks read. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly exports?: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  readonly bin?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

/** One published package of the workspace. */
export interface Workspace {
  /** Its folder relative to the repository root, e.g. `packages/core`. */
  readonly dir: string;
  readonly manifest: Manifest;
}

/** Every package under packages/, sorted by folder. */
export async function readWorkspaces(): Promise<Workspace[]> {
  const workspaces: Workspace[] = [];
  for (const name of (await readdir(join(repoRoot, 'packages'))).sort()) {
    const file = join(repoRoot, 'packages', name, 'package.json');
    if (existsSync(file)) workspaces.push({ dir: `packages/${name}`, manifest: JSON.parse(await readFile(file, 'utf8')) as Manifest });
  }
  return workspaces;
}

/** The package named `name` and every workspace package it depends on at run time, transitively (optional dependencies too, unless `omitOptional`). */
export function dependencyClosure(
  workspaces: readonly Workspace[],
  name: string,
  options: { readonly omitOptional?: boolean } = {},
): Workspace[] {
  const byName = new Map(workspaces.map((workspace) => [workspace.manifest.name, workspace]));
  const needed = new Set<Workspace>();
  const visit = (dependency: string): void => {
    const workspace = byName.get(dependency);
    if (workspace === undefined || needed.has(workspace)) return;
    needed.add(workspace);
    for (const next of Object.keys({
      ...workspace.manifest.dependencies,
      ...(options.omitOptional === true ? {} : workspace.manifest.optionalDependencies),
    }))
      visit(next);
  };
  visit(name);
  return [...needed];
}

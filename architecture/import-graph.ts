import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository's `packages/` folder. */
export const PACKAGES_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'packages');

/** A workspace package as the architecture tests read it. */
export interface WorkspacePackage {
  /** The folder under `packages/`, e.g. `core`. */
  readonly folder: string;
  /** The npm name, e.g. `@conclave/core`. */
  readonly name: string;
  readonly dir: string;
  /** What a consumer installs with it: dependencies, peer, optional and bundled ones. */
  readonly runtimeDependencies: readonly string[];
  /** Every shipped TypeScript source file (no tests, test support or fixtures). */
  readonly sources: readonly string[];
}

interface PackageJson {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly bundleDependencies?: readonly string[] | boolean;
  readonly bundledDependencies?: readonly string[] | boolean;
}

/** Folders of test-only code inside `src/`, which `files` in every package.json leaves out. */
const TEST_ONLY = /(^|\/)(test-support|test-fixtures)(\/|$)/;

/** Every package under `packages/` that has a package.json, by folder name. */
export function workspacePackages(): WorkspacePackage[] {
  return readdirSync(PACKAGES_ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(PACKAGES_ROOT, entry.name, 'package.json')))
    .map((entry) => {
      const dir = join(PACKAGES_ROOT, entry.name);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
      const bundled = [pkg.bundleDependencies, pkg.bundledDependencies].flatMap((list) =>
        Array.isArray(list) ? (list as readonly string[]) : [],
      );
      const runtimeDependencies = [
        ...Object.keys(pkg.dependencies ?? {}),
        ...Object.keys(pkg.peerDependencies ?? {}),
        ...Object.keys(pkg.optionalDependencies ?? {}),
        ...bundled,
      ];
      return { folder: entry.name, name: pkg.name, dir, runtimeDependencies, sources: shippedSources(join(dir, 'src')) };
    });
}

function shippedSources(src: string): string[] {
  return (readdirSync(src, { recursive: true }) as string[])
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts') && !TEST_ONLY.test(file))
    .map((file) => join(src, file));
}

/** The module specifiers a TypeScript file imports or re-exports: type-only, side-effect and dynamic ones included. */
export function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((ref) => ref.fileName);
}

/** `./x.js` → `./x.ts` (or `./x/index.ts`), as NodeNext resolves a TypeScript source tree. */
export function resolveRelative(from: string, specifier: string): string {
  const target = resolve(dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, '.ts'), target.endsWith('.ts') ? target : `${target}.ts`, join(target, 'index.ts')];
  const found = candidates.find((candidate) => existsSync(candidate) && candidate.endsWith('.ts'));
  if (found === undefined) throw new Error(`${from}: cannot resolve ${specifier}`);
  return found;
}

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

/** The files each of `files` imports by a relative path: one package's own import graph. */
export function localImportGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => [
      file,
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolveRelative(file, specifier)),
    ]),
  );
}

/**
 * The import cycles of a graph: each strongly connected component of more than one file, or a
 * file that imports itself (Tarjan's algorithm), its files in a stable order.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** A path under `packages/`, for messages. */
export function shortPath(file: string): string {
  return relative(PACKAGES_ROOT, file);
}

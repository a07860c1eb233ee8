import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The verifier is read-only by architecture: nothing it depends on, directly or through a
// workspace package, can call a model, run requests concurrently or touch the machine.

const here = dirname(fileURLToPath(import.meta.url));
const verifierRoot = resolve(here, '..');
const packagesRoot = resolve(verifierRoot, '..');

/** What the verifier may depend on at run time. */
const ALLOWED_DEPENDENCIES = new Set(['@conclave/scoring', 'zod', 'neverthrow', 'ts-pattern']);
/** Packages that can call a model or drive deliberation; the verifier must never reach them. */
const FORBIDDEN_PACKAGES = ['@conclave/core', '@conclave/council', '@anthropic-ai/sdk', 'openai', 'p-limit'];

interface PackageJson {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly bundleDependencies?: readonly string[] | boolean;
  readonly bundledDependencies?: readonly string[] | boolean;
  readonly exports?: Record<string, { readonly source?: string } | string>;
}

const readPackageJson = (dir: string): PackageJson => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;

/** Every dependency a consumer of the package installs (devDependencies are not shipped). */
function runtimeDependencies(pkg: PackageJson): string[] {
  const bundled = [pkg.bundleDependencies, pkg.bundledDependencies].flatMap((list) => (Array.isArray(list) ? (list as readonly string[]) : []));
  return [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {}), ...bundled];
}

/** The workspace packages by name, with the source file their `.` export points at. */
function workspacePackages(): Map<string, string> {
  const byName = new Map<string, string>();
  for (const entry of readdirSync(packagesRoot, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(packagesRoot, entry.name);
    let pkg: PackageJson;
    try {
      pkg = readPackageJson(dir);
    } catch {
      continue;
    }
    const dot = pkg.exports?.['.'];
    const source = typeof dot === 'object' && dot.source !== undefined ? dot.source : './src/index.ts';
    byName.set(pkg.name, resolve(dir, source));
  }
  return byName;
}

/** The module specifiers a TypeScript file imports or re-exports, type-only ones included. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((ref) => ref.fileName);
}

/** `./x.js` → `./x.ts` (or `./x/index.ts`), as NodeNext resolves a TypeScript source tree. */
function resolveRelative(from: string, specifier: string): string {
  const target = resolve(dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, '.ts'), target.endsWith('.ts') ? target : `${target}.ts`, join(target, 'index.ts')];
  for (const candidate of candidates) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // try the next spelling
    }
  }
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

interface Reach {
  /** Every bare package or built-in module reached, with the chain of files that reaches it. */
  readonly packages: Map<string, string[]>;
  readonly files: Set<string>;
}

/**
 * Walks the import graph from the entry files: follows relative imports, and follows imports of
 * workspace packages into their source; records every other package (and built-in) reached.
 */
function walk(entries: readonly string[]): Reach {
  const workspace = workspacePackages();
  const packages = new Map<string, string[]>();
  const files = new Set<string>();
  const queue: { file: string; chain: string[] }[] = entries.map((file) => ({ file, chain: [file] }));
  while (queue.length > 0) {
    const { file, chain } = queue.shift() as { file: string; chain: string[] };
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.')) {
        const next = resolveRelative(file, specifier);
        queue.push({ file: next, chain: [...chain, next] });
        continue;
      }
      const name = isBuiltin(specifier) ? specifier : packageName(specifier);
      if (!packages.has(name)) packages.set(name, chain);
      const source = workspace.get(name);
      if (source !== undefined) queue.push({ file: source, chain: [...chain, source] });
    }
  }
  return { packages, files };
}

/** Every non-test TypeScript file of the verifier's source. */
function verifierSources(): string[] {
  const dir = join(verifierRoot, 'src');
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(dir, file));
}

/** Why a reached package is forbidden, or undefined when it is allowed. */
function forbidden(name: string): string | undefined {
  if (FORBIDDEN_PACKAGES.includes(name)) return 'can call a model or drive deliberation';
  if (name.startsWith('node:') || isBuiltin(name)) return 'a Node built-in (I/O, processes, the machine)';
  return undefined;
}

describe('the verifier is read-only by architecture', () => {
  it('depends at run time on nothing but an allow-list (@conclave/scoring, zod, neverthrow, ts-pattern)', () => {
    const pkg = readPackageJson(verifierRoot);
    expect(pkg.name).toBe('@conclave/verifier');
    const outside = runtimeDependencies(pkg).filter((name) => !ALLOWED_DEPENDENCIES.has(name));
    expect(outside).toEqual([]);
  });

  it('never reaches core, council, a model SDK, p-limit or a Node built-in through its imports, however indirectly', () => {
    const sources = verifierSources();
    expect(sources.length).toBeGreaterThan(10);
    const { packages } = walk(sources);
    const violations = [...packages].flatMap(([name, chain]) => {
      const why = forbidden(name);
      return why === undefined ? [] : [`${name} (${why}) via ${chain.map((file) => file.slice(packagesRoot.length + 1)).join(' → ')}`];
    });
    expect(violations).toEqual([]);
  });

  it('declares every package its source imports', () => {
    const declared = new Set(runtimeDependencies(readPackageJson(verifierRoot)));
    const imported = new Set(verifierSources().flatMap((file) => importsOf(file).filter((s) => !s.startsWith('.')).map(packageName)));
    expect([...imported].filter((name) => !declared.has(name))).toEqual([]);
  });

  // The walker must be able to see what it guards against, or the tests above prove nothing.
  it('the import walker follows workspace packages into their source and sees third-party packages there', () => {
    const { packages, files } = walk(verifierSources());
    expect(packages.has('@conclave/scoring')).toBe(true);
    expect(packages.has('neverthrow')).toBe(true); // imported by scoring, not by the verifier
    expect([...files].some((file) => file.includes(`${join('scoring', 'src')}`))).toBe(true);
  });

  it('the import walker does flag a package that reaches core, council and p-limit (the testing package)', () => {
    const reached = walk([join(packagesRoot, 'testing', 'src', 'index.ts')]).packages;
    expect(forbidden('@conclave/core')).toBeDefined();
    expect(reached.has('@conclave/core')).toBe(true);
    expect(reached.has('@conclave/council')).toBe(true);
    expect(reached.has('p-limit')).toBe(true);
    expect(forbidden('node:fs')).toBeDefined();
    expect(forbidden('fs')).toBeDefined();
    expect(forbidden('@conclave/scoring')).toBeUndefined();
  });

  it('reads import, import type, export-from, side-effect and dynamic imports, across lines', () => {
    const source = [
      "import { a,\n  b } from './one.js';",
      "import type { C } from '@conclave/core';",
      "export { d } from 'openai';",
      "export * from './two.js';",
      "import 'node:fs';",
      "const e = await import('p-limit');",
    ].join('\n');
    const specifiers = ts.preProcessFile(source, true, true).importedFiles.map((ref) => ref.fileName);
    expect(specifiers.sort()).toEqual(['./one.js', './two.js', '@conclave/core', 'node:fs', 'openai', 'p-limit'].sort());
  });
});

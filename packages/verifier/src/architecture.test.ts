import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  importsOf,
  packageName,
  PACKAGES_ROOT as packagesRoot,
  resolveRelative,
  workspacePackages as readWorkspace,
} from '../../../architecture/import-graph.js';

// The verifier is read-only by architecture: nothing it depends on, directly or through a
// workspace package, can call a model, run requests concurrently or touch the machine.

const verifier = readWorkspace().find((pkg) => pkg.folder === 'verifier');
if (verifier === undefined) throw new Error('packages/verifier has no package.json');

/** What the verifier may depend on at run time. */
const ALLOWED_DEPENDENCIES = new Set(['@conclave/scoring', 'zod', 'neverthrow', 'ts-pattern']);
/** Packages that can call a model or drive deliberation; the verifier must never reach them. */
const FORBIDDEN_PACKAGES = ['@conclave/core', '@conclave/council', '@anthropic-ai/sdk', 'openai', 'p-limit'];

/**
 * Every entry of every workspace package by the specifier that imports it (`@conclave/scoring`,
 * `@conclave/scoring/calibration`), with the source file its `conclave-source` condition names.
 */
function workspacePackages(): Map<string, string> {
  return new Map(
    readWorkspace().flatMap((pkg) => {
      const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as {
        exports?: Record<string, string | Record<string, string>>;
      };
      return Object.entries(manifest.exports ?? {}).flatMap(([subpath, target]): [string, string][] => {
        const source = typeof target === 'object' ? target['conclave-source'] : undefined;
        return source === undefined ? [] : [[subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`, join(pkg.dir, source)]];
      });
    }),
  );
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
      const source = workspace.get(specifier) ?? workspace.get(name);
      if (source !== undefined) queue.push({ file: source, chain: [...chain, source] });
    }
  }
  return { packages, files };
}

/** Every shipped TypeScript file of the verifier's source. */
function verifierSources(): string[] {
  return [...(verifier as { sources: readonly string[] }).sources];
}

/** Why a reached package is forbidden, or undefined when it is allowed. */
function forbidden(name: string): string | undefined {
  if (FORBIDDEN_PACKAGES.includes(name)) return 'can call a model or drive deliberation';
  if (name.startsWith('node:') || isBuiltin(name)) return 'a Node built-in (I/O, processes, the machine)';
  return undefined;
}

describe('the verifier is read-only by architecture', () => {
  it('depends at run time on nothing but an allow-list (@conclave/scoring, zod, neverthrow, ts-pattern)', () => {
    expect(verifier.name).toBe('@conclave/verifier');
    const outside = verifier.runtimeDependencies.filter((name) => !ALLOWED_DEPENDENCIES.has(name));
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
    const declared = new Set(verifier.runtimeDependencies);
    const imported = new Set(
      verifierSources().flatMap((file) =>
        importsOf(file)
          .filter((s) => !s.startsWith('.'))
          .map(packageName),
      ),
    );
    expect([...imported].filter((name) => !declared.has(name))).toEqual([]);
  });

  // The walker must be able to see what it guards against, or the tests above prove nothing.
  it('the import walker follows workspace packages into their source and sees third-party packages there', () => {
    const { packages, files } = walk(verifierSources());
    expect(packages.has('@conclave/scoring')).toBe(true);
    expect(packages.has('neverthrow')).toBe(true); // imported by scoring, not by the verifier
    expect([...files].some((file) => file.includes(`${join('scoring', 'src')}`))).toBe(true);
  });

  it('the import walker follows a subpath import into the file that entry names', () => {
    const { files } = walk(verifierSources());
    expect(workspacePackages().get('@conclave/scoring/calibration')).toBe(join(packagesRoot, 'scoring', 'src', 'calibration', 'index.ts'));
    expect(files.has(join(packagesRoot, 'scoring', 'src', 'calibration', 'index.ts'))).toBe(true);
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

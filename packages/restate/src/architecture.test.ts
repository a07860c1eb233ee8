import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The dependency rule (ARCHITECTURE.md): restate may import core, council, meeting, taskloop, the
// report (for run records) and Restate's own SDKs; never a provider adapter, never the cli. Node's
// built-ins only where the task workflow touches its work tree: the debate and the meeting stay
// free of the disk and of child processes.
const WORK_TREE_FILES = new Set(['task-workflow.ts', 'work-tree.ts']);
const src = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
const packageOf = (specifier: string): string =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] as string);
const imports = (file: string): string[] =>
  ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((ref) => ref.fileName);

describe('architecture', () => {
  it("imports only the packages the dependency rule allows, and Node built-ins only in the task workflow's work-tree files", () => {
    const files = sourceFiles(src);
    expect(files.length).toBeGreaterThan(5);
    const allowed = new Set([
      '@conclave/core',
      '@conclave/council',
      '@conclave/meeting',
      '@conclave/report',
      '@conclave/taskloop',
      '@restatedev/restate-sdk',
      '@restatedev/restate-sdk-clients',
    ]);
    const offenders = files.flatMap((file) =>
      imports(file)
        .filter((specifier) => !specifier.startsWith('.'))
        .filter(
          (specifier) =>
            (isBuiltin(specifier) && !WORK_TREE_FILES.has(relative(src, file))) ||
            (!isBuiltin(specifier) && !allowed.has(packageOf(specifier))),
        )
        .map((specifier) => `${relative(src, file)} imports ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it('lists every package it imports as a dependency', () => {
    const pkg = JSON.parse(readFileSync(join(src, '..', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const imported = new Set(
      sourceFiles(src)
        .flatMap(imports)
        .filter((specifier) => !specifier.startsWith('.') && !isBuiltin(specifier))
        .map(packageOf),
    );
    for (const name of imported) expect(Object.keys(pkg.dependencies)).toContain(name);
  });
});

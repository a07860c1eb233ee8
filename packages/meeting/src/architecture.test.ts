import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The main entry is a pure package (browsers, edge runtimes, Bun, Deno); only src/node may touch the machine.
const src = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(src, 'node') ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('architecture', () => {
  it('imports no Node built-in outside src/node', () => {
    const files = sourceFiles(src).filter((file) => !relative(src, file).startsWith('test-support'));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.map((ref) => ref.fileName)
        .filter((specifier) => specifier.startsWith('node:') || isBuiltin(specifier))
        .map((specifier) => `${relative(src, file)} imports ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it('imports only the packages the dependency rule allows', () => {
    const allowed = new Set(['@conclave/core', '@conclave/scoring', 'zod', 'neverthrow', 'yaml']);
    const imported = new Set(
      sourceFiles(src)
        .filter((file) => !relative(src, file).startsWith('test-support'))
        .flatMap((file) => ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((ref) => ref.fileName))
        .filter((specifier) => !specifier.startsWith('.'))
        .map((specifier) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] as string))),
    );
    expect([...imported].filter((name) => !allowed.has(name))).toEqual([]);
  });

  it('exports the node-only recorder from a separate subpath', () => {
    const pkg = JSON.parse(readFileSync(join(src, '..', 'package.json'), 'utf8')) as {
      exports: Record<string, { 'conclave-source'?: string }>;
    };
    expect(pkg.exports['.']?.['conclave-source']).toBe('./src/index.ts');
    expect(pkg.exports['./node']?.['conclave-source']).toBe('./src/node/index.ts');
    expect(readFileSync(join(src, 'index.ts'), 'utf8')).not.toMatch(/record-adr|\.\/node\//);
  });
});

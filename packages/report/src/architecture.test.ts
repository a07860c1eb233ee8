import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The report must render in a browser too: the shipped source imports nothing from Node, and at
// run time nothing but zod, neverthrow (the Result every parser returns) and its own files (the conclave packages are imported for their
// types only, which the compiler erases; @conclave/taskloop is Node-only).

const here = dirname(fileURLToPath(import.meta.url));

function shippedSources(dir = here): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : shippedSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

interface ImportInfo {
  readonly file: string;
  readonly specifier: string;
  readonly typeOnly: boolean;
}

function importsOf(file: string): ImportInfo[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: ImportInfo[] = [];
  const name = relative(here, file);
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      let typeOnly = false;
      if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause;
        const named = clause?.namedBindings;
        typeOnly =
          clause !== undefined &&
          (clause.isTypeOnly ||
            (clause.name === undefined &&
              named !== undefined &&
              ts.isNamedImports(named) &&
              named.elements.length > 0 &&
              named.elements.every((element) => element.isTypeOnly)));
      } else typeOnly = statement.isTypeOnly;
      found.push({ file: name, specifier: statement.moduleSpecifier.text, typeOnly });
    }
  }
  // Dynamic imports and require calls would dodge the check above.
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      found.push({ file: name, specifier: '(dynamic import or require)', typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('architecture: a pure renderer', () => {
  const files = shippedSources();
  const imports = files.flatMap(importsOf);

  it('finds the shipped sources', () => {
    expect(files.map((file) => relative(here, file))).toEqual(
      expect.arrayContaining([
        'index.ts',
        'render.ts',
        'html.ts',
        'parse.ts',
        'sections/debate.ts',
        'sections/meeting.ts',
        'sections/task.ts',
        'sections/verification.ts',
      ]),
    );
  });

  it('imports no Node built-in, not even for types', () => {
    expect(imports.filter((i) => i.specifier.startsWith('node:') || isBuiltin(i.specifier))).toEqual([]);
  });

  it('imports at run time only its own files, zod, neverthrow and the pure @conclave/core (any of its entries)', () => {
    expect(
      imports.filter(
        (i) =>
          !i.typeOnly &&
          !i.specifier.startsWith('./') &&
          !i.specifier.startsWith('../') &&
          i.specifier !== 'zod' &&
          i.specifier !== 'neverthrow' &&
          i.specifier !== '@conclave/core' &&
          !i.specifier.startsWith('@conclave/core/'),
      ),
    ).toEqual([]);
  });

  it('uses no Node globals', () => {
    const offenders = files.filter((file) =>
      /\b(?:process|Buffer|__dirname|__filename|require)\s*[.(]/.test(readFileSync(file, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')),
    );
    expect(offenders.map((file) => relative(here, file))).toEqual([]);
  });
});

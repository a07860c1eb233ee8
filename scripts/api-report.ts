import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * The API report: every name each package entry exports, its kind and its signature as the
 * compiler prints it, one committed markdown file per package under `api/`. `npm test` compares
 * the files with the source (scripts/api-report.test.ts), so a change to any package's public
 * face shows up as a diff in review; `npm run api:report` rewrites them (ADR 0039).
 */

/** Where the committed reports live, relative to the repository root. */
export const API_REPORT_DIR = 'api';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One package entry: the package's name, the subpath users import and its source file. */
interface Entry {
  readonly packageName: string;
  readonly folder: string;
  readonly subpath: string;
  readonly source: string;
}

/** Every entry of every workspace package, from its `exports` map's `conclave-source` condition. */
async function packageEntries(root: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  const folders = (await readdir(join(root, 'packages'), { withFileTypes: true }))
    .filter((dirent) => dirent.isDirectory())
    .map((dirent) => dirent.name)
    .sort();
  for (const folder of folders) {
    const manifest = JSON.parse(await readFile(join(root, 'packages', folder, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, unknown>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'object' && target !== null ? (target as Record<string, unknown>)['conclave-source'] : undefined;
      if (typeof source === 'string')
        entries.push({ packageName: manifest.name, folder, subpath, source: join(root, 'packages', folder, source) });
    }
  }
  return entries;
}

/** The compiler options the repository type-checks with (tsconfig.json), to resolve imports the same way. */
function compilerOptions(root: string): ts.CompilerOptions {
  const file = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(file, (path) => ts.sys.readFile(path));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, file).options;
}

/** How a declaration reads in the report: its kind, and its signature when printing one is cheap. */
function describe(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const name = symbol.getName();
  const declaration = target.declarations?.[0];
  const flags = target.flags;
  const print = (type: ts.Type) =>
    checker.typeToString(type, declaration, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope);
  if (flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbol(target);
    return type
      .getCallSignatures()
      .map((signature) => `function ${name}${checker.signatureToString(signature, declaration, ts.TypeFormatFlags.NoTruncation)}`)
      .join('\n');
  }
  if (flags & ts.SymbolFlags.Class) return `class ${name}`;
  if (flags & ts.SymbolFlags.Interface) return `interface ${name}${typeParameters(declaration)}`;
  if (flags & ts.SymbolFlags.TypeAlias) return `type ${name}${typeParameters(declaration)}`;
  if (flags & ts.SymbolFlags.Enum) return `enum ${name}`;
  if (flags & ts.SymbolFlags.Variable) {
    const type = print(checker.getTypeOfSymbol(target));
    // A schema's or a table's full type runs to pages: past a line, the kind says enough.
    return `const ${name}: ${type.length > 160 ? `${type.slice(0, 157)}...` : type}`;
  }
  return `${ts.SymbolFlags[flags] ?? 'export'} ${name}`;
}

/** `<A extends string = string>` as written, or nothing. */
function typeParameters(declaration: ts.Declaration | undefined): string {
  if (declaration === undefined || !('typeParameters' in declaration)) return '';
  const parameters = (declaration as { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> }).typeParameters;
  return parameters === undefined ? '' : `<${parameters.map((parameter) => parameter.getText()).join(', ')}>`;
}

/** Whether a symbol (or what it re-exports) is marked `@deprecated`. */
function isDeprecated(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return target.getJsDocTags(checker).some((tag) => tag.name === 'deprecated');
}

/** The report of every package, keyed by its file name under `api/`, e.g. `core.api.md`. */
export async function buildApiReports(root = ROOT): Promise<Map<string, string>> {
  const entries = await packageEntries(root);
  const program = ts.createProgram(
    entries.map((entry) => entry.source),
    compilerOptions(root),
  );
  const checker = program.getTypeChecker();
  const reports = new Map<string, string>();
  for (const entry of entries) {
    const file = program.getSourceFile(entry.source);
    const moduleSymbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (moduleSymbol === undefined) throw new Error(`${relative(root, entry.source)}: not a module the compiler can read`);
    const exports = checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.getName().localeCompare(b.getName(), 'en'));
    const lines = exports.map(
      (symbol) => `- \`${describe(symbol, checker).replaceAll('\n', '`\n- `')}\`${isDeprecated(symbol, checker) ? ' (deprecated)' : ''}`,
    );
    const name = `${entry.folder}.api.md`;
    const section = `## \`${entry.packageName}${entry.subpath === '.' ? '' : entry.subpath.slice(1)}\` (${exports.length} names)\n\n${lines.join('\n')}\n`;
    const previous = reports.get(name);
    reports.set(
      name,
      previous === undefined
        ? `# ${entry.packageName}: the public API\n\nGenerated by \`npm run api:report\`; do not edit. Checked by \`npm test\`.\n\n${section}`
        : `${previous}\n${section}`,
    );
  }
  return reports;
}

/** Rewrites `api/` from the source: every report written atomically, and none left for a package that is gone. */
export async function writeApiReports(root = ROOT): Promise<string[]> {
  const reports = await buildApiReports(root);
  const dir = join(root, API_REPORT_DIR);
  await mkdir(dir, { recursive: true });
  for (const stale of (await readdir(dir)).filter((file) => file.endsWith('.api.md') && !reports.has(file))) await rm(join(dir, stale));
  for (const [file, text] of reports) {
    const temp = join(dir, `.${file}.tmp`);
    await writeFile(temp, text);
    await rename(temp, join(dir, file));
  }
  return [...reports.keys()];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const written = await writeApiReports();
  console.log(`api report: ${written.length} files in ${API_REPORT_DIR}/`);
}

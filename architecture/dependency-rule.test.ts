import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEPENDENCY_RULE, PURE_PACKAGES } from './dependency-rule.js';
import { importCycles, importsOf, packageName, PACKAGES_ROOT, workspacePackages } from './import-graph.js';

const packages = workspacePackages();
const folderOf = new Map(packages.map((pkg) => [pkg.name, pkg.folder]));

/** The workspace packages (by folder) a package's shipped source imports, each with a file that does. */
function workspaceImports(sources: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources) {
    for (const specifier of importsOf(file)) {
      const folder = folderOf.get(packageName(specifier));
      if (folder !== undefined && !found.has(folder)) found.set(folder, relative(PACKAGES_ROOT, file));
    }
  }
  return found;
}

describe('the dependency rule holds for every package', () => {
  it('places every package in the rule, and names only packages that exist', () => {
    expect(packages.map((pkg) => pkg.folder).sort()).toEqual(Object.keys(DEPENDENCY_RULE).sort());
    const unknown = Object.values(DEPENDENCY_RULE)
      .flat()
      .filter((folder) => !packages.some((pkg) => pkg.folder === folder));
    expect(unknown).toEqual([]);
  });

  it('points down the layers only: the rule itself has no cycle', () => {
    const graph = new Map(Object.entries(DEPENDENCY_RULE).map(([from, to]) => [from, [...to]]));
    expect(importCycles(graph)).toEqual([]);
  });

  it.each(packages.map((pkg) => [pkg.folder, pkg] as const))(
    '%s imports and depends on only the packages the rule allows',
    (folder, pkg) => {
      const allowed = new Set(DEPENDENCY_RULE[folder] ?? []);
      const imported = [...workspaceImports(pkg.sources)]
        .filter(([to]) => to !== folder && !allowed.has(to))
        .map(([to, file]) => `${file} imports @conclave/${to}`);
      const declared = pkg.runtimeDependencies.flatMap((name) => {
        const to = folderOf.get(name);
        return to === undefined || allowed.has(to) ? [] : [`package.json depends on ${name}`];
      });
      expect([...imported, ...declared]).toEqual([]);
    },
  );

  it.each(Object.entries(PURE_PACKAGES))('%s is pure: no Node built-in in its shipped source', (folder, nodeOnly) => {
    const pkg = packages.find((candidate) => candidate.folder === folder);
    expect(pkg?.sources.length).toBeGreaterThan(0);
    const offenders = (pkg?.sources ?? [])
      .filter((file) => !nodeOnly.some((dir) => relative(pkg?.dir ?? '', file).startsWith(dir)))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => isBuiltin(specifier))
          .map((specifier) => `${relative(PACKAGES_ROOT, file)} imports ${specifier}`),
      );
    expect(offenders).toEqual([]);
  });

  it('docs/architecture.md draws exactly the rule', () => {
    const markdown = readFileSync(join(PACKAGES_ROOT, '..', 'docs', 'architecture.md'), 'utf8');
    const diagram = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
    const drawn = [...diagram.matchAll(/^\s*([\w-]+)\s*-->\s*([\w-]+)\s*$/gm)].map((match) => `${match[1]} --> ${match[2]}`).sort();
    const rule = Object.entries(DEPENDENCY_RULE)
      .flatMap(([from, to]) => to.map((target) => `${from} --> ${target}`))
      .sort();
    expect(drawn).toEqual(rule);
  });
});

describe('the rule checks can fail', () => {
  it('sees a workspace import and a Node built-in where there is one', () => {
    const cli = packages.find((pkg) => pkg.folder === 'cli');
    expect([...workspaceImports(cli?.sources ?? []).keys()]).toContain('taskloop');
    const taskloop = packages.find((pkg) => pkg.folder === 'taskloop');
    expect((taskloop?.sources ?? []).some((file) => importsOf(file).some((specifier) => isBuiltin(specifier)))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { importCycles, localImportGraph, shortPath, workspacePackages } from './import-graph.js';

// A circle of imports makes the order modules load in matter, and hides which file owns a concept:
// types belong in a module that imports nothing of its folder, with the functions above it.

describe('no package has an import cycle', () => {
  const packages = workspacePackages();

  it('reads every package', () => {
    expect(packages.length).toBeGreaterThanOrEqual(13);
  });

  it.each(packages.map((pkg) => [pkg.folder, pkg] as const))('%s', (_folder, pkg) => {
    const cycles = importCycles(localImportGraph(pkg.sources)).map((cycle) => cycle.map(shortPath).join(' ↔ '));
    expect(cycles).toEqual([]);
  });
});

describe('the cycle finder', () => {
  it('finds a circle of three, a file importing itself, and nothing in a tree', () => {
    const graph = new Map([
      ['builder', ['process']],
      ['build-prompt', ['builder', 'safe-build']],
      ['safe-build', ['builder', 'build-prompt']],
      ['process', []],
      ['self', ['self']],
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'process']],
    ]);
    expect(importCycles(graph)).toEqual(expect.arrayContaining([['build-prompt', 'safe-build'], ['self'], ['a', 'b', 'c']]));
    expect(importCycles(graph)).toHaveLength(3);
    expect(
      importCycles(
        new Map([
          ['x', ['y']],
          ['y', []],
        ]),
      ),
    ).toEqual([]);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { npmPack } from './npm-pack.js';
import { runCommand } from './run-command.js';
import { readWorkspaces, repoRoot, type Manifest } from './workspaces.js';

/**
 * What a user downloads: `npm pack --dry-run --json` for every package must list only what a
 * user needs (the build, the source its maps point at, README, LICENSE), every export must be
 * in it, and the real tarballs (packed once by the global setup) must pass `publint --strict`
 * and `attw --profile esm-only`, both run offline.
 */

const workspaces = await readWorkspaces();
const dryRun = await npmPack(workspaces, { dryRun: true });
const packed = inject('packed');
const manifests = new Map(workspaces.map((workspace) => [workspace.manifest.name, workspace.manifest]));

/** Folders a package may ship besides dist/ and src/: the cli's launcher and the demo's inputs. */
const EXTRA_FOLDERS: Readonly<Record<string, readonly string[]>> = { '@conclave/cli': ['bin', 'demo'] };
const ROOT_FILES = ['LICENSE', 'README.md', 'package.json'];

/** Why a packed path should not be published, or undefined when it should. */
function unwanted(name: string, path: string): string | undefined {
  if (path.endsWith('.tsbuildinfo')) return 'the build cache';
  if (/(^|\/)test-support\//.test(path)) return 'test helpers';
  if (/(^|\/)test-fixtures\//.test(path)) return 'test fixtures';
  // The demo's sample project carries its own test suite: it is the demo task's gate.
  if (/\.test\.[cm]?[jt]s$|\.test\.d\.ts$/.test(path) && !path.startsWith('demo/')) return 'a test file';
  const top = path.split('/')[0] ?? '';
  if (!path.includes('/')) return ROOT_FILES.includes(path) ? undefined : 'a stray file at the package root';
  return ['dist', 'src', ...(EXTRA_FOLDERS[name] ?? [])].includes(top) ? undefined : `a folder (${top}/) users do not need`;
}

/** Every file an export condition or a bin entry points at. */
function entryFiles(manifest: Manifest): string[] {
  const targets = Object.values(manifest.exports ?? {}).flatMap((target) =>
    typeof target === 'string' ? [target] : Object.values(target),
  );
  return [...targets, ...Object.values(manifest.bin ?? {})].map((target) => posix.normalize(target));
}

/** The path (relative to the package) of every source a packed source map names that is not itself in the tarball. */
async function unresolvedMapSources(dir: string, files: readonly string[]): Promise<string[]> {
  const shipped = new Set(files);
  const missing: string[] = [];
  for (const map of files.filter((file) => file.endsWith('.map'))) {
    const { sources } = JSON.parse(await readFile(join(repoRoot, dir, map), 'utf8')) as { sources: string[] };
    for (const source of sources) {
      const path = posix.normalize(posix.join(posix.dirname(map), source));
      if (!shipped.has(path)) missing.push(`${map} -> ${path}`);
    }
  }
  return missing;
}

describe.each(dryRun.map((pkg) => [pkg.name, pkg] as const))('%s: npm pack --dry-run', (name, pkg) => {
  const manifest = manifests.get(name) as Manifest;

  it('lists only what a user needs, with the README, the LICENSE and the build', () => {
    expect(
      pkg.files.flatMap((path) => {
        const why = unwanted(name, path);
        return why === undefined ? [] : [`${path}: ${why}`];
      }),
    ).toEqual([]);
    expect(pkg.files).toEqual(expect.arrayContaining([...ROOT_FILES, 'dist/index.js', 'dist/index.d.ts']));
  });

  it('holds every file its exports and bin point at', () => {
    expect(entryFiles(manifest).filter((file) => !pkg.files.includes(file))).toEqual([]);
  });

  it('ships a source map and a declaration map with every built file, and the sources they name', async () => {
    const built = pkg.files.filter((file) => file.startsWith('dist/') && /\.(js|d\.ts)$/.test(file));
    expect(built.filter((file) => !pkg.files.includes(`${file}.map`))).toEqual([]);
    expect(await unresolvedMapSources(pkg.dir, pkg.files)).toEqual([]);
  });

  it('is what the real tarball holds', () => {
    expect(packed.find((tarball) => tarball.name === name)?.files).toEqual(pkg.files);
  });
});

/** A root dev dependency's command-line entry, run with node. */
function binOf(pkg: string, bin: string): string {
  const folder = join(repoRoot, 'node_modules', pkg);
  if (!existsSync(join(folder, 'package.json'))) throw new Error(`the tarball checks need ${pkg}: run npm ci at the repository root`);
  const bins = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
  return join(folder, bins[bin] as string);
}
const denyNetwork = fileURLToPath(new URL('deny-network.js', import.meta.url));
/** Runs a check's command line under the network guard. */
const offline = (bin: string, args: readonly string[]) =>
  runCommand(process.execPath, ['--import', denyNetwork, bin, ...args], { cwd: repoRoot });

describe('the offline guard', () => {
  it('fails a process that tries the network', async () => {
    const run = await offline('--input-type=module', ['-e', "await fetch('http://127.0.0.1:9/')"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('deny-network');
  });
});

describe.concurrent.each(packed.map((pkg) => [pkg.name, pkg] as const))('%s: the packed tarball', (_name, pkg) => {
  it('passes publint --strict', async () => {
    const run = await offline(binOf('publint', 'publint'), ['run', '--strict', pkg.tarball]);
    expect(`${run.stdout}${run.stderr}`).toContain('All good!');
    expect(run.code).toBe(0);
  });

  it('passes @arethetypeswrong/cli --profile esm-only', async () => {
    const run = await offline(binOf('@arethetypeswrong/cli', 'attw'), [pkg.tarball, '--profile', 'esm-only', '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    expect((JSON.parse(run.stdout) as { analysis: { types: { kind: string } } }).analysis.types.kind).toBe('included');
  });
});

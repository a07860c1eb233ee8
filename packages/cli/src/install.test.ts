import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, repoRoot, tempDir } from './test-support/run-main.js';

const exec = promisify(execFile);

/**
 * `npm i -g @conclave/cli`, honestly: the packages are built, packed with `npm pack` (only what
 * their "files" ship) and installed globally into a temp prefix; the installed `conclave` then
 * runs from an empty folder, far from this repository, with no provider key. Third-party
 * dependencies come from npm's cache or the registry (--prefer-offline); the @conclave packages
 * are not on the registry, so each must resolve to a packed tarball or the install fails.
 */

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Readonly<Record<string, string>>;
}

/** The workspace folders @conclave/cli depends on, itself included, following dependencies transitively. */
async function cliWorkspaces(): Promise<string[]> {
  const dirs = await readdir(join(repoRoot, 'packages'));
  const manifests = new Map<string, { dir: string; manifest: Manifest }>();
  for (const dir of dirs) {
    const file = join(repoRoot, 'packages', dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(await readFile(file, 'utf8')) as Manifest;
      manifests.set(manifest.name, { dir: `packages/${dir}`, manifest });
    }
  }
  const needed = new Set<string>();
  const visit = (name: string): void => {
    const entry = manifests.get(name);
    if (entry === undefined || needed.has(entry.dir)) return;
    needed.add(entry.dir);
    for (const dependency of Object.keys(entry.manifest.dependencies ?? {})) visit(dependency);
  };
  visit('@conclave/cli');
  return [...needed].sort();
}

/** This process's environment without what an enclosing `npm run` adds (its prefix, its command), keeping the cache and registry settings. */
function npmEnv(): NodeJS.ProcessEnv {
  const keep = /^npm_config_(cache|userconfig|globalconfig|cafile|registry|proxy|https_proxy|noproxy|strict_ssl)$/i;
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || keep.test(key)));
}

/** Runs a command to the end; a missing program fails with one line saying what to install. */
async function run(file: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(file, [...args], { ...options, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number | string; stdout?: string; stderr?: string };
    if (failed.code === 'ENOENT') throw new Error(`install.test.ts needs ${file} on PATH: install Node.js with npm, and git`);
    return { code: Number(failed.code), stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const { version } = JSON.parse(await readFile(join(repoRoot, 'packages/cli/package.json'), 'utf8')) as Manifest;

let prefix = '';
let conclave = '';
/** A user's environment: no provider key, a fresh HOME, and PATH for node and git. */
let userEnv: NodeJS.ProcessEnv = {};
const timings: string[] = [];

beforeAll(async () => {
  const started = Date.now();
  const lap = (what: string) => timings.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)}s`);
  const tmp = await tempDir('conclave-install-');
  prefix = join(tmp, 'prefix');
  conclave = join(prefix, 'bin', 'conclave');
  userEnv = { PATH: process.env.PATH, HOME: join(tmp, 'home'), USER: 'tester', CI: 'true' };
  await mkdir(join(tmp, 'home'));
  await run('git', ['--version'], { cwd: tmp, env: process.env });

  // The build the published package ships (dist/); incremental, so cheap when tests built it already.
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  const build = await run(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: repoRoot, env: process.env });
  if (build.code !== 0) throw new Error(`the build failed (tsc -b tsconfig.build.json):\n${build.stdout}${build.stderr}`);
  lap('build');

  const tarballs = join(tmp, 'tarballs');
  await mkdir(tarballs);
  const workspaces = await cliWorkspaces();
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tarballs, ...workspaces.flatMap((dir) => ['--workspace', dir])], { cwd: repoRoot, env: npmEnv() });
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const packed = (JSON.parse(pack.stdout) as { filename: string }[]).map((entry) => join(tarballs, entry.filename));
  expect(packed).toHaveLength(workspaces.length);
  lap(`npm pack (${workspaces.length} packages)`);

  const install = await run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error', ...packed], { cwd: tmp, env: npmEnv() });
  if (install.code !== 0) throw new Error(`npm install -g of the packed tarballs failed:\n${install.stderr}`);
  lap('npm install -g');
}, 240_000);

afterAll(async () => {
  console.log(`install.test.ts: ${timings.join(', ')}`);
  await removeTempDirs();
});

describe('npm i -g @conclave/cli (packed tarballs, a temp prefix)', () => {
  it('installs the conclave command with the demo\'s files and without tests', async () => {
    expect(existsSync(conclave)).toBe(true);
    const installed = join(prefix, 'lib/node_modules/@conclave/cli');
    expect((await readdir(join(installed, 'demo'))).sort()).toEqual(['boards', 'briefs', 'tasks']);
    const files = (await readdir(installed, { recursive: true })).filter((file) => !file.startsWith('node_modules'));
    // The sample project's own test (demo/tasks/sample-project/test) is the demo's gate, not ours.
    expect(files.filter((file) => /\.test\.[jt]s$/.test(file) && !file.startsWith('demo/'))).toEqual([]);
    expect(files.some((file) => file.startsWith('src/test-support'))).toBe(false);
  });

  it('prints its version, and help that exits 0 and names no file of this repository', async () => {
    const cwd = await tempDir('conclave-user-');
    const versionRun = await run(conclave, ['--version'], { cwd, env: userEnv });
    expect(versionRun).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await run(conclave, ['help'], { cwd, env: userEnv });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: conclave [options] [command]');
    expect(help.stdout).toContain('Exit codes:');
    const debate = await run(conclave, ['help', 'debate'], { cwd, env: userEnv });
    expect(debate.code).toBe(0);
    expect(debate.stdout).toContain('Usage: conclave debate [options] <board>');
    expect(debate.stdout).toContain('Model options:');
    for (const text of [help.stdout, debate.stdout]) expect(text).not.toMatch(/examples\/|docs\//);
  }, 60_000);

  it('runs `conclave demo` offline from an empty folder, with no key, and writes the report where --out says', async () => {
    const cwd = await tempDir('conclave-user-');
    const out = join(await tempDir('conclave-user-out-'), 'r.html');
    const demo = await run(conclave, ['demo', '--out', out], { cwd, env: userEnv });
    expect(demo.stderr).not.toMatch(/\n\s+at /);
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain('OFFLINE');
    expect(demo.stdout).toContain('Emission gate (T3): the record is sound, but the verdict is PIVOT: not a GO: do not act');
    expect(demo.stdout).toContain('outcome: completed');
    expect(demo.stdout).toContain(`report: ${out}`);
    expect(demo.stdout).not.toContain('\x1b['); // a pipe, not a terminal: no colour
    expect(await readFile(out, 'utf8')).toMatch(/^<!doctype html>/i);
    expect(await readdir(cwd)).toEqual([]);
  }, 120_000);
});

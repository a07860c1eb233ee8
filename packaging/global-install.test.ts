import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { npmEnv, runCommand as run } from './run-command.js';
import { dependencyClosure, readWorkspaces, repoRoot, type Manifest } from './workspaces.js';

/**
 * `npm i -g @conclave/cli`, honestly: the packages the global setup built and packed (only what
 * their "files" ship) are installed globally into a temp prefix; the installed `conclave` then
 * runs from an empty folder, far from this repository, with no provider key. Third-party
 * dependencies come from npm's cache or the registry (--prefer-offline); the @conclave packages
 * are not on the registry, so each must resolve to a packed tarball or the install fails.
 */

const workRoot = inject('workRoot');
/** A fresh folder inside the packaging project's temp folder (removed after the run). */
const tempDir = (prefix: string) => mkdtemp(join(workRoot, prefix));

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

  const cli = dependencyClosure(await readWorkspaces(), '@conclave/cli').map((workspace) => workspace.manifest.name);
  const packed = inject('packed').filter((pkg) => cli.includes(pkg.name)).map((pkg) => pkg.tarball);
  expect(packed).toHaveLength(cli.length);

  const install = await run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error', ...packed], { cwd: tmp, env: npmEnv() });
  if (install.code !== 0) throw new Error(`npm install -g of the packed tarballs failed:\n${install.stderr}`);
  lap('npm install -g');
}, 240_000);

afterAll(() => {
  console.log(`global-install.test.ts: ${timings.join(', ')}`);
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

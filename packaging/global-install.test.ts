import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
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

/** A user's environment: no provider key, a fresh HOME, and PATH for node and git. */
const userEnv = async (): Promise<NodeJS.ProcessEnv> => ({
  PATH: process.env.PATH,
  HOME: await tempDir('conclave-home-'),
  USER: 'tester',
  CI: 'true',
});
const timings: string[] = [];

/** `npm i -g` of the cli's packed closure into a fresh prefix; the installed package's folder and its `conclave`. */
async function installGlobally(options: {
  readonly omitOptional: boolean;
}): Promise<{ readonly installed: string; readonly conclave: string }> {
  const started = Date.now();
  const prefix = join(await tempDir('conclave-prefix-'), 'prefix');
  const cli = dependencyClosure(await readWorkspaces(), '@conclave/cli', options).map((workspace) => workspace.manifest.name);
  const packed = inject('packed')
    .filter((pkg) => cli.includes(pkg.name))
    .map((pkg) => pkg.tarball);
  expect(packed).toHaveLength(cli.length);
  const omit = options.omitOptional ? ['--omit=optional'] : [];
  const install = await run(
    'npm',
    ['install', '--global', '--prefix', prefix, ...omit, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error', ...packed],
    { cwd: workRoot, env: npmEnv() },
  );
  if (install.code !== 0) throw new Error(`npm install -g ${omit.join(' ')} of the packed tarballs failed:\n${install.stderr}`);
  timings.push(`npm install -g ${omit.join(' ')} ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return { installed: join(prefix, 'lib/node_modules/@conclave/cli'), conclave: join(prefix, 'bin', 'conclave') };
}

let installed = '';
let conclave = '';
/** The same install with `--omit=optional`: no provider SDK. */
let lean = { installed: '', conclave: '' };
beforeAll(async () => {
  await run('git', ['--version'], { cwd: workRoot });
  // Two prefixes, so the two installs run side by side.
  [{ installed, conclave }, lean] = await Promise.all([installGlobally({ omitOptional: false }), installGlobally({ omitOptional: true })]);
}, 240_000);

afterAll(() => {
  console.log(`global-install.test.ts: ${timings.join(', ')}`);
});

describe('npm i -g @conclave/cli (packed tarballs, a temp prefix)', () => {
  it("installs the conclave command with the demo's files and without tests", async () => {
    expect(existsSync(conclave)).toBe(true);
    expect((await readdir(join(installed, 'demo'))).sort()).toEqual(['boards', 'briefs', 'tasks']);
    const files = (await readdir(installed, { recursive: true })).filter((file) => !file.startsWith('node_modules'));
    // The sample project's own test (demo/tasks/sample-project/test) is the demo's gate, not ours.
    expect(files.filter((file) => /\.test\.[jt]s$/.test(file) && !file.startsWith('demo/'))).toEqual([]);
    expect(files.some((file) => file.startsWith('src/test-support'))).toBe(false);
  });

  it('prints its version, and help that exits 0 and names no file of this repository', async () => {
    const cwd = await tempDir('conclave-user-');
    const env = await userEnv();
    const versionRun = await run(conclave, ['--version'], { cwd, env });
    expect(versionRun).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await run(conclave, ['help'], { cwd, env });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: conclave [options] [command]');
    expect(help.stdout).toContain('Exit codes:');
    const debate = await run(conclave, ['help', 'debate'], { cwd, env });
    expect(debate.code).toBe(0);
    expect(debate.stdout).toContain('Usage: conclave debate [options] <board>');
    expect(debate.stdout).toContain('Model options:');
    for (const text of [help.stdout, debate.stdout]) expect(text).not.toMatch(/examples\/|docs\//);
  }, 60_000);

  it('runs `conclave demo` offline from an empty folder, with no key, and writes the report where --out says', async () => {
    const cwd = await tempDir('conclave-user-');
    const out = join(await tempDir('conclave-user-out-'), 'r.html');
    const env = await userEnv();
    const demo = await run(conclave, ['demo', '--out', out], { cwd, env });
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

describe('npm i -g --omit=optional @conclave/cli: offline only, without the provider SDKs (ADR 0029)', () => {
  it('installs neither @conclave/providers nor a provider SDK', () => {
    const modules = join(lean.installed, 'node_modules');
    for (const left of ['@conclave/providers', '@conclave/anthropic', '@conclave/openai', '@anthropic-ai/sdk', 'openai'])
      expect(existsSync(join(modules, left)), left).toBe(false);
  });

  it('runs a debate offline, and refuses a real model with exit 2, one line and the fix', async () => {
    const cwd = await tempDir('conclave-user-');
    const env = await userEnv();
    const board = join(installed, 'demo/boards/product-launch.yaml');
    const offline = await run(lean.conclave, ['debate', board, '-q', 'Tasca Pay'], { cwd, env });
    expect(offline.stderr).not.toMatch(/\n\s+at /);
    expect(offline.stdout).toContain('OFFLINE');
    expect(offline.stdout).toMatch(/Emission gate \(T\d\): /);
    const live = await run(lean.conclave, ['debate', board, '-q', 'Tasca Pay', '--provider', 'anthropic'], {
      cwd,
      env: { ...env, ANTHROPIC_API_KEY: 'not-a-real-key' },
    });
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('this install of conclave has no model providers');
    expect(live.stderr).toContain('reinstall without --omit=optional');
    expect(live.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

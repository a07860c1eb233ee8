import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RegexGate } from './gate-definition.js';
import type { GateRunContext } from './gate-run-context.js';
import { MAX_REGEX_FILE_BYTES, runRegexGate } from './regex-gate.js';
import { FAKE_SECRETS } from '../test-support/fake-secrets.js';

let base: string;
let workspace: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'taskloop-regex-gate-')));
  workspace = join(base, 'repo');
  await mkdir(join(workspace, 'src', 'deep'), { recursive: true });
  await writeFile(join(workspace, 'src', 'a.ts'), 'export const a = 1;\n');
  await writeFile(join(workspace, 'src', 'deep', 'b.ts'), 'line one\nline two\n  // TODO: finish\n');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const context = (overrides: Partial<GateRunContext> = {}): GateRunContext => ({
  workspace,
  level: 'balanced',
  taskId: 'T1',
  policy: undefined,
  env: {},
  secretValues: [],
  defaultTimeoutMs: 1000,
  maxOutputBytes: 1000,
  ...overrides,
});
const gate = (pattern: string, mode: RegexGate['mode'], files: string[] = ['src/**/*.ts'], flags?: string): RegexGate => ({
  type: 'regex',
  name: 'grep',
  files,
  pattern,
  mode,
  ...(flags === undefined ? {} : { flags }),
});

describe('runRegexGate', () => {
  it('must_not_match fails on a match and names file and line', async () => {
    const evidence = await runRegexGate(gate('TODO', 'must_not_match'), context());
    expect(evidence).toMatchObject({
      name: 'grep',
      type: 'regex',
      pattern: 'TODO',
      passed: false,
      reason: 'src/deep/b.ts:3 matches /TODO/',
      stdout: 'src/deep/b.ts:3: // TODO: finish',
    });
  });

  it('must_not_match passes when nothing matches', async () => {
    expect(await runRegexGate(gate('FIXME', 'must_not_match'), context())).toMatchObject({
      passed: true,
      reason: 'none of 2 file(s) matches /FIXME/',
    });
  });

  it('must_match passes on a match and fails without one', async () => {
    expect(await runRegexGate(gate('export const \\w+', 'must_match'), context())).toMatchObject({
      passed: true,
      reason: 'src/a.ts:1 matches /export const \\w+/',
    });
    expect(await runRegexGate(gate('export default', 'must_match'), context())).toMatchObject({
      passed: false,
      reason: 'none of 2 file(s) matches /export default/',
    });
  });

  it('honours flags', async () => {
    expect((await runRegexGate(gate('todo', 'must_not_match', undefined, 'i'), context())).passed).toBe(false);
    expect((await runRegexGate(gate('^line two$', 'must_match', undefined, 'm'), context())).reason).toBe(
      'src/deep/b.ts:2 matches /^line two$/m',
    );
  });

  it('counts every matching file', async () => {
    await writeFile(join(workspace, 'src', 'c.ts'), '\n\nTODO\n');
    expect((await runRegexGate(gate('TODO', 'must_not_match'), context())).reason).toBe('src/c.ts:3 matches /TODO/ and 1 more file(s)');
  });

  it('fails with a clear reason for an invalid regular expression', async () => {
    const evidence = await runRegexGate(gate('(unclosed', 'must_not_match'), context());
    expect(evidence.passed).toBe(false);
    expect(evidence.reason).toMatch(/^invalid regular expression \/\(unclosed\/: .*Unterminated group/);
  });

  it('says so when no file is selected', async () => {
    expect(await runRegexGate(gate('x', 'must_match', ['lib/**/*.ts']), context())).toMatchObject({
      passed: false,
      reason: 'no file selected by lib/**/*.ts, so nothing matches /x/',
    });
    expect(await runRegexGate(gate('x', 'must_not_match', ['lib/**/*.ts']), context())).toMatchObject({ passed: true });
  });

  it('refuses globs that leave the workspace', async () => {
    for (const files of [['../**/*.ts'], ['/etc/*'], ['!../x']]) {
      const evidence = await runRegexGate(gate('x', 'must_not_match', files), context());
      expect(evidence.passed, files[0]).toBe(false);
      expect(evidence.reason).toMatch(/may leave the workspace/);
    }
  });

  it('skips dot files, node_modules and symbolic links', async () => {
    await writeFile(join(base, 'outside.ts'), 'TODO outside\n');
    await symlink(join(base, 'outside.ts'), join(workspace, 'src', 'link.ts'));
    await symlink(base, join(workspace, 'src', 'linkdir'));
    await writeFile(join(workspace, 'src', '.hidden.ts'), 'TODO hidden\n');
    await mkdir(join(workspace, 'node_modules', 'x'), { recursive: true });
    await writeFile(join(workspace, 'node_modules', 'x', 'i.ts'), 'TODO dep\n');
    const evidence = await runRegexGate(gate('TODO .+', 'must_not_match', ['**/*.ts']), context());
    expect(evidence).toMatchObject({ passed: true, reason: 'none of 2 file(s) matches /TODO .+/' });
  });

  it('reads at most the cap of a big file and says so', async () => {
    await writeFile(join(workspace, 'src', 'big.ts'), `${'x'.repeat(MAX_REGEX_FILE_BYTES)}\nTODO beyond the cap\n`);
    const evidence = await runRegexGate(gate('TODO beyond', 'must_not_match'), context());
    expect(evidence.passed).toBe(true);
    expect(evidence.reason).toContain('read only the first 5 MB of src/big.ts');
  });

  it('redacts secrets in what it reports', async () => {
    await writeFile(join(workspace, 'src', 'env.ts'), `const key = "${FAKE_SECRETS.githubToken}";\n`);
    const evidence = await runRegexGate(gate('ghp_\\w+', 'must_not_match'), context());
    expect(evidence.stdout).toBe('src/env.ts:1: const key = "[REDACTED:github]";');
  });

  it('a catastrophic pattern fails as timed out at the gate timeout while the event loop keeps running', { timeout: 30_000 }, async () => {
    await writeFile(join(workspace, 'src', 'slow.ts'), `${'a'.repeat(34)}!\n`);
    await writeFile(join(workspace, 'src', 'a.ts'), 'TODO first\n');
    let timerFired = false;
    setTimeout(() => {
      timerFired = true;
    }, 20);
    // 2 s leaves a loaded machine time to start the worker and read the first files.
    const evidence = await runRegexGate(gate('(a+)+$|TODO', 'must_not_match'), context({ defaultTimeoutMs: 2000 }));
    // The timer ran while the pattern was stuck: the loop's own task timer could have fired too.
    expect(timerFired).toBe(true);
    expect(evidence.passed).toBe(false);
    expect(evidence.reason).toBe('timed out after 2000 ms while matching /(a+)+$|TODO/ in src/slow.ts, 2 of 3 file(s) searched');
    // What was found before the deadline is kept as evidence.
    expect(evidence.stdout).toBe('src/a.ts:1: TODO first\nsrc/deep/b.ts:3: // TODO: finish');
  });

  it('an abort during a match fails the gate as aborted', { timeout: 30_000 }, async () => {
    await writeFile(join(workspace, 'src', 'slow.ts'), `${'a'.repeat(34)}!\n`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const evidence = await runRegexGate(gate('(a+)+$', 'must_not_match'), context({ defaultTimeoutMs: 60_000, signal: controller.signal }));
    // Usually mid-match; on a loaded machine the abort may come while the files are still read.
    expect(evidence).toMatchObject({
      passed: false,
      reason: expect.stringMatching(/^aborted while (matching \/\(a\+\)\+\$\/ in src\/slow\.ts|reading |listing )/) as unknown,
    });
  });
});

import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandPolicy } from '../security/command-policy-config.js';
import type { ShellGate } from './gate-definition.js';
import type { GateRunContext } from './gate-run-context.js';
import { runShellGate } from './shell-gate.js';
import { FAKE_SECRETS } from '../test-support/fake-secrets.js';

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'taskloop-shell-gate-')));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const context = (overrides: Partial<GateRunContext> = {}): GateRunContext => ({
  workspace,
  level: 'balanced',
  taskId: 'T1',
  policy: { allow: ['node'] },
  // node is found through this PATH only: the gate sees nothing else of the parent's environment.
  env: { PATH: dirname(process.execPath), GATE_SECRET: 'hunter2-very-secret' },
  secretValues: ['hunter2-very-secret'],
  defaultTimeoutMs: 20_000,
  maxOutputBytes: 64 * 1024,
  ...overrides,
});
const gate = (run: string, extra: Partial<ShellGate> = {}): ShellGate => ({ type: 'shell', name: 'check', run, ...extra });
const script = (name: string, source: string): Promise<void> => writeFile(join(workspace, name), source);

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i += 1) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (/^\d+ \(.*\) Z/.test(stat)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('runShellGate', () => {
  it('passes on exit code 0, in the workspace', async () => {
    await script('pass.js', 'console.log(process.cwd())');
    const evidence = await runShellGate(gate('node pass.js'), context());
    expect(evidence).toMatchObject({
      name: 'check',
      type: 'shell',
      command: 'node pass.js',
      passed: true,
      exitCode: 0,
      reason: 'exit code 0',
      stdout: `${workspace}\n`,
      stderr: '',
      truncated: false,
    });
  });

  it('fails on a non-zero exit code and keeps the output as evidence', async () => {
    await script('fail.js', 'console.error("2 tests failed"); process.exit(2)');
    const evidence = await runShellGate(gate('node fail.js'), context());
    expect(evidence).toMatchObject({ passed: false, exitCode: 2, reason: 'exit code 2', stderr: '2 tests failed\n' });
  });

  it('redacts secrets from the output', async () => {
    await script('leak.js', `console.log("value=" + process.env.GATE_SECRET + " token=${FAKE_SECRETS.githubToken}")`);
    const evidence = await runShellGate(gate('node leak.js'), context());
    expect(evidence.stdout).toBe('value=[REDACTED:secret] token=[REDACTED:github]\n');
  });

  it.each<[string, string, CommandPolicy | undefined]>([
    ['not allowed', 'node marker.js', { allow: ['npm test'] }],
    ['no policy', 'node marker.js', undefined],
    ['denied', 'node marker.js', { allow: ['node'], deny: ['node marker.js'] }],
    ['operator', 'node marker.js && node marker.js', { allow: ['node'] }],
    ['assignment', 'X=1 node marker.js', { allowUnlisted: true }],
  ])('a refused command (%s) fails the gate and never runs', async (_case, run, policy) => {
    await script('marker.js', `require('node:fs').writeFileSync(${JSON.stringify(join(workspace, 'ran.txt'))}, 'ran')`);
    const evidence = await runShellGate(gate(run), context({ policy }));
    expect(evidence.passed).toBe(false);
    expect(evidence.reason).toMatch(/^refused by the command policy: .+; fix: .+/);
    expect(evidence.exitCode).toBeUndefined();
    await expect(readFile(join(workspace, 'ran.txt'))).rejects.toThrow();
  });

  it('the marker script does run when allowed (the refusal test above is meaningful)', async () => {
    await script('marker.js', `require('node:fs').writeFileSync(${JSON.stringify(join(workspace, 'ran.txt'))}, 'ran')`);
    expect((await runShellGate(gate('node marker.js'), context())).passed).toBe(true);
    expect(await readFile(join(workspace, 'ran.txt'), 'utf8')).toBe('ran');
  });

  it('times out and kills the whole process tree', async () => {
    await script(
      'tree.js',
      `const { spawn } = require('node:child_process');
       const g = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 100000)'], { stdio: 'ignore' });
       console.log(g.pid);
       setTimeout(() => {}, 100000);`,
    );
    const evidence = await runShellGate(gate('node tree.js', { timeoutMs: 1_000 }), context());
    expect(evidence).toMatchObject({ passed: false, reason: 'timed out after 1000 ms (process tree killed)' });
    expect(evidence.durationMs).toBeLessThan(10_000);
    expect(await gone(Number(evidence.stdout?.trim()))).toBe(true);
  });

  it('falls back to the default timeout', async () => {
    await script('hang.js', 'setTimeout(() => {}, 100000)');
    expect((await runShellGate(gate('node hang.js'), context({ defaultTimeoutMs: 300 }))).reason).toBe(
      'timed out after 300 ms (process tree killed)',
    );
  });

  it('fails with a clear reason when the program is missing', async () => {
    const evidence = await runShellGate(gate('no-such-tool-9a7 --check'), context({ policy: { allowUnlisted: true } }));
    expect(evidence).toMatchObject({ passed: false, reason: 'could not run: command not found: no-such-tool-9a7' });
  });

  it('fails as aborted when the signal fires', async () => {
    await script('hang.js', 'setTimeout(() => {}, 100000)');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const evidence = await runShellGate(gate('node hang.js'), context({ signal: controller.signal }));
    expect(evidence).toMatchObject({ passed: false, reason: 'aborted (process tree killed)' });
  });

  it('marks truncated output', async () => {
    await script('flood.js', 'process.stdout.write("x".repeat(100000))');
    const evidence = await runShellGate(gate('node flood.js'), context({ maxOutputBytes: 100 }));
    expect(evidence.truncated).toBe(true);
    expect(evidence.stdout).toContain('[truncated 99900 bytes]');
  });
});

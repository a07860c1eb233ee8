import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROCESS_TOKEN_VAR } from './process-token.js';
import { runProcess, type ProcessSpec } from './run-process.js';

const node = process.execPath;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'taskloop-process-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const spec = (script: string, overrides: Partial<ProcessSpec> = {}): ProcessSpec => ({
  file: node,
  args: ['-e', script],
  cwd: dir,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  timeoutMs: 20_000,
  maxOutputBytes: 64 * 1024,
  ...overrides,
});

/** Whether a pid is gone (a zombie awaiting its reaper counts as gone: it runs nothing). */
async function processGone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  const status = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return /^\d+ \(.*\) Z/.test(status);
}

async function waitUntil(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('runProcess', () => {
  it('reports exit codes and output', async () => {
    const ok = await runProcess(spec('process.stdout.write("out"); process.stderr.write("err")'));
    expect(ok).toMatchObject({
      exitCode: 0,
      signal: undefined,
      timedOut: false,
      aborted: false,
      stdout: 'out',
      stderr: 'err',
      stdoutTruncated: false,
    });
    expect(ok.spawnError).toBeUndefined();
    expect((await runProcess(spec('process.exit(3)'))).exitCode).toBe(3);
  });

  it('writes the input to stdin and closes it', async () => {
    const outcome = await runProcess(
      spec('let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => console.log(s.toUpperCase()))', {
        input: 'hello\nworld',
      }),
    );
    expect(outcome.stdout).toBe('HELLO\nWORLD\n');
  });

  it('gives an empty stdin when there is no input, so a prompt cannot hang', async () => {
    const outcome = await runProcess(
      spec('process.stdin.resume(); process.stdin.on("end", () => console.log("eof"))', { timeoutMs: 5_000 }),
    );
    expect(outcome).toMatchObject({ exitCode: 0, stdout: 'eof\n', timedOut: false });
  });

  it("runs in cwd with exactly the given environment, plus the tree's token", async () => {
    const env = { PATH: process.env.PATH ?? '/usr/bin', ONLY_THIS: 'yes' };
    const outcome = await runProcess(spec('console.log(JSON.stringify({ env: process.env, cwd: process.cwd() }))', { env }));
    const printed = JSON.parse(outcome.stdout) as { env: Record<string, string>; cwd: string };
    // Node itself may not add variables; what the child sees is what we passed, and the random
    // token that finds the tree's processes again (process-token.ts).
    expect(printed.env).toEqual({ ...env, [PROCESS_TOKEN_VAR]: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown });
    expect(printed.cwd).toBe(await import('node:fs/promises').then((fs) => fs.realpath(dir)));
  });

  it('on timeout kills the whole tree, grandchild included', async () => {
    // The child starts a grandchild that would sleep for 100 s, prints its pid and waits for it.
    const script = `
      const { spawn } = require('node:child_process');
      const g = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 100000)'], { stdio: 'ignore' });
      console.log(g.pid);
      setTimeout(() => {}, 100000);`;
    const outcome = await runProcess(spec(script, { timeoutMs: 1_000 }));
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exitCode).toBeUndefined();
    expect(outcome.signal).toBe('SIGTERM');
    expect(outcome.durationMs).toBeLessThan(10_000);
    const grandchild = Number(outcome.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await waitUntil(() => processGone(grandchild))).toBe(true);
  });

  it('kills a tree started through sh -c "sleep 100 & wait"', async () => {
    const outcome = await runProcess({ ...spec(''), file: 'sh', args: ['-c', 'sleep 100 & echo $!; wait'], timeoutMs: 800 });
    expect(outcome.timedOut).toBe(true);
    const sleeper = Number(outcome.stdout.trim());
    expect(sleeper).toBeGreaterThan(0);
    expect(await waitUntil(() => processGone(sleeper))).toBe(true);
  });

  it('escalates to SIGKILL when the tree ignores SIGTERM', async () => {
    const outcome = await runProcess(
      spec('process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)', { timeoutMs: 500 }),
    );
    expect(outcome.timedOut).toBe(true);
    expect(outcome.signal).toBe('SIGKILL');
  });

  it('kills the tree when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const outcome = await runProcess(spec('setTimeout(() => {}, 100000)', { signal: controller.signal }));
    expect(outcome).toMatchObject({ aborted: true, timedOut: false, exitCode: undefined });
    expect(outcome.durationMs).toBeLessThan(10_000);
  });

  it('does not start when the signal is already aborted', async () => {
    const marker = join(dir, 'ran');
    const outcome = await runProcess(
      spec(`require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`, { signal: AbortSignal.abort() }),
    );
    expect(outcome.aborted).toBe(true);
    await expect(readFile(marker)).rejects.toThrow();
  });

  it('truncates a flood of output with a visible marker, keeping head and tail', async () => {
    const script = 'process.stdout.write("START" + "x".repeat(1024 * 1024) + "END"); process.stderr.write("e".repeat(10))';
    const outcome = await runProcess(spec(script, { maxOutputBytes: 1000 }));
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdoutTruncated).toBe(true);
    expect(outcome.stderrTruncated).toBe(false);
    expect(outcome.stdout.startsWith('START')).toBe(true);
    expect(outcome.stdout.endsWith('END')).toBe(true);
    expect(outcome.stdout).toMatch(/\n… \[truncated 1047584 bytes\]\n/);
    expect(Buffer.byteLength(outcome.stdout)).toBeLessThan(1100);
    expect(outcome.stderr).toBe('eeeeeeeeee');
  });

  it('does not split a multi-byte character at a cut', async () => {
    const outcome = await runProcess(spec('process.stdout.write("é".repeat(5000))', { maxOutputBytes: 101 }));
    expect(outcome.stdoutTruncated).toBe(true);
    expect(outcome.stdout).not.toContain('\uFFFD');
  });

  it('describes a missing binary as a spawn error and never rejects', async () => {
    const outcome = await runProcess({ ...spec(''), file: 'definitely-not-a-command-4f1c', args: [] });
    expect(outcome).toMatchObject({
      exitCode: undefined,
      timedOut: false,
      aborted: false,
      spawnError: 'command not found: definitely-not-a-command-4f1c',
    });
  });

  it('finds commands through the PATH of the given environment only', async () => {
    const outcome = await runProcess({ ...spec(''), file: 'sh', args: ['-c', 'exit 0'], env: { PATH: dir } });
    expect(outcome.spawnError).toBe('command not found: sh');
  });

  it('describes a missing working directory and invalid arguments as values', async () => {
    expect((await runProcess(spec('', { cwd: join(dir, 'missing') }))).spawnError).toMatch(/working directory does not exist/);
    expect((await runProcess(spec('', { args: ['-e', 'a\0b'] }))).spawnError).toMatch(/could not start/);
  });

  it('kills what a finished child left running in its group', async () => {
    const script = `
      const { spawn } = require('node:child_process');
      const g = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 100000)'], { stdio: 'ignore' });
      g.unref();
      console.log(g.pid);`;
    const outcome = await runProcess(spec(script));
    expect(outcome.exitCode).toBe(0);
    const leftover = Number(outcome.stdout.trim());
    expect(await waitUntil(() => processGone(leftover))).toBe(true);
  });
});

describe('runProcess: processes that leave the process group', () => {
  // A child that calls setsid (Node's detached spawn does) leaves the group, so a group kill alone
  // would miss it; it carries the tree's token in its environment and is stopped with the tree.
  const escape = (pidFile: string, then: string) =>
    `const { spawn } = require('node:child_process'); const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' }); c.unref(); require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); ${then}`;

  it.each([
    ['at the timeout', 'setInterval(() => {}, 1000);', 300],
    ['when the leader exits on its own', 'setTimeout(() => process.exit(0), 100);', 20_000],
  ])(
    'stops a setsid child %s',
    async (_when, then, timeoutMs) => {
      const pidFile = join(dir, 'escaped.pid');
      await runProcess(spec(escape(pidFile, then), { timeoutMs }));
      const escaped = Number(await readFile(pidFile, 'utf8'));
      expect(escaped).toBeGreaterThan(1);
      expect(await waitUntil(() => processGone(escaped), 10_000)).toBe(true);
    },
    30_000,
  );
});

import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, type ExitCode } from './exit-codes.js';
import { interruptedOutcome, interruptExitCode, listenForStopSignals, StopRequested, stoppedBy, type StopSignal } from './interrupt.js';
import { binArgv } from './test-support/run-bin.js';
import { examples, offlineEnv, removeTempDirs, runMain, sampleRepo, tempDir } from './test-support/run-main.js';
import { isRunning, openTerminal, requireScript, shellQuote, type TerminalSession } from './test-support/terminal-session.js';

const noStack = /\n\s+at /;
const spinner = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const clear = '\r\x1b[2K';
/** The text without colour codes: a terminal's stdout gets coloured. */
const plain = (text: string): string => text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');

/** A model server on loopback that takes every request and never answers: a run stays in flight until stopped. */
class SilentModel {
  readonly #server: Server;
  #requests = 0;
  #heard: (() => void) | undefined;
  /** Resolves on the first request: the run is waiting on the model. */
  readonly heard = new Promise<void>((resolve) => (this.#heard = resolve));
  constructor() {
    this.#server = createServer((request) => {
      request.resume();
      this.#requests += 1;
      this.#heard?.();
    });
  }
  /** Starts listening on a free loopback port. */
  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this;
  }
  /** The `--model` reference that puts every member on this server. */
  get model(): string {
    return `openai-compatible:http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1#m`;
  }
  /** Requests taken so far. */
  get requests(): number {
    return this.#requests;
  }
  /** Drops every connection and stops listening. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** A builder that records its pid and never finishes; `stubborn` also ignores SIGINT and SIGTERM. */
async function hangingBuilder(dir: string, stubborn = false): Promise<{ command: string; pidFile: string }> {
  const script = join(dir, 'hanging-builder.mjs');
  const pidFile = join(dir, 'builder.pid');
  await writeFile(
    script,
    [
      "import { writeFileSync } from 'node:fs';",
      "if (process.argv[3] === 'stubborn') for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => undefined);",
      'writeFileSync(process.argv[2], String(process.pid));',
      'setInterval(() => undefined, 1e9);',
      '',
    ].join('\n'),
  );
  return { command: [process.execPath, script, pidFile, ...(stubborn ? ['stubborn'] : [])].map(shellQuote).join(' '), pidFile };
}

/** Whether `check` holds within `timeoutMs` (a killed process takes a moment to be gone). */
async function eventually(check: () => boolean, timeoutMs = 3_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** The builder's pid once it is running. */
async function builderPid(pidFile: string, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(pidFile)) {
      const text = await readFile(pidFile, 'utf8');
      if (text !== '') return Number(text);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the builder never started (no ${pidFile})`);
}

const sessions: TerminalSession[] = [];
let model: SilentModel;

/** The bin from source in a pseudo-terminal; the model's env has a dummy key, never a real one. */
function terminal(args: readonly string[], options: { cwd: string; stdoutFile?: string; env?: Record<string, string> }): TerminalSession {
  const session = openTerminal(binArgv(args), {
    cwd: options.cwd,
    env: offlineEnv({ OPENAI_API_KEY: 'sk-test', ...options.env }),
    ...(options.stdoutFile === undefined ? {} : { stdoutFile: options.stdoutFile }),
  });
  sessions.push(session);
  return session;
}

beforeAll(async () => {
  requireScript();
  model = await new SilentModel().listen();
});

afterAll(async () => {
  for (const session of sessions) session.close();
  await model?.close();
  await removeTempDirs();
});

describe('stop signals (in process)', () => {
  it('aborts on the first signal with its name, and exits at once on the second with its own code', () => {
    const source = new EventEmitter();
    const exits: [ExitCode, StopSignal][] = [];
    const stops = listenForStopSignals(source, (code, by) => exits.push([code, by]));
    expect(stoppedBy(stops.signal)).toBeUndefined();
    source.emit('SIGINT');
    expect(stops.signal.aborted).toBe(true);
    expect(stops.signal.reason).toBeInstanceOf(StopRequested);
    expect((stops.signal.reason as Error).name).toBe('AbortError');
    expect(stoppedBy(stops.signal)).toBe('SIGINT');
    expect(exits).toEqual([]);
    source.emit('SIGTERM');
    expect(exits).toEqual([[143, 'SIGTERM']]);
    stops.dispose();
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });

  it('names SIGTERM when it came first, and counts any other abort as SIGINT (fail closed)', () => {
    const source = new EventEmitter();
    const stops = listenForStopSignals(source, () => undefined);
    source.emit('SIGTERM');
    expect(stoppedBy(stops.signal)).toBe('SIGTERM');
    expect(stoppedBy(AbortSignal.abort())).toBe('SIGINT');
    expect(interruptExitCode('SIGINT')).toBe(EXIT.interrupted);
    expect(interruptExitCode('SIGTERM')).toBe(EXIT.terminated);
  });

  it('an interrupted outcome never keeps its own exit code, and its JSON says the real one', () => {
    const codes = Object.values(EXIT);
    fc.assert(
      fc.property(fc.constantFrom(...codes), fc.constantFrom<StopSignal>('SIGINT', 'SIGTERM'), (code, by) => {
        const outcome = interruptedOutcome({ exitCode: code, text: 'done', json: { command: 'x', exitCode: code } }, by, 'stopped');
        expect(outcome.exitCode).toBe(by === 'SIGINT' ? 130 : 143);
        expect(outcome.json).toEqual({ command: 'x', exitCode: outcome.exitCode, interrupted: by });
        expect(outcome.text).toBe(`done\n\nInterrupted (${by}): stopped`);
      }),
    );
    expect(interruptedOutcome({ exitCode: 0, text: 'done', json: {} }, undefined, 'stopped')).toEqual({
      exitCode: 0,
      text: 'done',
      json: {},
    });
  });

  it('main hands CliIo.signal to the debate engine: an aborted run is a recorded NO_GO that exits 130', async () => {
    const cwd = await tempDir();
    const { code, stdout, stderr } = await runMain(
      ['debate', join(examples, 'boards/product-launch.yaml'), '-q', 'ship it?', '--out', 'run.json', '--json'],
      { cwd, signal: AbortSignal.abort() },
    );
    expect(stderr).not.toMatch(noStack);
    expect(code).toBe(130);
    expect(JSON.parse(stdout)).toMatchObject({
      command: 'debate',
      exitCode: 130,
      verdict: 'NO_GO',
      status: 'stopped',
      interrupted: 'SIGINT',
    });
    expect(JSON.parse(await readFile(join(cwd, 'run.json'), 'utf8'))).toMatchObject({
      kind: 'debate',
      result: { status: 'stopped', verdict: 'NO_GO' },
    });
  });

  it('demo: a stop ends the demo after the part it stopped, starts no meeting or task loop, and still writes the report', async () => {
    const cwd = await tempDir();
    const { code, stdout, stderr } = await runMain(['demo', '--json'], { cwd, signal: AbortSignal.abort() });
    expect(stderr).not.toMatch(noStack);
    expect(code).toBe(130);
    expect(stderr).toContain('1/3 debate');
    expect(stderr).not.toContain('2/3 meeting');
    expect(stderr).not.toContain('3/3 task loop');
    expect(JSON.parse(stdout)).toMatchObject({
      command: 'demo',
      exitCode: 130,
      interrupted: 'SIGINT',
      debate: { verdict: 'NO_GO', status: 'stopped' },
      meeting: null,
      task: null,
    });
    const report = await readFile(join(cwd, 'demo-report.html'), 'utf8');
    expect(report).toContain('Council debate');
    expect(report).not.toContain('Guarded task loop');
  });
});

describe('Ctrl-C and SIGTERM on the real CLI, in a pseudo-terminal', () => {
  it('debate + Ctrl-C: the members stop, the record is written, one JSON document, exit 130, the status line cleared', async () => {
    const cwd = await tempDir();
    const session = terminal(
      ['debate', join(examples, 'boards/product-launch.yaml'), '-q', 'ship it?', '--model', model.model, '--out', 'run.json', '--json'],
      { cwd, stdoutFile: join(cwd, 'out.json') },
    );
    await model.heard;
    // CI is unset on a terminal: the live status line is drawn; stop while it shows.
    await session.waitFor(spinner);
    session.ctrlC();
    const { code } = await session.exited;
    const screen = session.output();
    expect(screen).not.toMatch(noStack);
    expect(screen).not.toContain('internal error');
    expect(code).toBe(130);
    expect(screen).toContain('SIGINT: stopping the run (press Ctrl-C again to exit at once)');
    const json = JSON.parse(await readFile(join(cwd, 'out.json'), 'utf8')) as Record<string, unknown>;
    expect(json).toMatchObject({
      command: 'debate',
      exitCode: 130,
      verdict: 'NO_GO',
      status: 'stopped',
      interrupted: 'SIGINT',
      out: join(cwd, 'run.json'),
    });
    const record = JSON.parse(await readFile(join(cwd, 'run.json'), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ kind: 'debate', result: { status: 'stopped', verdict: 'NO_GO', stopReason: { kind: 'aborted' } } });
    // The last spinner frame is followed by a clear: nothing is left spinning on the terminal.
    const lastFrame = Math.max(...[...screen.matchAll(new RegExp(spinner.source, 'g'))].map((m) => m.index ?? -1));
    expect(lastFrame).toBeGreaterThan(0);
    expect(screen.indexOf(clear, lastFrame)).toBeGreaterThan(lastFrame);
    expect(screen.slice(screen.lastIndexOf(clear) + clear.length)).not.toMatch(spinner);
  }, 60_000);

  it('debate + SIGTERM: exit 143, and the human text says the debate stopped with a NO_GO', async () => {
    const cwd = await tempDir();
    const before = model.requests;
    const session = terminal(['debate', join(examples, 'boards/product-launch.yaml'), '-q', 'ship it?', '--model', model.model], {
      cwd,
      env: { CI: 'true' },
    });
    await session.waitFor('phase 1');
    while (model.requests === before) await new Promise((resolve) => setTimeout(resolve, 50));
    session.kill('SIGTERM');
    const { code } = await session.exited;
    const screen = session.output();
    expect(screen).not.toMatch(noStack);
    expect(code).toBe(143);
    expect(screen).toContain('conclave: SIGTERM: stopping the run');
    expect(plain(screen)).toContain('Interrupted (SIGTERM): the debate stopped; verdict NO_GO');
  }, 60_000);

  it('meet + Ctrl-C: the meeting ends aborted with no decision, recorded, exit 130', async () => {
    const cwd = await tempDir();
    const before = model.requests;
    const session = terminal(
      ['meet', join(examples, 'briefs/data-platform.yaml'), '--model', model.model, '--out', 'meeting.json', '--json'],
      { cwd, stdoutFile: join(cwd, 'out.json') },
    );
    await session.waitFor('meeting:');
    while (model.requests === before) await new Promise((resolve) => setTimeout(resolve, 50));
    session.ctrlC();
    const { code } = await session.exited;
    expect(session.output()).not.toMatch(noStack);
    expect(code).toBe(130);
    const json = JSON.parse(await readFile(join(cwd, 'out.json'), 'utf8')) as Record<string, unknown>;
    expect(json).toMatchObject({
      command: 'meet',
      exitCode: 130,
      outcome: 'aborted',
      stopReason: { kind: 'aborted' },
      interrupted: 'SIGINT',
    });
    expect(json).not.toHaveProperty('decision');
    expect(JSON.parse(await readFile(join(cwd, 'meeting.json'), 'utf8'))).toMatchObject({
      kind: 'meeting',
      result: { outcome: 'aborted' },
    });
  }, 60_000);

  it('task run + Ctrl-C kills the builder and halts the run (exit 130); task resume + Ctrl-C does the same', async () => {
    const workspace = await sampleRepo();
    const cwd = await tempDir();
    const builder = await hangingBuilder(cwd);
    const spec = join(examples, 'tasks/add-farewell.md');
    const run = terminal(
      [
        'task',
        'run',
        spec,
        '--workspace',
        workspace,
        '--builder',
        builder.command,
        '--allow',
        'node --test',
        '--out',
        'task.json',
        '--json',
      ],
      { cwd, stdoutFile: join(cwd, 'run.json') },
    );
    const pid = await builderPid(builder.pidFile);
    run.ctrlC();
    const { code } = await run.exited;
    expect(run.output()).not.toMatch(noStack);
    expect(code).toBe(130);
    expect(await eventually(() => !isRunning(pid))).toBe(true);
    expect(JSON.parse(await readFile(join(cwd, 'run.json'), 'utf8'))).toMatchObject({
      command: 'task run',
      exitCode: 130,
      outcome: 'halted',
      stop: { kind: 'aborted' },
      interrupted: 'SIGINT',
    });
    expect(JSON.parse(await readFile(join(cwd, 'task.json'), 'utf8'))).toMatchObject({
      kind: 'task',
      result: { outcome: 'halted', reason: 'aborted' },
    });

    // The halted run resumes with the recorded builder, which hangs again: stop it the same way.
    await rm(builder.pidFile);
    const resume = terminal(['task', 'resume', '--json'], { cwd: workspace, stdoutFile: join(cwd, 'resume.json') });
    const resumed = await builderPid(builder.pidFile);
    resume.ctrlC();
    expect((await resume.exited).code).toBe(130);
    expect(await eventually(() => !isRunning(resumed))).toBe(true);
    expect(JSON.parse(await readFile(join(cwd, 'resume.json'), 'utf8'))).toMatchObject({
      command: 'task resume',
      exitCode: 130,
      outcome: 'halted',
      resumed: true,
      interrupted: 'SIGINT',
    });
  }, 60_000);

  it('a second Ctrl-C exits 130 at once, while the first still waits for a builder that ignores SIGTERM', async () => {
    const workspace = await sampleRepo();
    const cwd = await tempDir();
    const builder = await hangingBuilder(cwd, true);
    const session = terminal(
      [
        'task',
        'run',
        join(examples, 'tasks/add-farewell.md'),
        '--workspace',
        workspace,
        '--builder',
        builder.command,
        '--allow',
        'node --test',
        '--json',
      ],
      { cwd, stdoutFile: join(cwd, 'out.json') },
    );
    const pid = await builderPid(builder.pidFile);
    session.ctrlC();
    await session.waitFor('SIGINT: stopping the run');
    // The first stop now waits out the builder's grace period (SIGTERM ignored, SIGKILL after 2 s).
    expect(isRunning(pid)).toBe(true);
    session.ctrlC();
    const { code } = await session.exited;
    const screen = session.output();
    expect(screen).not.toMatch(noStack);
    expect(code).toBe(130);
    expect(screen).toContain('conclave: SIGINT again: exiting now');
    // It did not wait for the first stop to finish: that would have printed the JSON document.
    expect(await readFile(join(cwd, 'out.json'), 'utf8')).toBe('');
    // Exiting kills the builder's process group, so the stubborn builder does not outlive the CLI.
    expect(await eventually(() => !isRunning(pid))).toBe(true);
  }, 60_000);
});

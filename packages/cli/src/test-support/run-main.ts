import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { main } from '../main.js';

/** The repository root and its examples. */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const examples = join(repoRoot, 'examples');

/** An environment with no provider key, so every command runs offline. */
export function offlineEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  // Run keys (ADR 0025) go to a temp folder, never the tester's own state folder.
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    USER: 'tester',
    CONCLAVE_STATE_DIR: process.env.CONCLAVE_STATE_DIR ?? join(tmpdir(), 'conclave-test-state'),
    ...extra,
  };
}

export interface MainRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `main` in process with captured streams; `stdout` replaces the captured one (e.g. one that fails); `signal` stands for Ctrl-C. */
export async function runMain(
  argv: readonly string[],
  options: {
    cwd: string;
    env?: Record<string, string | undefined>;
    isTTY?: boolean;
    stdout?: (text: string) => void;
    signal?: AbortSignal;
  },
): Promise<MainRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: options.stdout ?? ((t) => void (stdout += t)),
    stderr: (t) => void (stderr += t),
    env: options.env ?? offlineEnv(),
    cwd: options.cwd,
    isTTY: options.isTTY ?? false,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { code, stdout, stderr };
}

const made: string[] = [];

/** A fresh temp folder, removed by `removeTempDirs` (each test file calls it in afterAll). */
export async function tempDir(prefix = 'conclave-cli-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made so far. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

const exec = promisify(execFile);

/** A fresh git repository holding the sample project (as examples/taskloop.ts makes one). */
export async function sampleRepo(): Promise<string> {
  const dir = await tempDir('conclave-cli-task-');
  await cp(join(examples, 'tasks/sample-project'), dir, { recursive: true });
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@localhost',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@localhost',
  };
  for (const argv of [
    ['init', '-q', '-b', 'main'],
    ['add', '-A'],
    ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'sample'],
  ])
    await exec('git', argv, { cwd: dir, env });
  return dir;
}

/** The offline agent as a --builder command. */
export const offlineAgent = `'${process.execPath}' '${join(examples, 'tasks/offline-agent.js')}'`;

/** A board whose facts are all high, so the offline members vote GO. */
export const goBoard = [
  'id: pricing',
  'question: "Should we {{question}}?"',
  'facts:',
  '  - { axis: revenue, value: 9, note: "Churn model predicts +12% ARR" }',
  '  - { axis: feasibility, value: 9, note: "A config change" }',
  '  - { axis: cx, value: 8, note: "Customers accept the price" }',
  '  - { axis: risk, value: 8, note: "Grandfathered plans" }',
  'phases:',
  '  - name: analysis',
  '    members:',
  '      - { id: cfo, persona: The CFO, model: "offline:analyst" }',
  '      - { id: pm, persona: The PM, model: "offline:analyst" }',
  '      - { id: cto, persona: The CTO, model: "offline:analyst" }',
  '  - name: challenge',
  '    contrarian: true',
  '    members: [{ id: skeptic, persona: Finds the flaw, model: "offline:contrarian" }]',
  '',
].join('\n');

import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { Builder } from '../builders/builder.js';
import { createCommandBuilder } from '../builders/command-builder.js';
import { parseTaskSpec, type TaskSpec } from '../spec/task-spec.js';
import type { CommandPolicy } from '../security/command-policy-config.js';

// The run keys (ADR 0025) of test runs go to a temp folder, not the user's state folder; child
// processes (the kill-and-resume test) inherit it. A test that sets its own keeps it.
process.env.CONCLAVE_STATE_DIR ??= join(tmpdir(), 'conclave-test-state');

/** The stand-in coding agent the loop tests run as a real child process. */
export const TASK_AGENT = join(dirname(fileURLToPath(import.meta.url)), '../loop/test-fixtures/task-agent.js');

/** A real git repository in a temporary folder, with the given files committed. */
export async function tempRepo(
  files: Readonly<Record<string, string>> = {},
): Promise<{ readonly dir: string; readonly git: (...args: string[]) => string; readonly cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'conclave-taskloop-'));
  const git = (...args: string[]): string =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
    });
  git('init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries({ 'README.md': '# sample\n', ...files })) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return { dir, git, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A spec for the loop tests: two tasks (one with a subtask), a regex gate and a shell gate. */
export function sampleSpec(
  overrides: { readonly level?: string; readonly maxRetries?: number; readonly extra?: string; readonly tasks?: string } = {},
): string {
  return `---
id: greet
title: Write the greeting files
level: ${overrides.level ?? 'balanced'}
acceptance: [every task has its done file saying ok]
budgets: { maxRetries: ${overrides.maxRetries ?? 2}, taskTimeoutMs: 60000, gateTimeoutMs: 30000 }
gates:
  - { type: regex, name: no-broken, files: ["done/*.txt"], pattern: BROKEN, mode: must_not_match }
  - { type: shell, name: check, run: node scripts/check.mjs }
${overrides.extra ?? ''}---
# Greeting files

## Tasks

${overrides.tasks ?? '- [ ] Write the first file {#first}\n- [ ] Write the second group {#second}\n  - [ ] Write the second file {#second-a}\n'}`;
}

/** The shell gate's script: every done file must say ok. */
export const CHECK_SCRIPT = `import { readdirSync, readFileSync, existsSync } from 'node:fs';
if (!existsSync('done')) { console.error('no done folder'); process.exit(1); }
for (const file of readdirSync('done')) {
  const text = readFileSync('done/' + file, 'utf8');
  if (!text.startsWith('ok')) { console.error(file + ' is not ok: ' + text.trim()); process.exit(1); }
}
console.log('all done files ok');
`;

/**
 * The loop tests' fixtures: a factory of temporary repositories holding the check script (each
 * removed after its test), the sample spec parser, the child-process agent and the command policy
 * that lets the check gate run.
 */
export function loopFixtures(): {
  readonly repo: () => ReturnType<typeof tempRepo>;
  readonly spec: (text: string) => TaskSpec;
  readonly agent: (mode: string) => Builder;
  readonly policy: CommandPolicy;
  /** Runs `cleanup` after the current test, with the repositories. */
  readonly onCleanup: (cleanup: () => Promise<void>) => void;
} {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return {
    repo: async () => {
      const made = await tempRepo({ 'scripts/check.mjs': CHECK_SCRIPT });
      cleanups.push(made.cleanup);
      return made;
    },
    spec: (text) => {
      const parsed = parseTaskSpec(text, 'greet.md');
      if (parsed.isErr()) throw new Error(JSON.stringify(parsed.error));
      return parsed.value;
    },
    agent: (mode) => createCommandBuilder({ command: `${process.execPath} ${TASK_AGENT} ${mode}`, promptVia: 'stdin' }),
    policy: { allow: ['node scripts/check.mjs'] },
    onCleanup: (cleanup) => cleanups.push(cleanup),
  };
}

import { readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  formatByteSize,
  MAX_INPUT_BYTES,
  MAX_INPUT_VALUES,
  MAX_LIST_ENTRIES,
  MAX_NESTING_DEPTH,
  MAX_STRING_LENGTH,
  MAX_YAML_ALIAS_EXPANSION,
} from '@conclave/core/data';
import { MAX_BOARD_MEMBERS, MAX_PHASE_MEMBERS, MAX_PHASES } from '@conclave/council';
import type { DebateEvent } from '@conclave/council';
import { afterAll, describe, expect, it } from 'vitest';
import { debateListener } from './commands/debate.js';
import { PROGRESS_DETAIL_LIMIT } from './phase-tally.js';
import { examples, removeTempDirs, repoRoot, runMain, tempDir } from './test-support/run-main.js';

const noStack = /\n\s+at /;

afterAll(removeTempDirs);

/** A board with one analysis phase of `size` offline members (persona as given) and a contrarian. */
const boardText = (size: number, persona = 'An analyst'): string =>
  [
    'id: big',
    'phases:',
    '  - name: analysis',
    '    members:',
    ...Array.from({ length: size }, (_, i) => `      - { id: m${i}, persona: "${persona}", model: "offline:analyst" }`),
    '  - name: challenge',
    '    contrarian: true',
    '    members: [{ id: skeptic, persona: Finds the flaw, model: "offline:contrarian" }]',
    '',
  ].join('\n');

/** Runs `conclave debate <file>` on `text` and checks the common shape of a refused input: exit 2, nothing on stdout, a fix, no stack. */
async function refused(file: string, text: string, argv: readonly string[] = ['debate', file, '-q', 'x']): Promise<string> {
  const cwd = await tempDir();
  await writeFile(join(cwd, file), text);
  const { code, stdout, stderr } = await runMain(argv, { cwd });
  expect(code).toBe(2);
  expect(stdout).toBe('');
  expect(stderr).toContain('fix: ');
  expect(stderr).not.toMatch(noStack);
  expect(stderr).not.toContain('internal error');
  return stderr;
}

const BOMB = [
  'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
  'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
  'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
];

describe('conclave with input past the limits', () => {
  it('refuses an alias-bomb board with exit 2, its file:line:column and a fix', async () => {
    const stderr = await refused('bomb.yaml', [...BOMB, boardText(3)].join('\n'));
    expect(stderr).toMatch(/bomb\.yaml:2:8 \(root\): YAML aliases here expand past the limit of 1,000/);
  }, 60_000);

  it('refuses an alias-bomb brief the same way', async () => {
    const brief = await readFile(join(examples, 'briefs/data-platform.yaml'), 'utf8');
    const stderr = await refused('bomb.yaml', `${brief}\n${BOMB.join('\n')}\n`, ['meet', 'bomb.yaml']);
    expect(stderr).toMatch(/bomb\.yaml:\d+:\d+ \(root\): YAML aliases here expand past the limit/);
  }, 60_000);

  it('refuses a board nested 100,000 deep with the depth limit, not a stack overflow', async () => {
    const stderr = await refused('deep.yaml', `${boardText(3)}title: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
    expect(stderr).toContain(`deep.yaml:${boardText(3).split('\n').length}:${7 + MAX_NESTING_DEPTH}`);
    expect(stderr).toContain(`too deeply nested (limit ${MAX_NESTING_DEPTH} levels of lists and maps)`);
    expect(stderr).not.toMatch(/call stack|YAML syntax/i);
  }, 60_000);

  it('refuses a board with a 50 MB persona by its size, before reading it', async () => {
    const stderr = await refused('huge.yaml', boardText(1, 'p'.repeat(50_000_000)));
    expect(stderr).toContain('huge.yaml:1:1 the board file is 47.7 MiB, over the limit of 8 MiB');
  }, 60_000);

  it('reads a file of exactly the size limit and refuses one byte more', async () => {
    const cwd = await tempDir();
    const text = boardText(3);
    const padded = `${text}#${'x'.repeat(MAX_INPUT_BYTES - text.length - 2)}\n`;
    expect(Buffer.byteLength(padded)).toBe(MAX_INPUT_BYTES);
    await writeFile(join(cwd, 'edge.yaml'), padded);
    const ran = await runMain(['debate', 'edge.yaml', '-q', 'x'], { cwd });
    expect(ran.stderr).not.toContain('too large');
    expect(ran.code).not.toBe(2);
    // A sparse file: one byte over costs no disk, and must not be read at all.
    await truncate(join(cwd, 'edge.yaml'), MAX_INPUT_BYTES + 1);
    const over = await runMain(['report', 'edge.yaml'], { cwd });
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('edge.yaml:1:1 the run record file is 8,388,609 bytes, over the limit of 8 MiB');
  }, 60_000);

  it('refuses a decision record nested 100,000 deep at the bracket past the limit', async () => {
    const stderr = await refused('deep.json', `{"decision": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`, ['verify', 'deep.json']);
    expect(stderr).toContain(
      `deep.json:1:${14 + MAX_NESTING_DEPTH - 1} too deeply nested (limit ${MAX_NESTING_DEPTH} levels of arrays and objects)`,
    );
  }, 60_000);

  it('refuses a 10,000-member board with one issue at its members', async () => {
    const stderr = await refused('many.yaml', boardText(10_000));
    expect(stderr).toContain(`many.yaml:4:5 phases[0].members: 10,000 members in one phase are too many (limit ${MAX_PHASE_MEMBERS})`);
    expect(stderr.split('\n').length).toBeLessThan(10);
  }, 60_000);

  it(`summarises a phase of ${MAX_PHASE_MEMBERS} members in one line of progress`, async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, 'wide.yaml'), boardText(MAX_PHASE_MEMBERS));
    const { code, stderr } = await runMain(['debate', 'wide.yaml', '-q', 'x'], { cwd });
    expect([0, 1]).toContain(code);
    expect(stderr).toContain(`conclave:   analysis: ${MAX_PHASE_MEMBERS} members, ${MAX_PHASE_MEMBERS} answered, 0 failed`);
    expect(stderr).not.toMatch(/conclave: {3}m\d+/);
    // The one-member contrarian phase still gets its line per member.
    expect(stderr).toMatch(/conclave: {3}skeptic: \d/);
  }, 60_000);
});

describe('debateListener', () => {
  /** The lasting progress lines for one phase of `size` members, one of which fails. */
  const lines = (size: number): string[] => {
    const events: string[] = [];
    const listen = debateListener({ event: (text) => events.push(text), status: () => undefined, done: () => undefined });
    const members = Array.from({ length: size }, (_, i) => `m${i}`);
    const base = { at: 0, debateId: 'd' } as const;
    const send = (event: Record<string, unknown>) => listen({ ...base, ...event } as unknown as DebateEvent);
    send({ type: 'phase_started', phase: 'p', phaseIndex: 0, contrarian: false, members });
    for (const memberId of members) send({ type: 'member_started', phase: 'p', memberId });
    for (const memberId of members.slice(1)) send({ type: 'member_finished', phase: 'p', memberId, score: 5 });
    send({ type: 'member_failed', phase: 'p', memberId: 'm0', reason: { kind: 'timeout' } });
    send({ type: 'phase_finished', phase: 'p', phaseIndex: 0, valid: size - 1, failed: 1 });
    return events;
  };

  it(`prints a line per member up to ${PROGRESS_DETAIL_LIMIT} members and one line of counts above`, () => {
    expect(lines(PROGRESS_DETAIL_LIMIT)).toHaveLength(1 + PROGRESS_DETAIL_LIMIT);
    expect(lines(PROGRESS_DETAIL_LIMIT + 1)).toEqual([
      expect.stringContaining('phase 1: p'),
      `  p: ${PROGRESS_DETAIL_LIMIT + 1} members, ${PROGRESS_DETAIL_LIMIT} answered, 1 failed`,
    ]);
    expect(lines(10_000)).toHaveLength(2);
  });
});

describe('the Limits section of the CLI guide', () => {
  it('states the values the code enforces', async () => {
    const guide = await readFile(join(repoRoot, 'docs/cli.md'), 'utf8');
    const n = (value: number) => value.toLocaleString('en-US');
    for (const row of [
      `| file size | ${formatByteSize(MAX_INPUT_BYTES)} |`,
      `| string length | ${n(MAX_STRING_LENGTH)} characters (${formatByteSize(MAX_STRING_LENGTH)}) |`,
      `| nesting depth | ${MAX_NESTING_DEPTH} levels`,
      `| entries in one list or map | ${n(MAX_LIST_ENTRIES)} |`,
      `| values in one document | ${n(MAX_INPUT_VALUES)},`,
      `| YAML alias expansion | ${n(MAX_YAML_ALIAS_EXPANSION)} `,
      `| members in one phase | ${MAX_PHASE_MEMBERS} |`,
      `| members on a board | ${MAX_BOARD_MEMBERS} |`,
      `| phases on a board | ${MAX_PHASES} |`,
      `more than ${PROGRESS_DETAIL_LIMIT} members`,
    ])
      expect(guide).toContain(row);
  });
});

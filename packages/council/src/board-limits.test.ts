import { MAX_NESTING_DEPTH, MAX_STRING_LENGTH } from '@conclave/core/data';
import { describe, expect, it } from 'vitest';
import { BoardError } from './board-issue.js';
import { DEFAULT_BOARD_LIMITS, MAX_BOARD_MEMBERS, MAX_PHASE_MEMBERS, MAX_PHASES } from './board-limits.js';
import type { BoardInput, PhaseInput } from './board-schema.js';
import { parseBoard } from './board-text.js';
import { defineBoard } from './define-board.js';
import { loadBoard } from './board.js';
import { DebateEngine } from './debate-engine.js';
import { createOfflineAdapter } from './offline-adapter.js';

/** Phases of the given sizes with board-unique member ids. */
const board = (sizes: readonly number[], persona = 'A careful analyst'): BoardInput => {
  let next = 0;
  const phases: PhaseInput[] = sizes.map((size, p) => ({
    name: `p${p}`,
    members: Array.from({ length: size }, () => ({ id: `m${(next += 1)}`, persona, model: 'offline:m' })),
  }));
  return { id: 'big', phases };
};

/** The same board as YAML text, one member per line. */
const boardText = (sizes: readonly number[], persona = 'A'): string => {
  const input = board(sizes, persona);
  return [
    'id: big',
    'phases:',
    ...input.phases.flatMap((phase) => [
      `  - name: ${phase.name}`,
      '    members:',
      ...phase.members.map((m) => `      - { id: ${m.id}, persona: ${m.persona}, model: offline:m }`),
    ]),
    '',
  ].join('\n');
};

describe('board limits', () => {
  it(`accepts ${MAX_PHASE_MEMBERS} members in a phase and refuses one more, at that phase's members`, () => {
    expect(loadBoard(board([MAX_PHASE_MEMBERS])).isOk()).toBe(true);
    const issues = loadBoard(board([3, MAX_PHASE_MEMBERS + 1]))._unsafeUnwrapErr();
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'too_many',
        path: ['phases', 1, 'members'],
        message: `${MAX_PHASE_MEMBERS + 1} members in one phase are too many (limit ${MAX_PHASE_MEMBERS})`,
      }),
    ]);
    expect(issues[0]?.fix).toMatch(/at most 64 members per phase/);
  });

  it(`accepts ${MAX_BOARD_MEMBERS} members on a board and refuses one more`, () => {
    const full = Array.from({ length: MAX_BOARD_MEMBERS / MAX_PHASE_MEMBERS }, () => MAX_PHASE_MEMBERS);
    expect(loadBoard(board(full)).isOk()).toBe(true);
    expect(loadBoard(board([...full, 1]))._unsafeUnwrapErr()).toEqual([
      expect.objectContaining({
        code: 'too_many',
        path: ['phases'],
        message: expect.stringContaining(`limit ${MAX_BOARD_MEMBERS}`) as unknown,
      }),
    ]);
  });

  it(`accepts ${MAX_PHASES} phases and refuses one more`, () => {
    expect(loadBoard(board(Array.from({ length: MAX_PHASES }, () => 3))).isOk()).toBe(true);
    expect(loadBoard(board(Array.from({ length: MAX_PHASES + 1 }, () => 3)))._unsafeUnwrapErr()).toEqual([
      expect.objectContaining({ code: 'too_many', path: ['phases'] }),
    ]);
  });

  it('holds a board to the default caps when the limits option is absent or empty', () => {
    expect(DEFAULT_BOARD_LIMITS).toEqual({ phaseMembers: MAX_PHASE_MEMBERS, boardMembers: MAX_BOARD_MEMBERS, phases: MAX_PHASES });
    for (const options of [{}, { limits: {} }]) {
      expect(loadBoard(board([MAX_PHASE_MEMBERS + 1]), options)._unsafeUnwrapErr()[0]?.message).toContain(`(limit ${MAX_PHASE_MEMBERS})`);
    }
  });

  it('names the option that raises a cap in the fix of every count issue', () => {
    const phaseIssue = loadBoard(board([MAX_PHASE_MEMBERS + 1]))._unsafeUnwrapErr()[0];
    expect(phaseIssue?.fix).toContain('limits.phaseMembers');
    const boardIssue = loadBoard(board(Array.from({ length: 5 }, () => MAX_PHASE_MEMBERS)))._unsafeUnwrapErr()[0];
    expect(boardIssue?.fix).toContain('limits.boardMembers');
    const phasesIssue = loadBoard(board(Array.from({ length: MAX_PHASES + 1 }, () => 1)))._unsafeUnwrapErr()[0];
    expect(phasesIssue?.fix).toContain('limits.phases');
  });

  it('loads an 8 × 256 board under raised caps, and refuses one member past each raised cap', () => {
    const limits = { phaseMembers: 256, boardMembers: 8 * 256 };
    const sizes = Array.from({ length: 8 }, () => 256);
    expect(loadBoard(board(sizes))._unsafeUnwrapErr()[0]?.path).toEqual(['phases', 0, 'members']);
    expect(loadBoard(board(sizes), { limits }).isOk()).toBe(true);
    expect(parseBoard(boardText(sizes), { limits }).isOk()).toBe(true);
    expect(() => defineBoard(board(sizes), { limits })).not.toThrow();

    expect(loadBoard(board([...sizes.slice(1), 257]), { limits })._unsafeUnwrapErr()).toEqual([
      expect.objectContaining({
        code: 'too_many',
        path: ['phases', 7, 'members'],
        message: '257 members in one phase are too many (limit 256)',
      }),
    ]);
    expect(loadBoard(board([...sizes, 1]), { limits })._unsafeUnwrapErr()).toEqual([
      expect.objectContaining({ code: 'too_many', path: ['phases'], message: '2,049 members on the board are too many (limit 2,048)' }),
    ]);
    const manyPhases = Array.from({ length: 41 }, () => 1);
    expect(loadBoard(board(manyPhases), { limits: { phases: 40 } })._unsafeUnwrapErr()[0]?.message).toBe(
      '41 phases are too many (limit 40)',
    );
    expect(loadBoard(board(manyPhases.slice(1)), { limits: { phases: 40 } }).isOk()).toBe(true);
  });

  it('can lower a cap as well as raise it', () => {
    expect(loadBoard(board([3, 3]), { limits: { boardMembers: 5 } })._unsafeUnwrapErr()[0]?.message).toBe(
      '6 members on the board are too many (limit 5)',
    );
  });

  it('throws a RangeError naming a cap that is not a whole number of 1 or more', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => loadBoard(board([3]), { limits: { phaseMembers: bad } })).toThrow(
        new RangeError(`limits.phaseMembers must be a whole number of 1 or more, got ${bad}`),
      );
    }
  });

  it('runs a debate on a board loaded under raised caps', async () => {
    const wide = defineBoard(board([100, 100]), { limits: { phaseMembers: 100 } });
    const result = await DebateEngine.run(wide, { question: 'go?', adapters: { offline: createOfflineAdapter() } });
    expect(result.status).toBe('completed');
    expect(result.transcript).toHaveLength(200);
  });

  it('accepts a persona of exactly the string limit and refuses one character more, with its path', () => {
    expect(loadBoard(board([3], 'p'.repeat(MAX_STRING_LENGTH))).isOk()).toBe(true);
    const issues = loadBoard(board([3], 'p'.repeat(MAX_STRING_LENGTH + 1)), { file: 'b.yaml' })._unsafeUnwrapErr();
    expect(issues[0]).toEqual(expect.objectContaining({ code: 'too_long', path: ['phases', 0, 'members', 0, 'persona'], file: 'b.yaml' }));
    expect(() => defineBoard(board([3], 'p'.repeat(MAX_STRING_LENGTH + 1)))).toThrow(BoardError);
  });

  it('refuses a rubric nested past the depth limit given as data, without recursing', () => {
    let rubric: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) rubric = { deeper: rubric };
    const issues = loadBoard({ ...board([3]), rubric })._unsafeUnwrapErr();
    expect(issues).toEqual([
      expect.objectContaining({ code: 'too_deep', path: ['rubric', ...Array.from({ length: MAX_NESTING_DEPTH - 1 }, () => 'deeper')] }),
    ]);
  });

  it('reports a 10,000-member phase once, at its line, instead of one problem per member', () => {
    const issues = parseBoard(boardText([10_000]), { file: 'big.yaml' })._unsafeUnwrapErr();
    expect(issues).toEqual([
      expect.objectContaining({ code: 'too_many', file: 'big.yaml', line: 4, column: 5, path: ['phases', 0, 'members'] }),
    ]);
  });

  it('locates a long persona in board text at its line', () => {
    const issues = parseBoard(boardText([3], 'q'.repeat(MAX_STRING_LENGTH + 1)), { file: 'b.yaml' })._unsafeUnwrapErr();
    expect(issues[0]).toEqual(
      expect.objectContaining({ code: 'too_long', file: 'b.yaml', line: 5, path: ['phases', 0, 'members', 0, 'persona'] }),
    );
  });

  it('refuses a 50 MB persona by the size of the text', () => {
    const issues = parseBoard(boardText([3], 'z'.repeat(50_000_000)), { file: 'huge.yaml' })._unsafeUnwrapErr();
    expect(issues).toEqual([expect.objectContaining({ code: 'too_large', file: 'huge.yaml', line: 1, column: 1 })]);
  });
});

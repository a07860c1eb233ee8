import { describe, expect, it } from 'vitest';
import { PRODUCT_RUBRIC } from '@conclave/scoring';
import { revokedProxy, throwingProxy, withThrowingGetter } from '@conclave/testing';
import { BoardError, formatBoardIssue } from './board-issue.js';
import type { BoardInput } from './board-schema.js';
import { defineBoard } from './define-board.js';
import { isLoadedBoard, loadBoard } from './board.js';

const member = (id: string, extra: Record<string, unknown> = {}) => ({ id, persona: `persona of ${id}`, model: 'offline:m', ...extra });

const validInput: BoardInput = {
  id: 'launch',
  question: 'Launch {{question}}?',
  phases: [
    { name: 'analysis', members: [member('a'), member('b')] },
    { name: 'delivery', members: [member('c')] },
    { name: 'challenge', contrarian: true, members: [member('skeptic')] },
  ],
};

function issuesOf(input: unknown) {
  const result = loadBoard(input);
  if (result.isOk()) throw new Error('expected the board to be rejected');
  return result.error;
}

describe('loadBoard', () => {
  it('loads a valid board with defaults filled in and phases in declared order', () => {
    const board = loadBoard(validInput)._unsafeUnwrap();
    expect(board.phases.map((p) => p.name)).toEqual(['analysis', 'delivery', 'challenge']);
    expect(board.phases.map((p) => p.contrarian)).toEqual([false, false, true]);
    expect(board.rubric).toBe(PRODUCT_RUBRIC);
    expect(board.minValidVotes).toBe(3);
    expect(board.decision).toEqual({ rule: 'mean-score' });
    expect(board.concurrency).toEqual({ global: 16, perAdapter: {} });
    expect(board.phases[0]?.members[0]).toEqual({
      id: 'a',
      persona: 'persona of a',
      model: 'offline:m',
      weight: 1,
      family: 'offline:m',
      priorities: { feasibility: 1, revenue: 1, cx: 1, ttm: 1, risk: 1 },
    });
    expect(isLoadedBoard(board)).toBe(true);
    expect(Object.isFrozen(board) && Object.isFrozen(board.phases[0]?.members)).toBe(true);
  });

  it('rejects a contrarian phase that is not last as a hard error, pointing at it', () => {
    const input = { ...validInput, phases: [validInput.phases[2], validInput.phases[0], validInput.phases[1]] };
    const issues = issuesOf(input);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'contrarian_not_last', path: ['phases', 0, 'contrarian'] });
    expect(issues[0]?.fix).toMatch(/move the contrarian phase to the end/);
  });

  it('reports every problem together, each with its path and a fix', () => {
    const issues = issuesOf({
      id: 'broken',
      rubric: { axes: ['impact', 'effort'], weights: { impact: 0.7, efort: 0.3 } },
      quorum: { minValidVotes: 3 },
      phases: [
        { name: 'one', contrarian: true, members: [member('a', { priorities: { impakt: 2 } }), member('a', { weight: -1 })] },
        { name: 'one', members: [] },
        { name: 'three', contrarian: true, members: [member('c', { model: 'gpt4' }), member('d', { model: 'mystery:x' })] },
      ],
    });
    const codes = issues.map((issue) => issue.code).sort();
    expect(codes).toEqual(
      [
        'bad_weight',
        'contrarian_not_last',
        'duplicate_member_id',
        'duplicate_phase_name',
        'empty_phase',
        'multiple_contrarians',
        'rubric',
        'unknown_axis',
        'unknown_model',
        'unknown_model',
      ].sort(),
    );
    for (const issue of issues) {
      expect(issue.message.length).toBeGreaterThan(0);
      expect(issue.fix.length).toBeGreaterThan(0);
    }
    expect(issues.find((i) => i.code === 'duplicate_member_id')).toMatchObject({ path: ['phases', 0, 'members', 1, 'id'] });
    expect(issues.find((i) => i.code === 'duplicate_member_id')?.message).toContain('phases[0].members[0].id');
    expect(issues.find((i) => i.code === 'unknown_axis')?.path).toEqual(['rubric', 'weights', 'efort']);
    expect(issues.find((i) => i.code === 'rubric')?.path).toEqual(['rubric', 'weights', 'effort']);
  });

  it('rejects a priority on an axis the rubric does not have', () => {
    const input = {
      ...validInput,
      phases: [{ name: 'p', members: [member('a', { priorities: { revenu: 2 } }), member('b'), member('c')] }],
    };
    expect(issuesOf(input)).toEqual([
      expect.objectContaining({ code: 'unknown_axis', path: ['phases', 0, 'members', 0, 'priorities', 'revenu'] }),
    ]);
  });

  it('reports a bad member weight once, as bad_weight, whatever is wrong with it', () => {
    for (const weight of ['2', Infinity, -Infinity, NaN, null, 0, -1, 2e6]) {
      const board = { ...validInput, phases: [{ name: 'only', members: [member('a', { weight }), member('b'), member('c')] }] };
      const issues = issuesOf(board);
      expect(
        issues.map((i) => [i.code, i.path]),
        `weight ${String(weight)}`,
      ).toEqual([['bad_weight', ['phases', 0, 'members', 0, 'weight']]]);
      expect(issues[0]?.message).not.toContain('null');
    }
  });

  it('rejects unknown keys, so a misspelt field is never silently ignored', () => {
    const issues = issuesOf({ ...validInput, phases: [{ name: 'p', contrarain: true, members: [member('a'), member('b'), member('c')] }] });
    expect(issues[0]).toMatchObject({ code: 'schema', path: ['phases', 0] });
    expect(issues[0]?.fix).toContain('"contrarain"');
  });

  it('rejects a quorum the board can never reach', () => {
    const issues = issuesOf({ id: 'tiny', phases: [{ name: 'p', members: [member('a'), member('b')] }] });
    expect(issues.map((i) => i.code)).toEqual(['quorum_unreachable']);
    const explicit = issuesOf({ ...validInput, quorum: { minValidVotes: 9 } });
    expect(explicit[0]).toMatchObject({ code: 'quorum_unreachable', path: ['quorum', 'minValidVotes'] });
  });

  it('rejects an unknown axis in a fact and an unknown named rubric', () => {
    expect(issuesOf({ ...validInput, facts: [{ axis: 'revenu', value: 5, note: 'n' }] })[0]).toMatchObject({
      code: 'unknown_axis',
      path: ['facts', 0, 'axis'],
    });
    expect(issuesOf({ ...validInput, rubric: 'growth' })[0]).toMatchObject({ code: 'rubric', path: ['rubric'] });
  });

  it('accepts model references through knownProviders or isKnownModel', () => {
    const input = {
      ...validInput,
      phases: [{ name: 'p', members: [member('a', { model: 'lab:x' }), member('b', { model: 'lab:y' }), member('c', { model: 'lab:z' })] }],
    };
    expect(loadBoard(input).isErr()).toBe(true);
    expect(loadBoard(input, { knownProviders: ['lab'] }).isOk()).toBe(true);
    expect(loadBoard(input, { isKnownModel: (ref) => ref !== 'lab:z' })._unsafeUnwrapErr()[0]).toMatchObject({
      code: 'unknown_model',
      path: ['phases', 0, 'members', 2, 'model'],
    });
  });

  it('rejects what is not a board at all without throwing', () => {
    for (const input of [null, 42, 'board', [], {}]) expect(issuesOf(input).length).toBeGreaterThan(0);
  });

  it('names the file in every issue', () => {
    const result = loadBoard({ ...validInput, phases: [] }, { file: 'boards/x.yaml' });
    expect(result._unsafeUnwrapErr().every((issue) => issue.file === 'boards/x.yaml')).toBe(true);
  });
});

describe('loadBoard with data built in code that is not plain data', () => {
  const hostile: [string, () => unknown][] = [
    [
      'a throwing getter on a member',
      () => ({ ...validInput, phases: [{ name: 'analysis', members: [withThrowingGetter(member('a'), 'persona')] }] }),
    ],
    ['a Proxy that throws as the board', () => throwingProxy({ ...validInput })],
    ['a revoked Proxy as a phase', () => ({ ...validInput, phases: [revokedProxy({ name: 'analysis', members: [member('a')] })] })],
    ['a throwing Proxy as the phases list', () => ({ ...validInput, phases: throwingProxy([...validInput.phases]) })],
    ['a function as a persona', () => ({ ...validInput, phases: [{ name: 'analysis', members: [member('a', { persona: () => 'x' })] }] })],
  ];

  it.each(hostile)('reports %s as one unreadable issue with a fix, and never throws', (_name, make) => {
    let issues: ReturnType<typeof issuesOf> | undefined;
    expect(() => {
      issues = issuesOf(make());
    }).not.toThrow();
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'unreadable',
        message: expect.stringContaining('cannot be read as plain data') as unknown,
        fix: expect.stringContaining('pass plain data') as unknown,
      }),
    ]);
    expect(() => defineBoard(make() as BoardInput)).toThrow(BoardError);
  });
});

describe('defineBoard', () => {
  it('returns the board when it is valid', () => {
    expect(defineBoard(validInput).id).toBe('launch');
  });

  it('throws a BoardError carrying every issue, formatted one per line', () => {
    const attempt = () => defineBoard({ ...validInput, phases: [validInput.phases[2]!, validInput.phases[0]!] });
    expect(attempt).toThrow(BoardError);
    try {
      attempt();
    } catch (error) {
      expect((error as BoardError).issues.map((i) => i.code)).toEqual(['contrarian_not_last']);
      expect((error as BoardError).message).toContain('phases[0].contrarian: the contrarian phase must be the last phase');
    }
  });
});

describe('isLoadedBoard', () => {
  it('refuses a look-alike object that did not go through the loader', () => {
    const board = defineBoard(validInput);
    expect(isLoadedBoard({ ...board })).toBe(false);
    expect(isLoadedBoard(null)).toBe(false);
  });
});

describe('formatBoardIssue', () => {
  it('prints file:line:column, the path, the message and the fix', () => {
    expect(
      formatBoardIssue({
        code: 'empty_phase',
        path: ['phases', 1, 'members'],
        message: 'phase "x" has no members',
        fix: 'add a member',
        file: 'b.yaml',
        line: 7,
        column: 5,
      }),
    ).toBe('b.yaml:7:5 phases[1].members: phase "x" has no members\n    fix: add a member');
  });
});

import { describe, expect, it } from 'vitest';
import { formatDataPath, formatIssue } from './issue.js';

describe('formatIssue', () => {
  it('prints file:line:column, the path, the message and an indented fix', () => {
    expect(
      formatIssue({
        code: 'empty_phase',
        file: 'b.yaml',
        line: 7,
        column: 5,
        path: ['phases', 1, 'members'],
        message: 'phase "x" has no members',
        fix: 'add a member',
      }),
    ).toBe('b.yaml:7:5 phases[1].members: phase "x" has no members\n    fix: add a member');
  });

  it('prints the empty path, the root value, as (root)', () => {
    expect(
      formatIssue({
        code: 'too_many_aliases',
        file: 'bomb.yaml',
        line: 2,
        column: 8,
        path: [],
        message: 'aliases expand too far',
        fix: 'write the data out',
      }),
    ).toBe('bomb.yaml:2:8 (root): aliases expand too far\n    fix: write the data out');
  });

  it('leaves out each part of the place the issue does not have', () => {
    expect(formatIssue({ code: 'schema', file: 'brief.yaml', path: ['question'], message: 'required', fix: 'ask one' })).toBe(
      'brief.yaml question: required\n    fix: ask one',
    );
    expect(formatIssue({ code: 'no_tasks', line: 3, column: 1, message: 'no tasks', fix: 'add one' })).toBe(
      '3:1 no tasks\n    fix: add one',
    );
    expect(
      formatIssue({ code: 'missing_front_matter', file: 'spec.md', line: 1, column: 1, message: 'no front-matter', fix: 'add ---' }),
    ).toBe('spec.md:1:1 no front-matter\n    fix: add ---');
    expect(formatIssue({ code: 'weights_sum', path: ['weights'], message: 'sum is 2', fix: 'make it 1' })).toBe(
      'weights: sum is 2\n    fix: make it 1',
    );
    expect(formatIssue({ code: 'x', message: 'bad', fix: 'mend it' })).toBe('bad\n    fix: mend it');
  });
});

describe('formatDataPath', () => {
  it('joins keys with dots and puts indexes in brackets', () => {
    expect(formatDataPath(['phases', 1, 'members', 0, 'id'])).toBe('phases[1].members[0].id');
    expect(formatDataPath([0, 'a'])).toBe('[0].a');
    expect(formatDataPath([])).toBe('');
  });
});

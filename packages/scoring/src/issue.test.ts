import { describe, expect, it } from 'vitest';
import { formatPath } from './issue.js';

describe('formatPath', () => {
  it('renders keys with dots and indexes with brackets', () => {
    expect(formatPath(['phases', 1, 'members', 0, 'id'])).toBe('phases[1].members[0].id');
    expect(formatPath([0, 'a'])).toBe('[0].a');
    expect(formatPath(['weights'])).toBe('weights');
  });

  it('renders the empty path as (root)', () => {
    expect(formatPath([])).toBe('(root)');
  });
});

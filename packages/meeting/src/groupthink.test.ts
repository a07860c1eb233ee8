import { describe, expect, it } from 'vitest';
import { groupthinkTriggers } from './groupthink.js';

const p = (preferredOption: string, confidence = 0.9) => ({ preferredOption, confidence });

describe('groupthink guard triggers', () => {
  it('flags unanimity only on the first positions', () => {
    expect(groupthinkTriggers([p('a'), p('a'), p('a')], true).map((t) => t.kind)).toEqual(['unanimity']);
    expect(groupthinkTriggers([p('a'), p('a'), p('a')], false)).toEqual([]);
  });

  it('flags near-unanimity (default: all but one) on any round', () => {
    expect(groupthinkTriggers([p('a'), p('a'), p('a'), p('b')], false)).toEqual([{ kind: 'near_unanimity', option: 'a', dissenters: 1 }]);
    expect(groupthinkTriggers([p('a'), p('a'), p('a'), p('b'), p('c')], false)).toEqual([]);
    expect(groupthinkTriggers([p('a'), p('a'), p('a'), p('b'), p('c')], false, { nearUnanimityDissenters: 2 }).map((t) => t.kind)).toEqual([
      'near_unanimity',
    ]);
  });

  it('flags unanimity at low mean confidence (default below 0.6), configurable', () => {
    const low = [p('a', 0.5), p('a', 0.55), p('a', 0.6)];
    expect(groupthinkTriggers(low, false).map((t) => t.kind)).toEqual(['low_confidence_unanimity']);
    expect(groupthinkTriggers(low, false, { lowConfidence: 0.5 })).toEqual([]);
    expect(groupthinkTriggers([p('a', 0.6), p('a', 0.6), p('a', 0.6)], false)).toEqual([]);
  });

  it('does not flag a split room', () => {
    expect(groupthinkTriggers([p('a'), p('a'), p('b'), p('b')], true)).toEqual([]);
  });
});

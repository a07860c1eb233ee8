import { isLoadedBoard, loadBoard } from '@conclave/council';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { board, boardInput } from './board.js';

describe('boardInput', () => {
  it('only produces boards the loader accepts', () => {
    fc.assert(
      fc.property(boardInput(), (input) => {
        const loaded = loadBoard(input, { isKnownModel: () => true });
        expect(loaded.isOk() ? [] : loaded.error).toEqual([]);
      }),
    );
  });

  it('respects its constraints', () => {
    fc.assert(
      fc.property(boardInput({ minPhases: 2, maxPhases: 3, minMembers: 2, maxMembers: 2, contrarian: true, model: 'lab:x' }), (input) => {
        expect(input.phases.length).toBeGreaterThanOrEqual(2);
        expect(input.phases.length).toBeLessThanOrEqual(3);
        expect(input.phases.every((phase) => phase.members.length === 2)).toBe(true);
        expect(input.phases.map((phase) => phase.contrarian === true)).toEqual(input.phases.map((_, p) => p === input.phases.length - 1));
        expect(input.phases.flatMap((phase) => phase.members.map((m) => m.model))).toEqual(Array(input.phases.length * 2).fill('lab:x'));
      }),
    );
    fc.assert(
      fc.property(boardInput({ contrarian: false }), (input) => {
        expect(input.phases.some((phase) => phase.contrarian)).toBe(false);
      }),
    );
  });
});

describe('board', () => {
  it('produces loaded boards with unique member ids and a reachable quorum', () => {
    fc.assert(
      fc.property(board(), (loaded) => {
        expect(isLoadedBoard(loaded)).toBe(true);
        const ids = loaded.phases.flatMap((phase) => phase.members.map((m) => m.id));
        expect(new Set(ids).size).toBe(ids.length);
        expect(loaded.minValidVotes).toBeLessThanOrEqual(ids.length);
      }),
    );
  });
});

import { defineBoard, type Board, type BoardInput } from '@conclave/council';
import { MIN_VALID_VOTES, PRODUCT_RUBRIC, type Rubric } from '@conclave/scoring';
import * as fc from 'fast-check';

/** Constraints on a generated board. */
export interface BoardConstraints {
  /** Fewest phases. Default 1. */
  readonly minPhases?: number;
  /** Most phases. Default 4. */
  readonly maxPhases?: number;
  /** Fewest members in each phase. Default 1. */
  readonly minMembers?: number;
  /** Most members in each phase. Default 4. */
  readonly maxMembers?: number;
  /** `true`: the last phase is always a contrarian phase; `false`: never; default: sometimes. */
  readonly contrarian?: boolean;
  /** The model reference every member uses. Default `scripted:model`. */
  readonly model?: string;
  /** The rubric. Default `PRODUCT_RUBRIC`. */
  readonly rubric?: Rubric;
}

/** A member id the board schema accepts. */
export function boardMemberId(): fc.Arbitrary<string> {
  return fc.stringMatching(/^[a-z][a-z0-9-]{0,9}$/);
}

/**
 * A valid board as data (what a YAML file holds): phases with unique names, members with
 * unique ids, weights and priorities, the contrarian phase (if any) last, and a quorum the board
 * can reach. `defineBoard(input, { isKnownModel: () => true })` accepts every value.
 */
export function boardInput(constraints: BoardConstraints = {}): fc.Arbitrary<BoardInput> {
  const minPhases = constraints.minPhases ?? 1;
  const maxPhases = constraints.maxPhases ?? 4;
  const sizes = fc.array(fc.integer({ min: constraints.minMembers ?? 1, max: constraints.maxMembers ?? 4 }), {
    minLength: minPhases,
    maxLength: maxPhases,
  });
  const rubric = constraints.rubric ?? PRODUCT_RUBRIC;
  const model = constraints.model ?? 'scripted:model';
  const contrarian = constraints.contrarian === undefined ? fc.boolean() : fc.constant(constraints.contrarian);

  return fc.tuple(sizes, contrarian).chain(([phaseSizes, lastIsContrarian]) => {
    const total = phaseSizes.reduce((sum, size) => sum + size, 0);
    const member = (id: string) =>
      fc
        .record({
          weight: fc.option(fc.double({ min: 0.1, max: 5, noNaN: true }), { nil: undefined }),
          priorities: fc.option(fc.dictionary(fc.constantFrom(...rubric.axes), fc.integer({ min: 0, max: 3 })), { nil: undefined }),
        })
        .map(({ weight, priorities }) => ({
          id,
          persona: `persona of ${id}`,
          model,
          ...(weight === undefined ? {} : { weight }),
          ...(priorities === undefined ? {} : { priorities }),
        }));
    return fc.uniqueArray(boardMemberId(), { minLength: total, maxLength: total }).chain((ids) => {
      let next = 0;
      const phases = phaseSizes.map((size, p) => {
        const memberIds = ids.slice(next, (next += size));
        return fc.tuple(...memberIds.map(member)).map((members) => ({
          name: `phase-${p + 1}`,
          ...(lastIsContrarian && p === phaseSizes.length - 1 ? { contrarian: true } : {}),
          members,
        }));
      });
      return fc.tuple(...phases).map((built): BoardInput => ({
        id: 'generated',
        question: '{{question}}',
        rubric: { id: rubric.id, axes: [...rubric.axes], weights: { ...rubric.weights }, thresholds: { ...rubric.thresholds } },
        quorum: { minValidVotes: Math.min(MIN_VALID_VOTES, total) },
        phases: built,
      }));
    });
  });
}

/** A loaded `Board` (see `boardInput`), ready for `DebateEngine.run`. */
export function board(constraints: BoardConstraints = {}): fc.Arbitrary<Board> {
  return boardInput(constraints).map((input) => defineBoard(input, { isKnownModel: () => true }));
}

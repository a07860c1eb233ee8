import type { RubricSpec } from '@conclave/scoring';
import { BoardError } from './board-issue.js';
import type { BoardInput, MemberInput, PhaseInput } from './board-schema.js';
import { loadBoard, type Board, type LoadBoardOptions } from './board.js';

type FactInput = NonNullable<BoardInput['facts']>[number];

/**
 * What `defineBoard` accepts: a board as data (`BoardInput`), typed by its rubric's axis names `A`
 * when the rubric's type names them (`defineRubric`, `PRODUCT_RUBRIC`, or a rubric whose axes are
 * written inline). A priority or a fact on another axis is then a compile error. `A` is inferred from
 * the rubric alone (`NoInfer` elsewhere), and a typed `A` needs that rubric: with no rubric, or
 * `'product'`, or a rubric whose type says `string`, the board is `Board<string>`.
 */
export type BoardDefinition<A extends string = string> = Omit<BoardInput, 'rubric' | 'facts' | 'phases'> & {
  /** A rubric whose type names its axes; any rubric value (or `'product'`) when `A` is `string`. */
  readonly rubric?: RubricSpec<A> | (string extends A ? unknown : never);
  readonly facts?: readonly (Omit<FactInput, 'axis'> & { readonly axis: NoInfer<A> })[] | undefined;
  readonly phases: readonly (Omit<PhaseInput, 'members'> & {
    readonly members: readonly (Omit<MemberInput, 'priorities'> & {
      readonly priorities?: Readonly<Partial<Record<NoInfer<A>, number>>> | undefined;
    })[];
  })[];
} & (string extends A ? unknown : { readonly rubric: RubricSpec<A> });

/**
 * Defines a board in code; throws a `BoardError` listing every problem. Use `loadBoard` or
 * `parseBoard` for boards that come from files or users (and `withAxes` to type their axes).
 * Given a typed rubric, the board is `Board<A>` and a debate on it is typed by the same axes.
 *
 * @example
 * const board = defineBoard({
 *   id: 'launch',
 *   question: 'Should we launch {{question}}?',
 *   phases: [
 *     { name: 'analysis', members: [{ id: 'cfo', persona: 'A careful CFO', model: 'offline:cfo' }] },
 *     { name: 'challenge', contrarian: true, members: [{ id: 'skeptic', persona: 'Finds the flaw', model: 'offline:skeptic' }] },
 *   ],
 * });
 */
export function defineBoard<const A extends string = string>(input: BoardDefinition<A>, options?: LoadBoardOptions): Board<A>;
// The signature above states what the loader guarantees: `A` is inferred only from the rubric,
// which the loader validates into `board.rubric` with the same axes, gives every member a
// priority on each of them, and refuses a fact on any other. (`withAxes` is the checked way for
// a board whose rubric the compiler never saw.)
export function defineBoard(input: BoardDefinition, options: LoadBoardOptions = {}): Board {
  return loadBoard(input, options).match(
    (board) => board,
    (issues) => {
      throw new BoardError(issues);
    },
  );
}

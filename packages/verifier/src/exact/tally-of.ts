import type { ConsensusResult } from '@conclave/scoring';
import type { OracleContext } from '../oracle.js';
import type { Tally } from './exact-consensus.js';
import type { FlatVotes } from './flat-record.js';

/**
 * The key under which the verifier's own context offers its recomputation before the member
 * objects are made (ADR 0045). Only the verifier's context has it: a custom oracle's context, or
 * one a caller makes, does not, and the built-in oracles then read `recomputed()`.
 */
export const TALLY: unique symbol = Symbol('conclave.verifier.tally');

/** A context that offers the tally. */
export interface TallyContext {
  [TALLY](): Tally;
}

/** The context's tally when it is the verifier's own; undefined for any other context. */
export function tallyOf(context: OracleContext): Tally | undefined {
  return TALLY in context ? (context as OracleContext & TallyContext)[TALLY]() : undefined;
}

/**
 * What the quorum and score oracles read of the recomputation (status, verdict, counts, score,
 * means): the tally when the context has one, which makes no member objects, else `recomputed()`.
 */
export function recomputedSummary(context: OracleContext): Tally | ConsensusResult {
  return tallyOf(context) ?? context.recomputed();
}

/**
 * The key under which the verifier's own context offers the votes and members of a record read
 * flat (ADR 0049), which its view holds no objects for. Only such a context has it.
 */
export const FLAT: unique symbol = Symbol('conclave.verifier.flat');

/** A context that offers a record's flat votes. */
export interface FlatContext {
  readonly [FLAT]: FlatVotes;
}

/** The flat votes of the record the context's verification read flat; undefined for any other context. */
export function flatVotesOf(context: OracleContext): FlatVotes | undefined {
  return FLAT in context ? (context as OracleContext & FlatContext)[FLAT] : undefined;
}

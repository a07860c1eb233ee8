import { roundScore } from './round-score.js';
import { MAX_SCORE, type Rubric } from './rubric.js';

/** One member's scores on every axis of a rubric, with the member's weight in the consensus. */
export interface Vote<A extends string = string> {
  readonly memberId: string;
  readonly scores: Readonly<Record<A, number>>;
  /** How much this member counts in the consensus: above 0, at most `MAX_MEMBER_WEIGHT`. Defaults to 1. */
  readonly weight?: number;
}

/** Why a vote does not count. Keyed by `code`, like zod's issues. */
export type InvalidVoteReason =
  | { readonly code: 'not_an_object' }
  | { readonly code: 'missing_member_id' }
  | { readonly code: 'duplicate_member'; readonly memberId: string }
  | { readonly code: 'missing_axis'; readonly axis: string }
  | { readonly code: 'unknown_axis'; readonly axis: string }
  | { readonly code: 'not_finite'; readonly axis: string; readonly value: unknown }
  | { readonly code: 'out_of_range'; readonly axis: string; readonly value: number }
  | { readonly code: 'bad_weight'; readonly value: unknown };

/** A vote that did not count, where it was in the input, and every reason why. */
export interface InvalidVote {
  readonly index: number;
  readonly memberId?: string;
  readonly reasons: readonly InvalidVoteReason[];
}

/**
 * Every reason a vote is not valid under a rubric; empty when it is valid. A vote is valid
 * when every rubric axis has a finite score in [0, 10], it names no other axis (a misspelt
 * axis is never a silent zero), and its weight, if given, is above 0 and at most
 * `MAX_MEMBER_WEIGHT`.
 */
export function checkVote(vote: unknown, rubric: Rubric): InvalidVoteReason[] {
  if (typeof vote !== 'object' || vote === null) return [{ code: 'not_an_object' }];
  const { memberId, scores, weight } = vote as { memberId?: unknown; scores?: unknown; weight?: unknown };
  const reasons: InvalidVoteReason[] = [];
  if (typeof memberId !== 'string' || memberId === '') reasons.push({ code: 'missing_member_id' });
  if (weight !== undefined && !isValidWeight(weight)) {
    reasons.push({ code: 'bad_weight', value: weight });
  }
  if (typeof scores !== 'object' || scores === null) {
    for (const axis of rubric.axes) reasons.push({ code: 'missing_axis', axis });
    return reasons;
  }
  const record = scores as Record<string, unknown>;
  for (const axis of rubric.axes) {
    // Own keys only: an absent axis named `constructor` must not read Object.prototype's.
    const value = Object.hasOwn(record, axis) ? record[axis] : undefined;
    if (value === undefined) reasons.push({ code: 'missing_axis', axis });
    else if (typeof value !== 'number' || !Number.isFinite(value)) reasons.push({ code: 'not_finite', axis, value });
    else if (value < 0 || value > MAX_SCORE) reasons.push({ code: 'out_of_range', axis, value });
  }
  for (const axis of Object.keys(record)) {
    if (!Object.hasOwn(rubric.weights, axis)) reasons.push({ code: 'unknown_axis', axis });
  }
  return reasons;
}

/** The largest member weight a vote may carry: larger ones could overflow a weighted total. */
export const MAX_MEMBER_WEIGHT = 1e6;

/**
 * Whether a vote is valid, without building the list of reasons: the fast path for the common
 * case. Agrees with `checkVote(vote, rubric).length === 0`.
 */
export function isValidVote(vote: unknown, rubric: Rubric): boolean {
  if (typeof vote !== 'object' || vote === null) return false;
  const { memberId, scores, weight } = vote as { memberId?: unknown; scores?: unknown; weight?: unknown };
  if (typeof memberId !== 'string' || memberId === '') return false;
  if (weight !== undefined && !isValidWeight(weight)) return false;
  if (typeof scores !== 'object' || scores === null) return false;
  const record = scores as Record<string, unknown>;
  const { axes } = rubric;
  for (let a = 0; a < axes.length; a += 1) {
    const axis = axes[a] as string;
    if (!Object.hasOwn(record, axis)) return false;
    const value = record[axis];
    if (typeof value !== 'number' || !(value >= 0 && value <= MAX_SCORE)) return false;
  }
  // Every rubric axis is present, so one key more is an unknown axis. Counted with for-in so
  // nothing is allocated; an inherited enumerable key only sends the vote to `checkVote`.
  let keys = 0;
  for (const _key in record) keys += 1;
  return keys === axes.length;
}

function isValidWeight(weight: unknown): boolean {
  return typeof weight === 'number' && weight > 0 && weight <= MAX_MEMBER_WEIGHT;
}

/**
 * A member's own score: the rubric-weighted sum of its axis scores, on the same 0–10 scale,
 * rounded to nine decimals (see `roundScore`). Every axis adds in the same direction; nothing
 * is inverted. Assumes a valid vote.
 */
export function weightedScore<A extends string>(scores: Readonly<Record<A, number>>, rubric: Rubric<A>): number {
  const { axes, weights } = rubric;
  let total = 0;
  for (let a = 0; a < axes.length; a += 1) {
    const axis = axes[a] as A;
    total += weights[axis] * scores[axis];
  }
  return roundScore(total);
}

import type { JsonValue, OracleFinding } from '../claim.js';

/** The claim holds. */
export const proven = (reason: string, details?: JsonValue): OracleFinding =>
  details === undefined ? { status: 'proven', reason } : { status: 'proven', reason, details };
/** The claim is false. */
export const refuted = (reason: string, details?: JsonValue): OracleFinding =>
  details === undefined ? { status: 'refuted', reason } : { status: 'refuted', reason, details };
/** The claim cannot be decided from the record. */
export const unprovable = (reason: string, details?: JsonValue): OracleFinding =>
  details === undefined ? { status: 'unprovable', reason } : { status: 'unprovable', reason, details };

/**
 * Scores are rounded to nine decimals. The checker rounds the exact decimal result, the maker a
 * floating-point one, and where the exact value ends in a half unit the two may part by one unit
 * of the ninth decimal (ADR 0033): scores that close are the same score. Verdicts are compared
 * exactly, so a score on the wrong side of a threshold is refuted however close it is.
 */
export const SCORE_TOLERANCE = 1.5e-9;

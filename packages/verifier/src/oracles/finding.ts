import type { JsonValue, OracleFinding } from '../claim.js';

/** The claim holds. */
export const proven = (reason: string, details?: JsonValue): OracleFinding => (details === undefined ? { status: 'proven', reason } : { status: 'proven', reason, details });
/** The claim is false. */
export const refuted = (reason: string, details?: JsonValue): OracleFinding => (details === undefined ? { status: 'refuted', reason } : { status: 'refuted', reason, details });
/** The claim cannot be decided from the record. */
export const unprovable = (reason: string, details?: JsonValue): OracleFinding => (details === undefined ? { status: 'unprovable', reason } : { status: 'unprovable', reason, details });

/** Scores are rounded to nine decimals; anything closer than this is the same score. */
export const SCORE_TOLERANCE = 1e-9;

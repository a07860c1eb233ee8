import type { JsonValue, OracleFinding } from '../claim.js';

/** The claim holds. */
export const proven = (reason: string, details?: JsonValue): OracleFinding => ({ status: 'proven', reason, ...(details === undefined ? {} : { details }) });
/** The claim is false. */
export const refuted = (reason: string, details?: JsonValue): OracleFinding => ({ status: 'refuted', reason, ...(details === undefined ? {} : { details }) });
/** The claim cannot be decided from the record. */
export const unprovable = (reason: string, details?: JsonValue): OracleFinding => ({ status: 'unprovable', reason, ...(details === undefined ? {} : { details }) });

/** Scores are rounded to nine decimals; anything closer than this is the same score. */
export const SCORE_TOLERANCE = 1e-9;

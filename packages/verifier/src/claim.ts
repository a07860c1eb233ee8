/** A JSON value: what a claim may expect. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * One atomic, structured claim about a decision: never prose. An oracle registered for its
 * `kind` proves or refutes it.
 *
 * @example { id: 'latency-budget', kind: 'measurement_at_most', subject: 'p95_ms', expected: 200 }
 */
export interface Claim {
  readonly id: string;
  /** Which oracle decides it. */
  readonly kind: string;
  /** What the claim is about, e.g. `consensus` or a measurement's name. */
  readonly subject: string;
  readonly expected: JsonValue;
  /** Whether the record is approved only if this claim is proven (default true). */
  readonly required?: boolean;
}

/** What an oracle concluded. */
export type ClaimStatus = 'proven' | 'refuted' | 'unprovable';

/** An oracle's answer: the status and why. */
export interface OracleFinding {
  readonly status: ClaimStatus;
  readonly reason: string;
  /** Structured detail for people and reports (e.g. the dissenting members). */
  readonly details?: JsonValue;
}

/** A claim, the oracle that decided it, and its finding. */
export interface ClaimResult extends OracleFinding {
  readonly claim: Claim;
  /** The oracle's name, or `(none)` when no oracle proves this kind of claim. */
  readonly oracle: string;
  readonly required: boolean;
}

import { aggregateConsensus, type ConsensusResult } from '@conclave/scoring';
import type { Claim, ClaimResult, ClaimStatus, JsonValue, OracleFinding } from './claim.js';
import type { DecisionRecord } from './decision-record.js';
import { decisionView, type DecisionView } from './decision-view.js';
import { DEFAULT_EVIDENCE_POLICY, type EvidencePolicy, type OracleContext } from './oracle.js';
import { BUILT_IN_REGISTRY, type OracleRegistry } from './oracle-registry.js';
import { BUILT_IN_ORACLES } from './oracles/built-in.js';
import { recordShapeIssues } from './record-shape.js';

/** Options for `verifyDecision`. */
export interface VerifyOptions {
  /** The oracles to prove claims with (default: the built-in ones). */
  readonly oracles?: OracleRegistry;
  /** Floors and diversity rules for the evidence oracles. */
  readonly policy?: Partial<EvidencePolicy>;
}

/** The verifier's account of one record. */
export interface VerificationReport {
  readonly recordId: string;
  /** True only when the record is well formed and every required claim is proven. */
  readonly approved: boolean;
  /** Every claim checked, built-in ones first, with its status, oracle and reason. */
  readonly claims: readonly ClaimResult[];
  /** Why the record could not be read as a DecisionRecord; empty when it could. */
  readonly malformed: readonly string[];
}

const STATUSES: readonly ClaimStatus[] = ['proven', 'refuted', 'unprovable'];

/**
 * Checks a decision record as a maker-checker would: every claim, built-in and custom, is
 * decided by a deterministic oracle over a deep-frozen, prose-free view of the record. The
 * verifier takes no adapter and changes nothing; it never throws for a bad record.
 *
 * Built-in claims: quorum met, verdict matches score, score matches votes (recomputed),
 * members self-consistent (dissent listed), evidence present, evidence clears the floors, a GO
 * has a passing validation signal, evidence is not a monoculture.
 *
 * @example
 * const report = verifyDecision(record);
 * if (!report.approved) for (const c of report.claims) if (c.status !== 'proven') console.log(c.claim.id, c.reason);
 */
export function verifyDecision(record: DecisionRecord, options: VerifyOptions = {}): VerificationReport {
  return verifyWithView(record, options).report;
}

/**
 * `verifyDecision`, also handing back the frozen view it checked (absent when the record could
 * not be read), so the panel's lenses judge the very same snapshot. Internal to the package.
 */
export function verifyWithView(record: DecisionRecord, options: VerifyOptions): { report: VerificationReport; view?: DecisionView } {
  let view: DecisionView;
  try {
    view = decisionView(record);
  } catch (thrown) {
    return { report: Object.freeze({ recordId: safeId(record), approved: false, claims: Object.freeze([]), malformed: Object.freeze([`the record cannot be read: ${message(thrown)}`]) }) };
  }
  return { report: verifyView(view, safeId(record), options), view };
}

function verifyView(view: DecisionView, recordId: string, options: VerifyOptions): VerificationReport {
  const policy = evidencePolicy(options.policy);
  const claims = [...builtInClaims(view, policy), ...view.claims];
  const malformed = recordShapeIssues(view);
  if (malformed.length > 0) {
    const results = claims.map((claim) => result(claim, '(none)', { status: 'unprovable', reason: 'the record is malformed, see `malformed`' }));
    return Object.freeze({ recordId, approved: false, claims: Object.freeze(results), malformed: Object.freeze(malformed) });
  }

  const context = oracleContext(view, policy);
  const registry = options.oracles ?? BUILT_IN_REGISTRY;
  const results = claims.map((claim) => decide(claim, view, context, registry));
  // Frozen: the panel hands the same report to every lens, so no lens can change what the next one reads.
  return Object.freeze({ recordId: view.id, approved: results.every((r) => !r.required || r.status === 'proven'), claims: Object.freeze(results), malformed: Object.freeze(malformed) });
}

/**
 * The policy with defaults filled in. A value out of range (NaN above all, which would quietly
 * switch a floor off) is a programmer error, thrown as a RangeError.
 */
function evidencePolicy(given: Partial<EvidencePolicy> | undefined): EvidencePolicy {
  const policy: EvidencePolicy = { ...DEFAULT_EVIDENCE_POLICY, ...given };
  const unit = (value: number) => value >= 0 && value <= 1;
  const problems = [
    unit(policy.minConfidence) ? '' : `minConfidence must be in [0, 1], got ${policy.minConfidence}`,
    unit(policy.minStrength) ? '' : `minStrength must be in [0, 1], got ${policy.minStrength}`,
    Number.isInteger(policy.minKinds) && policy.minKinds >= 1 ? '' : `minKinds must be a whole number of at least 1, got ${policy.minKinds}`,
    policy.maxSourceShare > 0 && policy.maxSourceShare <= 1 ? '' : `maxSourceShare must be in (0, 1], got ${policy.maxSourceShare}`,
  ].filter(Boolean);
  if (problems.length > 0) throw new RangeError(`verifyDecision: invalid evidence policy: ${problems.join('; ')}`);
  return policy;
}

/** The claims every record is checked for, one per built-in oracle. */
function builtInClaims(view: DecisionView, policy: EvidencePolicy): Claim[] {
  // Listed before the shape is checked: the consensus may be anything, even null.
  const consensus: unknown = view.consensus;
  const { status, verdict, score } = (consensus !== null && typeof consensus === 'object' ? consensus : {}) as { status?: unknown; verdict?: unknown; score?: unknown };
  const expected: Record<(typeof BUILT_IN_ORACLES)[number]['kind'], Claim['expected']> = {
    quorum_met: view.minValidVotes,
    verdict_matches_score: (verdict ?? null) as Claim['expected'],
    score_matches_votes: status === 'scored' ? ((score ?? null) as Claim['expected']) : null,
    members_self_consistent: true,
    evidence_present: true,
    evidence_clears_floors: { minConfidence: policy.minConfidence, minStrength: policy.minStrength },
    go_has_validation: true,
    evidence_diverse: { minKinds: policy.minKinds, maxSourceShare: policy.maxSourceShare },
  };
  return BUILT_IN_ORACLES.map((oracle) => Object.freeze({ id: oracle.kind, kind: oracle.kind, subject: 'record', expected: Object.freeze(expected[oracle.kind]) }));
}

function oracleContext(view: DecisionView, policy: EvidencePolicy): OracleContext {
  let recomputed: ConsensusResult | undefined;
  return Object.freeze({
    policy: Object.freeze(policy),
    recomputed: () => (recomputed ??= deepFreeze(aggregateConsensus(view.votes, { rubric: view.rubric, minValidVotes: view.minValidVotes }))),
  });
}

/** Runs one oracle and never lets it approve by accident: a throw or a non-finding is unprovable. */
function decide(claim: Claim, view: DecisionView, context: OracleContext, registry: OracleRegistry): ClaimResult {
  // A built-in claim kind is always decided by its built-in oracle, whatever the registry says.
  const oracle = BUILT_IN_REGISTRY.get(claim.kind) ?? registry.get(claim.kind);
  if (!oracle) return result(claim, '(none)', { status: 'unprovable', reason: `no oracle proves claims of kind "${claim.kind}"` });
  let finding: OracleFinding | undefined;
  try {
    // Read once, inside the try: a finding whose getters throw or change their answer proves nothing.
    finding = asFinding(oracle.prove(claim, view, context));
  } catch (thrown) {
    // The view is frozen, so an oracle that tries to change the record throws and lands here.
    return result(claim, oracle.name, { status: 'unprovable', reason: `the oracle threw: ${message(thrown)}` });
  }
  if (finding === undefined) return result(claim, oracle.name, { status: 'unprovable', reason: 'the oracle returned something that is not a finding' });
  return result(claim, oracle.name, finding);
}

function result(claim: Claim, oracle: string, finding: OracleFinding): ClaimResult {
  // A malformed record's claims may be anything, even null: such a claim is required.
  const required = (claim as Partial<Claim> | null)?.required !== false;
  const { status, reason, details } = finding;
  return Object.freeze(details === undefined ? { claim, oracle, required, status, reason } : { claim, oracle, required, status, reason, details });
}

/** A copy of what an oracle returned if it is a finding (each field read once), else undefined. */
function asFinding(value: unknown): OracleFinding | undefined {
  if (typeof value !== 'object' || value === null || typeof (value as { then?: unknown }).then === 'function') return undefined;
  const { status, reason, details } = value as { status?: unknown; reason?: unknown; details?: unknown };
  if (!STATUSES.includes(status as ClaimStatus) || typeof reason !== 'string') return undefined;
  return details === undefined ? { status: status as ClaimStatus, reason } : { status: status as ClaimStatus, reason, details: details as JsonValue };
}

/** Freezes an object the verifier made, and everything in it not frozen already (the view's scores are). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    if (Array.isArray(value)) for (let i = 0; i < value.length; i += 1) deepFreeze(value[i]);
    else for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

function safeId(record: unknown): string {
  try {
    const id = (record as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}

function message(thrown: unknown): string {
  try {
    return thrown instanceof Error ? thrown.message : String(thrown);
  } catch {
    return 'unprintable error';
  }
}

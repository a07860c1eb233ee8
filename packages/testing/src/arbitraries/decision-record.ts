import { aggregateConsensus, MIN_VALID_VOTES, PRODUCT_RUBRIC, type Rubric, type Verdict, type Vote } from '@conclave/scoring';
import {
  EVIDENCE_KINDS,
  TIERS,
  type Claim,
  type DecisionRecord,
  type Evidence,
  type EvidenceKind,
  type RecordedVote,
  type Tier,
  type ValidationSignal,
} from '@conclave/verifier';
import * as fc from 'fast-check';
import { rubric as rubricArb } from './rubric.js';
import { votes as votesArb } from './vote.js';

/** Constraints on a generated validation signal. */
export interface ValidationSignalConstraints {
  /** Whether the gate or test passed. Default: either. */
  readonly passed?: boolean;
  /** Sometimes attach a free-text `detail`. Default true. */
  readonly withProse?: boolean;
}

/** Constraints on one generated piece of evidence. */
export interface EvidenceConstraints {
  /** Pick the kind from these. Default: every evidence kind. */
  readonly kinds?: readonly EvidenceKind[];
  /** Pick the source id from these. Default: a small pool (so sources repeat) or any string. */
  readonly sourceIds?: readonly string[];
  /** Lowest strength, in [0, 1]. Default 0. */
  readonly minStrength?: number;
  /** Highest strength, in [0, 1]. Default 1. */
  readonly maxStrength?: number;
  /** Lowest confidence, in [0, 1]. Default 0. */
  readonly minConfidence?: number;
  /** Highest confidence, in [0, 1]. Default 1. */
  readonly maxConfidence?: number;
  /**
   * Which validation signals to attach: `none` (no `validation` key), `failing` (only failed
   * signals, possibly none), `passing` (at least one passed signal) or `any` (the default).
   */
  readonly validation?: 'none' | 'failing' | 'passing' | 'any';
  /** Sometimes attach a free-text `statement` (and signal `detail`s). Default true. */
  readonly withProse?: boolean;
}

/** Constraints on a generated decision record. */
export interface DecisionRecordConstraints {
  /** Use this rubric. Default: a generated rubric, sometimes `PRODUCT_RUBRIC`. */
  readonly rubric?: Rubric;
  /** Use this tier. Default: any of T0–T4. */
  readonly tier?: Tier;
  /** The quorum the consensus is computed with. Default: 3 most of the time, otherwise 1–5. */
  readonly minValidVotes?: number;
  /** Fewest valid votes. Default 0 (raised to the quorum, and to at least 3, by `sound` or `verdict`). */
  readonly minVotes?: number;
  /** Most valid votes. Default 7 (or the floor, if higher). */
  readonly maxVotes?: number;
  /** Mix invalid votes in among the valid ones. Default false. */
  readonly withInvalid?: boolean;
  /** Only records whose (honest, scored) consensus has this verdict. Default: any. */
  readonly verdict?: Verdict;
  /**
   * A record every built-in check passes under the default evidence policy: at least
   * `max(minValidVotes, 3)` valid votes, two or more evidence items with strength and
   * confidence of at least 0.5 from at least two kinds of source, every item from its own
   * source, and a passing validation signal. Default false: evidence of any quality, or none.
   */
  readonly sound?: boolean;
  /** Sometimes fill the free-text fields (rationales, statements, details). Default true. */
  readonly withProse?: boolean;
  /** Attach these claims. Default: none. */
  readonly claims?: readonly Claim[];
}

const SOURCE_POOL = ['src/app.ts', 'gate:build', 'npm test', 'member:alice', 'member:bob', 'docs/adr-7.md', 'bench/p95'];
const SUPPORTS = ['consensus', 'quorum_met', 'go_has_validation', 'latency-budget'];

/** Free text, present or not: what the verifier must never read. */
function prose(withProse: boolean): fc.Arbitrary<string | undefined> {
  return withProse ? fc.option(fc.string({ maxLength: 40 }), { nil: undefined }) : fc.constant(undefined);
}

function unit(min: number, max: number, name: string): fc.Arbitrary<number> {
  if (!(min >= 0 && max <= 1 && min <= max))
    throw new RangeError(`evidence(): need 0 <= min${name} <= max${name} <= 1, got ${min} and ${max}`);
  const edges = [0, 0.5, 1].filter((x) => x >= min && x <= max);
  const any = fc.double({ min, max, noNaN: true }).map((x) => x + 0);
  return edges.length === 0 ? any : fc.oneof(any, fc.constantFrom(...edges));
}

/** A gate or test signal: `{ kind, name, passed }`, sometimes with a free-text `detail`. */
export function validationSignal(constraints: ValidationSignalConstraints = {}): fc.Arbitrary<ValidationSignal> {
  return fc
    .record({
      kind: fc.constantFrom('gate' as const, 'test' as const),
      name: fc.constantFrom('npm test', 'gate:build', 'gate:lint', 'e2e', 'typecheck'),
      passed: constraints.passed === undefined ? fc.boolean() : fc.constant(constraints.passed),
      detail: prose(constraints.withProse ?? true),
    })
    .map(({ detail, ...signal }) => (detail === undefined ? signal : { ...signal, detail }));
}

/**
 * One structured piece of evidence within the constraints: a kind, a source id, strength and
 * confidence in [0, 1] (often exactly 0, 0.5 or 1), the claim it supports, validation signals
 * and, sometimes, a free-text statement.
 */
export function evidence(constraints: EvidenceConstraints = {}): fc.Arbitrary<Evidence> {
  const kinds = constraints.kinds ?? EVIDENCE_KINDS;
  if (kinds.length === 0) throw new RangeError('evidence(): kinds must not be empty');
  const withProse = constraints.withProse ?? true;
  const signal = (passed?: boolean) => validationSignal({ withProse, ...(passed === undefined ? {} : { passed }) });
  const mode = constraints.validation ?? 'any';
  const validation: fc.Arbitrary<ValidationSignal[] | undefined> =
    mode === 'none'
      ? fc.constant(undefined)
      : mode === 'failing'
        ? fc.option(fc.array(signal(false), { maxLength: 3 }), { nil: undefined })
        : mode === 'passing'
          ? fc
              .tuple(signal(true), fc.array(signal(), { maxLength: 2 }))
              .chain(([pass, others]) =>
                fc.shuffledSubarray([pass, ...others], { minLength: others.length + 1, maxLength: others.length + 1 }),
              )
          : fc.option(fc.array(signal(), { maxLength: 3 }), { nil: undefined });
  const sourceId =
    constraints.sourceIds === undefined
      ? fc.oneof(
          { arbitrary: fc.constantFrom(...SOURCE_POOL), weight: 4 },
          { arbitrary: fc.string({ minLength: 1, maxLength: 10 }), weight: 1 },
        )
      : fc.constantFrom(...constraints.sourceIds);
  return fc
    .record({
      id: fc.nat({ max: 9999 }).map((n) => `ev-${n}`),
      sourceId,
      kind: fc.constantFrom(...kinds),
      strength: unit(constraints.minStrength ?? 0, constraints.maxStrength ?? 1, 'Strength'),
      confidence: unit(constraints.minConfidence ?? 0, constraints.maxConfidence ?? 1, 'Confidence'),
      supports: fc.constantFrom(...SUPPORTS),
      validation,
      statement: prose(withProse),
    })
    .map(({ validation, statement, ...item }) => ({
      ...item,
      ...(validation === undefined ? {} : { validation }),
      ...(statement === undefined ? {} : { statement }),
    }));
}

/**
 * Evidence that passes every built-in evidence check under the default policy: 2–5 items, each
 * from its own source, strength and confidence at least 0.5, at least two kinds of source, and
 * at least one passing validation signal.
 */
export function soundEvidence(constraints: { readonly withProse?: boolean } = {}): fc.Arbitrary<Evidence[]> {
  const withProse = constraints.withProse ?? true;
  const solid = evidence({ minStrength: 0.5, minConfidence: 0.5, withProse });
  return fc
    .record({
      items: fc.array(solid, { minLength: 2, maxLength: 5 }),
      twoKinds: fc.uniqueArray(fc.constantFrom(...EVIDENCE_KINDS), { minLength: 2, maxLength: 2 }),
      pass: validationSignal({ passed: true, withProse }),
      carrier: fc.nat(),
    })
    .map(({ items, twoKinds, pass, carrier }) => {
      const at = carrier % items.length;
      return items.map((item, i) => ({
        ...item,
        id: `ev-${i}`,
        sourceId: `${item.sourceId}#${i}`,
        kind: i < 2 ? (twoKinds[i] as EvidenceKind) : item.kind,
        ...(i === at ? { validation: [...(item.validation ?? []), pass] } : {}),
      }));
    });
}

/** Options for `buildDecisionRecord`. */
export interface BuildDecisionRecordOptions<A extends string> {
  readonly id?: string;
  readonly tier?: Tier;
  readonly rubric: Rubric<A>;
  readonly votes: readonly RecordedVote<A>[];
  readonly minValidVotes?: number;
  readonly evidence?: readonly Evidence[];
  readonly claims?: readonly Claim[];
  readonly rationale?: string;
}

/**
 * An honest record: the consensus is what `aggregateConsensus` makes of the votes. Tamper with
 * a copy of it to get a maker who lied.
 */
export function buildDecisionRecord<A extends string>(options: BuildDecisionRecordOptions<A>): DecisionRecord<A> {
  const minValidVotes = options.minValidVotes ?? MIN_VALID_VOTES;
  return {
    id: options.id ?? 'decision-1',
    tier: options.tier ?? 'T1',
    rubric: options.rubric,
    minValidVotes,
    votes: options.votes,
    consensus: aggregateConsensus(options.votes as readonly Vote<A>[], { rubric: options.rubric, minValidVotes }),
    evidence: options.evidence ?? [],
    ...(options.claims === undefined ? {} : { claims: options.claims }),
    ...(options.rationale === undefined ? {} : { rationale: options.rationale }),
  };
}

/** Score bounds that can only give `verdict` (before the consensus is checked). */
function scoreBounds(r: Rubric, verdict: Verdict | undefined): { minScore: number; maxScore: number } | undefined {
  const { go, pivot } = r.thresholds;
  const gap = 1e-6;
  if (verdict === undefined) return { minScore: 0, maxScore: 10 };
  if (verdict === 'GO') return { minScore: go, maxScore: 10 };
  if (verdict === 'PIVOT') return go - gap > pivot ? { minScore: pivot, maxScore: go - gap } : undefined;
  return pivot - gap > 0 ? { minScore: 0, maxScore: pivot - gap } : undefined;
}

/**
 * A decision record whose consensus is honest (what `aggregateConsensus` makes of its votes),
 * with evidence of any quality unless `sound`, a tier, and free text in the prose fields.
 * Tamper with copies of it for the negative cases.
 *
 * @example
 * fc.assert(fc.property(decisionRecord({ sound: true }), (record) => {
 *   expect(verifyDecision(record).approved).toBe(true);
 * }));
 */
export function decisionRecord(constraints: DecisionRecordConstraints = {}): fc.Arbitrary<DecisionRecord> {
  const sound = constraints.sound ?? false;
  const withProse = constraints.withProse ?? true;
  const { verdict } = constraints;
  const rubrics: fc.Arbitrary<Rubric> =
    constraints.rubric === undefined
      ? fc.oneof({ arbitrary: rubricArb({ maxAxes: 4 }), weight: 3 }, { arbitrary: fc.constant(PRODUCT_RUBRIC as Rubric), weight: 1 })
      : fc.constant(constraints.rubric);
  const quorums =
    constraints.minValidVotes === undefined
      ? fc.oneof({ arbitrary: fc.constant(MIN_VALID_VOTES), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 1 })
      : fc.constant(constraints.minValidVotes);
  const scored = sound || verdict !== undefined;

  return fc
    .tuple(
      rubrics.filter((r) => scoreBounds(r, verdict) !== undefined),
      quorums,
    )
    .chain(([r, minValidVotes]) => {
      const floor = scored ? Math.max(minValidVotes, MIN_VALID_VOTES, constraints.minVotes ?? 0) : (constraints.minVotes ?? 0);
      const ceiling = Math.max(constraints.maxVotes ?? 7, floor);
      const bounds = scoreBounds(r, verdict) as { minScore: number; maxScore: number };
      return fc.record({
        id: fc.constantFrom('decision-1', 'decision-2', 'release-42'),
        tier: constraints.tier === undefined ? fc.constantFrom(...TIERS) : fc.constant(constraints.tier),
        rubric: fc.constant(r),
        minValidVotes: fc.constant(minValidVotes),
        votes: fc
          .boolean()
          .chain((withWeight) =>
            votesArb(r, { minLength: floor, maxLength: ceiling, withWeight, withInvalid: constraints.withInvalid ?? false, ...bounds }),
          ),
        rationales: fc.array(prose(withProse), { minLength: ceiling + 4, maxLength: ceiling + 4 }),
        evidence: sound ? soundEvidence({ withProse }) : fc.array(evidence({ withProse }), { maxLength: 5 }),
        rationale: prose(withProse),
      });
    })
    .map(({ votes, rationales, rationale, ...rest }) => {
      const recorded = votes.map((v, i) => {
        const text = rationales[i];
        return text === undefined || typeof v !== 'object' || v === null ? v : { ...v, rationale: text };
      });
      return buildDecisionRecord({
        ...rest,
        votes: recorded,
        ...(constraints.claims === undefined ? {} : { claims: constraints.claims }),
        ...(rationale === undefined ? {} : { rationale }),
      });
    })
    .filter((record) => verdict === undefined || (record.consensus.status === 'scored' && record.consensus.verdict === verdict));
}

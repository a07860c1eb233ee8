import type { ConsensusResult, Verdict } from '@conclave/scoring';
import type { Claim, ClaimResult, JsonValue, OracleFinding } from './claim.js';
import type { DecisionRecord } from './decision-record.js';
import { flatPrivateView, freezeView, privateView, type DecisionView, type FlatView } from './decision-view.js';
import { exactCalibrated } from './exact/exact-calibrated.js';
import { exactConsensus, exactTally, exactTallyOfFlat, withMembers, type ScoredTally, type Tally } from './exact/exact-consensus.js';
import { flatVoteObjects, type FlatVotes } from './exact/flat-record.js';
import { PreRead } from './exact/pre-read.js';
import { FLAT, TALLY, type FlatContext, type TallyContext } from './exact/tally-of.js';
import { freezeOnce } from './freeze-once.js';
import { copyDetails } from './finding-details.js';
import { DEFAULT_EVIDENCE_POLICY, type EvidencePolicy, type Oracle, type OracleContext } from './oracle.js';
import { BUILT_IN_REGISTRY, type OracleRegistry } from './oracle-registry.js';
import { BUILT_IN_ORACLES } from './oracles/built-in.js';
import { thrownMessage } from './thrown-message.js';
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
  /**
   * True only when the record is well formed and every required claim is proven: the record is
   * sound. A sound record may well say PIVOT or NO_GO, so `approved` alone is never a yes to act;
   * that needs `approved && verdict === 'GO'` (the emission gate's `mayAct`, ADR 0022).
   */
  readonly approved: boolean;
  /**
   * The verdict the verifier stands behind: the one it recomputed from the votes when the record
   * states the same; NO_GO when the record is malformed, has no quorum, or states another verdict.
   */
  readonly verdict: Verdict;
  /** Every claim checked, built-in ones first, with its status, oracle and reason. */
  readonly claims: readonly ClaimResult[];
  /** Why the record could not be read as a DecisionRecord; empty when it could. */
  readonly malformed: readonly string[];
}

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
  return lent((preRead) => verifyFlat(record, options, preRead) ?? verifyRead(record, options, preRead).report);
}

/**
 * `verifyDecision`, also handing back the view it checked (absent when the record could not be
 * read), so the panel's lenses judge the very same snapshot. The view is private: whoever hands
 * it to code other than the verifier's own freezes it first (`freezeView`). Internal to the package.
 */
export function verifyWithView(record: DecisionRecord, options: VerifyOptions): { report: VerificationReport; view?: DecisionView } {
  return lent((preRead) => verifyRead(record, options, preRead));
}

/** Runs `use` with the space a verification reads into, lent for it only: given back however it ends (see `PreRead`). */
function lent<T>(use: (preRead: PreRead) => T): T {
  const preRead = PreRead.take();
  try {
    return use(preRead);
  } finally {
    preRead.give();
  }
}

/**
 * The verification of a record of the usual shape, read flat (ADR 0049); undefined when the
 * record has another shape (or reading it throws), and it is read into the general view. Its
 * view holds no votes or members, so it is never handed on: `verifyWithView` does not use it.
 */
function verifyFlat(record: DecisionRecord, options: VerifyOptions, preRead: PreRead): VerificationReport | undefined {
  let read: FlatView | undefined;
  let tally: ScoredTally | undefined;
  try {
    read = flatPrivateView(record, preRead);
    if (read === undefined) return undefined;
    tally = exactTallyOfFlat(read.votes, read.view.rubric, read.view.minValidVotes);
  } catch {
    return undefined;
  }
  if (tally === undefined) return undefined;
  const { view, votes } = read;
  const policy = policyOf(options);
  return checkView(view, record, options, NO_CLAIMS, policy, new FlatBuiltInContext(view, policy, votes, tally));
}

function verifyRead(record: DecisionRecord, options: VerifyOptions, preRead: PreRead): { report: VerificationReport; view?: DecisionView } {
  let view: DecisionView;
  try {
    view = privateView(record, preRead);
  } catch (thrown) {
    return {
      report: {
        recordId: safeId(record),
        approved: false,
        verdict: 'NO_GO',
        claims: [],
        malformed: [`the record cannot be read: ${thrownMessage(thrown)}`],
      },
    };
  }
  return { report: verifyView(view, record, options, preRead), view };
}

function verifyView(view: DecisionView, record: DecisionRecord, options: VerifyOptions, preRead: PreRead): VerificationReport {
  const policy = policyOf(options);
  // Built-in oracles read the private view and the recomputed consensus as they are (they are
  // the verifier's own code and only read; a test runs them on frozen copies to prove it); any
  // other oracle gets the view frozen and a context whose recomputation is deep-frozen first.
  const context = new BuiltInContext(view, policy, preRead);
  try {
    return checkView(view, record, options, view.claims, policy, context);
  } finally {
    // The rows are lent for this verification only; a later recomputation reads the votes.
    context.forgetRows();
  }
}

/** The report on a view, whichever reading made it: malformed, or every claim decided, built-in ones first. */
function checkView(
  view: DecisionView,
  record: DecisionRecord,
  options: VerifyOptions,
  custom: readonly Claim[],
  policy: EvidencePolicy,
  context: OwnContext,
): VerificationReport {
  const builtIn = builtInClaims(view, policy);
  const malformed = recordShapeIssues(view);
  const count = builtIn.length + custom.length;
  const results = new Array<ClaimResult>(count);
  if (malformed.length > 0) {
    for (let i = 0; i < count; i += 1) {
      const claim = i < builtIn.length ? (builtIn[i] as Claim) : (custom[i - builtIn.length] as Claim);
      results[i] = result(claim, '(none)', MALFORMED);
    }
    return { recordId: safeId(record), approved: false, verdict: 'NO_GO', claims: results, malformed };
  }
  return verifyWellFormed(view, options, builtIn, custom, results, context);
}

/** The evidence policy the options ask for, defaults filled in. */
function policyOf(options: VerifyOptions): EvidencePolicy {
  return options.policy === undefined ? DEFAULT_EVIDENCE_POLICY : evidencePolicy(options.policy);
}

/** `verifyView` for a well-formed record: every claim decided, built-in ones first. */
function verifyWellFormed(
  view: DecisionView,
  options: VerifyOptions,
  builtIn: readonly Claim[],
  custom: readonly Claim[],
  results: ClaimResult[],
  context: OwnContext,
): VerificationReport {
  let approved = true;
  for (let i = 0; i < builtIn.length; i += 1) {
    const found = decideWith(builtIn[i] as Claim, BUILT_IN_ORACLES[i] as Oracle, view, context, true);
    results[i] = found;
    if (found.status !== 'proven') approved = false;
  }
  if (custom.length > 0) {
    const registry = options.oracles ?? BUILT_IN_REGISTRY;
    const frozenContext = context.forOthers();
    for (let i = 0; i < custom.length; i += 1) {
      const claim = custom[i] as Claim;
      // A built-in claim kind is always decided by its built-in oracle, whatever the registry says.
      const own = BUILT_IN_REGISTRY.get(claim.kind);
      const oracle = own ?? lookUp(registry, claim.kind);
      const found =
        oracle === undefined
          ? result(claim, '(none)', { status: 'unprovable', reason: `no oracle proves claims of kind "${claim.kind}"` })
          : typeof oracle === 'string'
            ? result(claim, '(none)', { status: 'unprovable', reason: oracle })
            : own === undefined
              ? decideWith(claim, oracle, freezeView(view), frozenContext, false)
              : decideWith(claim, oracle, view, context, true);
      results[builtIn.length + i] = found;
      if (found.required && found.status !== 'proven') approved = false;
    }
  }
  // Not frozen (it is the caller's, and freezing was a tenth of a verification's cost): the
  // panel freezes it with `freezeReport` before any lens but its own reads it.
  return { recordId: view.id, approved, verdict: standingVerdict(view, context), claims: results, malformed: NO_ISSUES };
}

/** What the calibrated decision claims: its verdict, or null when the record uses the mean-score rule. */
function calibratedVerdictOf(view: DecisionView): Claim['expected'] {
  const calibrated: unknown = view.calibrated;
  if (calibrated === undefined) return null;
  const verdict = calibrated !== null && typeof calibrated === 'object' ? (calibrated as { verdict?: unknown }).verdict : undefined;
  return typeof verdict === 'string' ? verdict : 'unreadable';
}

/**
 * The recomputed verdict when the well-formed record states it too; NO_GO otherwise (fail
 * closed). A record decided by the calibrated rule stands on the checker's recomputation of that
 * rule, never on the mean score.
 */
function standingVerdict(view: DecisionView, context: OwnContext): Verdict {
  try {
    const recomputed = context[TALLY]();
    if (recomputed.status !== 'scored') return 'NO_GO';
    if (view.calibrated !== undefined) {
      const checked = exactCalibrated(context.recomputed(), view.calibrated);
      return checked.ok && checked.verdict === (view.calibrated as { verdict?: unknown }).verdict ? checked.verdict : 'NO_GO';
    }
    return recomputed.verdict === view.consensus.verdict ? recomputed.verdict : 'NO_GO';
  } catch {
    return 'NO_GO';
  }
}

/**
 * Freezes a report all the way down, in place (once; later calls return at once), so that code
 * it is handed to cannot change what the next reader sees. Internal to the package.
 */
export const freezeReport: (report: VerificationReport) => VerificationReport = freezeOnce(deepFreeze);

const MALFORMED: OracleFinding = Object.freeze({ status: 'unprovable', reason: 'the record is malformed, see `malformed`' });
const NO_ISSUES: readonly string[] = Object.freeze([]);
const NO_CLAIMS: readonly Claim[] = Object.freeze([]);

/**
 * The policy with defaults filled in. A value out of range (NaN above all, which would quietly
 * switch a floor off) is a programmer error, thrown as a RangeError.
 */
function evidencePolicy(given: Partial<EvidencePolicy>): EvidencePolicy {
  const policy: EvidencePolicy = { ...DEFAULT_EVIDENCE_POLICY, ...given };
  const unit = (value: number) => value >= 0 && value <= 1;
  const problems = [
    unit(policy.minConfidence) ? '' : `minConfidence must be in [0, 1], got ${policy.minConfidence}`,
    unit(policy.minStrength) ? '' : `minStrength must be in [0, 1], got ${policy.minStrength}`,
    Number.isInteger(policy.minKinds) && policy.minKinds >= 1
      ? ''
      : `minKinds must be a whole number of at least 1, got ${policy.minKinds}`,
    policy.maxSourceShare > 0 && policy.maxSourceShare <= 1 ? '' : `maxSourceShare must be in (0, 1], got ${policy.maxSourceShare}`,
  ].filter(Boolean);
  if (problems.length > 0) throw new RangeError(`verifyDecision: invalid evidence policy: ${problems.join('; ')}`);
  return Object.freeze(policy);
}

type BuiltInKind = (typeof BUILT_IN_ORACLES)[number]['kind'];

/** A frozen built-in claim. */
function builtInClaim(kind: BuiltInKind, expected: Claim['expected']): Claim {
  return Object.freeze({ id: kind, kind, subject: 'record', expected: Object.freeze(expected) });
}

/**
 * The last claim made for one kind and what it expected: a claim is frozen data, so the next
 * record expecting the same primitive value gets the very same claim object.
 */
class ClaimSlot {
  #expected: unknown = undefined;
  #claim: Claim | undefined = undefined;
  constructor(readonly kind: BuiltInKind) {}

  claim(expected: Claim['expected']): Claim {
    if (expected !== null && typeof expected === 'object') return builtInClaim(this.kind, expected);
    if (this.#claim !== undefined && Object.is(this.#expected, expected)) return this.#claim;
    const made = builtInClaim(this.kind, expected);
    this.#expected = expected;
    this.#claim = made;
    return made;
  }
}

const QUORUM = new ClaimSlot('quorum_met');
const VERDICT = new ClaimSlot('verdict_matches_score');
const SCORE = new ClaimSlot('score_matches_votes');
const CALIBRATED = new ClaimSlot('calibrated_rule_matches_votes');
const MEMBERS = builtInClaim('members_self_consistent', true);
const PRESENT = builtInClaim('evidence_present', true);
const VALIDATION = builtInClaim('go_has_validation', true);
const floorsClaim = (policy: EvidencePolicy) =>
  builtInClaim('evidence_clears_floors', { minConfidence: policy.minConfidence, minStrength: policy.minStrength });
const diversityClaim = (policy: EvidencePolicy) =>
  builtInClaim('evidence_diverse', { minKinds: policy.minKinds, maxSourceShare: policy.maxSourceShare });
const DEFAULT_FLOORS = floorsClaim(DEFAULT_EVIDENCE_POLICY);
const DEFAULT_DIVERSITY = diversityClaim(DEFAULT_EVIDENCE_POLICY);

/** The claims every record is checked for, one per built-in oracle, in `BUILT_IN_ORACLES` order. */
function builtInClaims(view: DecisionView, policy: EvidencePolicy): readonly Claim[] {
  // Listed before the shape is checked: the consensus may be anything, even null.
  const consensus: unknown = view.consensus;
  const { status, verdict, score } = (consensus !== null && typeof consensus === 'object' ? consensus : {}) as {
    status?: unknown;
    verdict?: unknown;
    score?: unknown;
  };
  const byDefault = policy === DEFAULT_EVIDENCE_POLICY;
  // In `BUILT_IN_ORACLES` order, whatever that is: `verifyView` pairs claim i with oracle i.
  return BUILT_IN_ORACLES.map((oracle): Claim => {
    switch (oracle.kind) {
      case 'quorum_met':
        return QUORUM.claim(view.minValidVotes);
      case 'verdict_matches_score':
        return VERDICT.claim((verdict ?? null) as Claim['expected']);
      case 'score_matches_votes':
        return SCORE.claim(status === 'scored' ? ((score ?? null) as Claim['expected']) : null);
      case 'calibrated_rule_matches_votes':
        return CALIBRATED.claim(calibratedVerdictOf(view));
      case 'members_self_consistent':
        return MEMBERS;
      case 'evidence_present':
        return PRESENT;
      case 'evidence_clears_floors':
        return byDefault ? DEFAULT_FLOORS : floorsClaim(policy);
      case 'go_has_validation':
        return VALIDATION;
      case 'evidence_diverse':
        return byDefault ? DEFAULT_DIVERSITY : diversityClaim(policy);
    }
  });
}

/** The context the verifier gives its own oracles: the tally, and a frozen context for any other oracle. */
interface OwnContext extends OracleContext, TallyContext {
  forOthers(): OracleContext;
}

/**
 * What the built-in oracles get: the policy and the consensus recomputed from the view's votes,
 * once per verification. Built-in oracles only read it, so it is not frozen for them, and they
 * read it as a tally (`[TALLY]`, ADR 0045) where they need no member objects; every other oracle
 * gets `forOthers()`, whose recomputation is deep-frozen before it is handed out, so no oracle
 * can change what the next one reads.
 */
class BuiltInContext implements OwnContext {
  #tally: Tally | undefined = undefined;
  #recomputed: ConsensusResult | undefined = undefined;
  #others: OracleContext | undefined = undefined;
  readonly #view: DecisionView;
  /** The rows the view read as it copied the votes, until they are used or the verification ends. */
  #preRead: PreRead | undefined;
  constructor(
    view: DecisionView,
    readonly policy: EvidencePolicy,
    preRead: PreRead,
  ) {
    this.#view = view;
    this.#preRead = preRead;
  }

  /** The recomputation, members aside: what the built-in oracles read. */
  [TALLY](): Tally {
    if (this.#tally !== undefined) return this.#tally;
    const view = this.#view;
    const preRead = this.#preRead;
    this.#preRead = undefined;
    // The checker's own exact arithmetic, never the maker's `aggregateConsensus` (ADR 0033).
    return (this.#tally = exactTally(view.votes, view.rubric, view.minValidVotes, preRead));
  }

  recomputed(): ConsensusResult {
    return (this.#recomputed ??= withMembers(this[TALLY]()));
  }

  /** Drops the rows the view read: they are lent for one verification only. */
  forgetRows(): void {
    this.#preRead = undefined;
  }

  /** The frozen context any oracle that is not built in gets. */
  forOthers(): OracleContext {
    // The recomputation shares the view's scores objects: the view is frozen first (`freezeView`
    // also strips what only the private view holds), so those are the frozen view's own.
    return (this.#others ??= Object.freeze({
      policy: this.policy,
      recomputed: () => {
        freezeView(this.#view);
        return deepFreeze(this.recomputed());
      },
    }));
  }
}

/**
 * The context of a verification read flat (ADR 0049): the tally made from the flat votes, and
 * the votes themselves (`[FLAT]`) for the members oracle. Only built-in oracles get it (the
 * record has no custom claims). The whole consensus, should one of them ask, is recomputed from
 * vote objects made from the rows it read, during the verification.
 */
class FlatBuiltInContext implements OwnContext, FlatContext {
  readonly [FLAT]: FlatVotes;
  readonly #tally: ScoredTally;
  readonly #view: DecisionView;
  #recomputed: ConsensusResult | undefined = undefined;
  constructor(
    view: DecisionView,
    readonly policy: EvidencePolicy,
    votes: FlatVotes,
    tally: ScoredTally,
  ) {
    this.#view = view;
    this[FLAT] = votes;
    this.#tally = tally;
  }

  [TALLY](): Tally {
    return this.#tally;
  }

  recomputed(): ConsensusResult {
    const { rubric, minValidVotes } = this.#view;
    return (this.#recomputed ??= exactConsensus(flatVoteObjects(this[FLAT], rubric), rubric, minValidVotes));
  }

  /** As `BuiltInContext`'s (a record read flat has no custom claims, so no other oracle asks). */
  forOthers(): OracleContext {
    return Object.freeze({ policy: this.policy, recomputed: () => deepFreeze(this.recomputed()) });
  }
}

/** Runs one oracle and never lets it approve by accident: a throw or a non-finding is unprovable. */
/**
 * One oracle's finding on one claim. A custom oracle (`trusted` false) is foreign code: its name,
 * its `prove`, its finding and the finding's details are each read once inside the guard, and the
 * details copied as JSON data (`copyDetails`), so nothing it returned can throw later.
 */
function decideWith(claim: Claim, oracle: Oracle, view: DecisionView, context: OracleContext, trusted: boolean): ClaimResult {
  let name = UNREADABLE_ORACLE;
  let status: unknown;
  let reason: unknown;
  let details: unknown;
  try {
    const named: unknown = oracle.name;
    name = typeof named === 'string' ? named : UNREADABLE_ORACLE;
    const value: unknown = oracle.prove(claim, view, context);
    if (typeof value !== 'object' || value === null || typeof (value as { then?: unknown }).then === 'function')
      return result(claim, name, NOT_A_FINDING);
    // Read once, inside the try: a finding whose getters throw or change their answer proves nothing.
    ({ status, reason, details } = value as { status?: unknown; reason?: unknown; details?: unknown });
    if (!trusted && details !== undefined) {
      const copied = copyDetails(details);
      if (!copied.ok) return result(claim, name, { status: 'unprovable', reason: `the oracle's finding cannot be read: ${copied.reason}` });
      details = copied.value;
    }
  } catch (thrown) {
    // The view is frozen, so an oracle that tries to change the record throws and lands here.
    return result(claim, name, { status: 'unprovable', reason: `the oracle threw: ${thrownMessage(thrown)}` });
  }
  if ((status !== 'proven' && status !== 'refuted' && status !== 'unprovable') || typeof reason !== 'string')
    return result(claim, name, NOT_A_FINDING);
  const required = (claim as Partial<Claim> | null)?.required !== false;
  return details === undefined
    ? { claim, oracle: name, required, status, reason }
    : { claim, oracle: name, required, status, reason, details: details as JsonValue };
}

/** The name a custom oracle is recorded under when its own cannot be read. */
const UNREADABLE_ORACLE = '(unnamed oracle)';

/** The registry's oracle for a claim kind; a registry is foreign code, so a throw is the reason there is none. */
function lookUp(registry: OracleRegistry, kind: string): Oracle | string | undefined {
  try {
    return registry.get(kind);
  } catch (thrown) {
    return `the oracle registry threw: ${thrownMessage(thrown)}`;
  }
}

const NOT_A_FINDING: OracleFinding = Object.freeze({ status: 'unprovable', reason: 'the oracle returned something that is not a finding' });

function result(claim: Claim, oracle: string, finding: OracleFinding): ClaimResult {
  // A malformed record's claims may be anything, even null: such a claim is required.
  const required = (claim as Partial<Claim> | null)?.required !== false;
  const { status, reason, details } = finding;
  return details === undefined ? { claim, oracle, required, status, reason } : { claim, oracle, required, status, reason, details };
}

/** Freezes an object the verifier made, and everything in it not frozen already (the view's scores, a report's claims). */
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

import type { ModelAdapter } from '@conclave/core';
import type { Verdict } from '@conclave/scoring';
import type { GateEvidence } from '../gates/gate-evidence.js';
import type { GateRunReport } from '../gates/run-gates.js';
import { proveCompletion, type CompletionFacts } from '../judgement/completion-proof.js';
import { FingerprintTracker, failureFingerprint } from '../judgement/fingerprint.js';
import type { GrantStrategy } from '../judgement/grants.js';
import { buildInputPack, excerptOf, workspaceDiff, type InputPackLimits, type SpecExcerpt } from '../judgement/input-pack.js';
import { buildStateFromCommand, runVerificationRound, verifierEvidence, type VerificationRound } from '../judgement/neural-verifiers.js';
import { decide, defaultRules, type Judgement, type JudgementState, type Rule, type RuleOptions } from '../judgement/rule-table.js';
import type { RelatedSpecs } from '../judgement/related-specs.js';
import type { SplitPlanner } from '../judgement/split-planner.js';
import type { BuildState } from '../judgement/verifier-schemas.js';
import type { Tier } from '@conclave/verifier';
import { exchangesCostUsd } from '../model/ask-structured.js';
import type { BundleJudgement, EvidenceBundle } from './evidence-store.js';
import { taskBaseRef } from './git.js';
import type { JudgedAttempt } from './loop-step.js';
import type { TaskContext } from './task-context.js';

/** A council reviewing completions: asked once per attempt the gates passed; only its GO counts. */
export type ReviewGate = (input: {
  readonly task: TaskContext;
  readonly attempt: number;
  readonly diff: string;
  readonly gates: readonly GateEvidence[];
}) => Promise<ReviewVerdict>;

/** A review board's verdict, as the loop records it. Anything but `GO` is not a completion. */
export interface ReviewVerdict {
  readonly verdict: Verdict;
  readonly score?: number;
  /** Members whose own verdict differs from the board's, with theirs. */
  readonly dissent: readonly string[];
  /** What the review's model calls cost, when they were priced: the run's cost budget counts it. */
  readonly costUsd?: number;
}

/** The task loop's judgement: neural verifiers that emit state, the rule table that decides, splits. */
export interface JudgementOptions {
  /** The model behind the neural verifiers (build at depth > 0, alignment, bigPicture, style). */
  readonly verifiers: ModelAdapter;
  /** Synthesises a split's child specs (default: `createModelSplitPlanner(verifiers)`). */
  readonly splitPlanner?: SplitPlanner;
  /** The rule table (default `defaultRules` with `ruleOptions`, the spec's `maxDepth` and the task's attempts). */
  readonly rules?: readonly Rule[];
  readonly ruleOptions?: RuleOptions;
  /**
   * The build the depth-0 build verifier runs (checked against the command policy like a shell
   * gate). Without it, the shell gates that ran are the build.
   */
  readonly buildCommand?: string;
  /** Caps on the verifiers' input pack. */
  readonly limits?: InputPackLimits;
  /** Deadline of each verifier call (default `safeRun`'s). */
  readonly timeoutMs?: number;
  /** How a split child's grants derive from its parent's: `inherit` (default), `restrict`, or your own strategy. */
  readonly grants?: 'inherit' | 'restrict' | GrantStrategy;
  /** A council board as a review gate (see `councilReviewGate`). */
  readonly review?: ReviewGate;
}

/** Everything the judge step reads. */
export interface JudgeInput {
  readonly workspace: string;
  readonly runId: string;
  readonly tier: Tier;
  readonly task: TaskContext;
  readonly attempt: number;
  readonly report: GateRunReport;
  /** Whether the builder ran properly; undefined for a re-verification. */
  readonly builderOk?: boolean;
  readonly specSha256: CompletionFacts['specSha256'];
  readonly ledgerUntampered: boolean;
  /** The task's earlier attempts, oldest first, for the failure fingerprint's repeat count. */
  readonly earlier: readonly EvidenceBundle[];
  readonly parent?: TaskContext;
  /** The tasks that come after this one in the plan (titles only: excerpts, never whole specs). */
  readonly next: readonly SpecExcerpt[];
  /** The spec's related specs (`relationships`), as excerpts; the parent spec stands in for a parent task at depth 0. */
  readonly related?: RelatedSpecs;
  readonly maxDepth: number;
  readonly policy: Readonly<Record<string, string | number | boolean>>;
  readonly judgement?: JudgementOptions;
  /** Runs the configured build command as a shell gate; undefined when none is configured. */
  readonly runBuild?: () => Promise<GateEvidence>;
  readonly signal?: AbortSignal;
}

/** The judge step's conclusion for the pure step, the bundle's account, and the files to keep. */
export interface JudgeOutput {
  readonly judged: JudgedAttempt;
  readonly bundle: BundleJudgement;
  readonly files: Readonly<Record<string, string>>;
  /** The rule table's judgement and the fingerprint's messages, for a split's request. */
  readonly judgement?: Judgement;
  readonly fingerprintMessages: readonly string[];
}

/**
 * The judge step of one attempt. With verifiers configured: the input pack over the task's real
 * diff, the verification round (the depth-0 build really runs), the failure fingerprint and the
 * rule table. Always: the kernel's completion proof over the gate evidence, the spec hash and the
 * ledger check (with the rule table's outcome and the review board's verdict as further checks).
 * Verifiers emit state; the rule table and the kernel decide.
 */
export async function judgeAttempt(input: JudgeInput): Promise<JudgeOutput> {
  const { task, judgement } = input;
  const failedGates = input.report.gates.filter((gate) => !gate.passed);
  let ruled: Judgement | undefined;
  let round: VerificationRound | undefined;
  let fingerprint: { value?: string; repeats: number; messages: readonly string[] } = { repeats: 0, messages: [] };
  let diffText = '';
  const files: Record<string, string> = {};

  if (judgement !== undefined) {
    const diff = await workspaceDiff(input.workspace, await taskBaseRef(input.workspace, task.taskId));
    diffText = diff.diff;
    {
      const build = task.depth === 0 ? await depthZeroBuild(input) : undefined;
      const parentExcerpt =
        input.parent === undefined ? input.related?.parent : { spec: input.parent.taskId, excerpt: excerptOf(input.parent) };
      const packed = buildInputPack(
        {
          spec: { id: task.taskId, title: task.title, acceptance: task.acceptance, constraints: task.constraints },
          depth: task.depth,
          attempt: input.attempt,
          budgets: { maxRetries: task.maxRetries, maxDepth: input.maxDepth },
          changedFiles: diff.changedFiles,
          diff: diff.diff,
          ...(parentExcerpt === undefined ? {} : { parentExcerpt }),
          nextExcerpts: [...input.next, ...(input.related?.next ?? [])],
          ...(input.related === undefined || input.related.unavailable.length === 0
            ? {}
            : { unavailableRelations: input.related.unavailable }),
          policy: input.policy,
        },
        judgement.limits,
      );
      round = await runVerificationRound(judgement.verifiers, packed.pack, {
        ...(build === undefined ? {} : { build: build.state }),
        ...(judgement.timeoutMs === undefined ? {} : { timeoutMs: judgement.timeoutMs }),
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
      const print = failureFingerprint({ ...round.states, gateReasons: failedGates.map((gate) => `${gate.name}: ${gate.reason}`) });
      let tracker = new FingerprintTracker();
      for (const bundle of input.earlier) tracker = tracker.observe(bundle.judgement?.fingerprint);
      tracker = tracker.observe(print.fingerprint);
      fingerprint = {
        ...(print.fingerprint === undefined ? {} : { value: print.fingerprint }),
        repeats: tracker.repeats,
        messages: print.messages,
      };
      const state: JudgementState = {
        depth: task.depth,
        attempt: input.attempt,
        ...round.states,
        failures: round.failures,
        fingerprintRepeats: tracker.repeats,
        acceptance: task.acceptance,
        ...(input.report.gates.length === 0
          ? {}
          : { gates: { passed: failedGates.length === 0, failed: failedGates.map((gate) => `${gate.name} (${gate.reason})`) } }),
      };
      const rules =
        judgement.rules ?? defaultRules({ ...judgement.ruleOptions, maxDepth: input.maxDepth, maxAttempts: task.maxRetries + 1 });
      ruled = decide(state, rules);
      // At depth 0 the build is no model's report: keep what really ran beside the verifiers' results.
      const built = task.depth === 0 ? { build: build ?? { source: 'none', state: null } } : {};
      files['verifiers.json'] =
        `${JSON.stringify({ pack: packed.pack, capped: packed.capped, stats: packed.stats, ...built, results: round.results.map(verifierEvidence), judgement: ruled }, null, 2)}\n`;
    }
  }

  const review =
    judgement?.review !== undefined && failedGates.length === 0
      ? await safeReview(judgement.review, { task, attempt: input.attempt, diff: diffText, gates: input.report.gates })
      : undefined;
  const proof = proveCompletion({
    runId: input.runId,
    taskId: task.taskId,
    attempt: input.attempt,
    tier: input.tier,
    gates: input.report.gates,
    ...(input.builderOk === undefined ? {} : { builderOk: input.builderOk }),
    specSha256: input.specSha256,
    ledgerUntampered: input.ledgerUntampered,
    ...(ruled === undefined ? {} : { judgement: ruled.outcome }),
    ...(review === undefined ? {} : { review: { go: review.verdict === 'GO' } }),
  });
  files['completion.json'] =
    `${JSON.stringify({ record: proof.record, report: proof.report, ...(proof.panel === undefined ? {} : { panel: proof.panel }), ...(review === undefined ? {} : { review }) }, null, 2)}\n`;

  const unproven = proof.report.claims
    .filter((claim) => claim.status !== 'proven')
    .map((claim) => ({ claim: claim.claim.kind, status: claim.status, reason: claim.reason }));
  // The next attempt's feedback beyond the failed gates, which the feedback already lists.
  const reasons = [
    ...(ruled !== undefined && ruled.outcome !== 'done' ? ruled.reasons.filter((reason) => !reason.startsWith('gate failed: ')) : []),
    ...unproven.filter((claim) => claim.claim !== 'completion_gates_passed').map((claim) => `${claim.claim}: ${claim.reason}`),
    ...(review !== undefined && review.verdict !== 'GO' ? [`the review board said ${review.verdict}`] : []),
  ];
  const costs = [exchangesCostUsd((round?.results ?? []).flatMap((result) => result.exchanges)), review?.costUsd].filter(
    (cost): cost is number => cost !== undefined,
  );
  const bundle: BundleJudgement = {
    complete: proof.complete,
    unproven,
    ...(proof.panel === undefined ? {} : { panel: proof.panel.status }),
    ...(ruled === undefined
      ? {}
      : {
          outcome: ruled.outcome,
          ruleId: ruled.ruleId,
          reasons: ruled.reasons,
          warnings: ruled.warnings,
          ...(fingerprint.value === undefined ? {} : { fingerprint: fingerprint.value }),
          fingerprintRepeats: fingerprint.repeats,
          verifierFailures: (round?.failures ?? []).map((failure) => `${failure.verifier}: ${failure.kind}: ${failure.message}`),
        }),
    ...(costs.length === 0 ? {} : { costUsd: costs.reduce((a, b) => a + b, 0) }),
    ...(review === undefined
      ? {}
      : { review: { verdict: review.verdict, ...(review.score === undefined ? {} : { score: review.score }), dissent: review.dissent } }),
  };
  return {
    judged: {
      complete: proof.complete,
      ...(ruled === undefined
        ? {}
        : {
            outcome: ruled.outcome,
            ...(ruled.outcome === 'give_up'
              ? { giveUp: ruled.ruleId === 'give-up-depth-limit' ? ('max_depth' as const) : ('gave_up' as const) }
              : {}),
          }),
      reasons,
    },
    bundle,
    files,
    ...(ruled === undefined ? {} : { judgement: ruled }),
    fingerprintMessages: fingerprint.messages,
  };
}

/**
 * The depth-0 build as it really ran: the state the rule table reads, where it came from, and the
 * build command's own run (exit code, output, reason) when one is configured; the shell gates'
 * runs are already in the attempt's evidence, so they are named only.
 */
type DepthZeroBuild =
  | { readonly source: 'build_command'; readonly state: BuildState; readonly command: GateEvidence }
  | { readonly source: 'shell_gates'; readonly state: BuildState; readonly gates: readonly string[] };

/**
 * The depth-0 build: the configured build command really runs; without one, the shell gates that
 * ran are the build (they really ran too). No shell gate and no command: no state, which the rule
 * table never counts as passing.
 */
async function depthZeroBuild(input: JudgeInput): Promise<DepthZeroBuild | undefined> {
  if (input.runBuild !== undefined) {
    const command = await input.runBuild();
    return { source: 'build_command', state: buildStateOf([command]), command };
  }
  const ran = input.report.gates.filter((gate) => gate.type === 'shell');
  return ran.length === 0 ? undefined : { source: 'shell_gates', state: buildStateOf(ran), gates: ran.map((gate) => gate.name) };
}

/** One build state from the shell runs that make up the build. */
function buildStateOf(ran: readonly GateEvidence[]): BuildState {
  const failing = ran.find((gate) => !gate.passed);
  const states = ran.map((gate) =>
    buildStateFromCommand({
      exitCode: gate.exitCode ?? null,
      stdout: gate.stdout ?? '',
      stderr: gate.stderr ?? '',
      durationMs: gate.durationMs,
      command: gate.command ?? gate.name,
      ...(gate.exitCode === undefined && !gate.passed ? { spawnError: gate.reason } : {}),
    }),
  );
  const first = states[0] as BuildState;
  return {
    ...first,
    attempted: states.every((state) => state.attempted),
    exitCode: failing === undefined ? 0 : (failing.exitCode ?? null),
    errors: states.flatMap((state) => state.errors),
    warnings: states.flatMap((state) => state.warnings),
    durationMs: states.reduce((sum, state) => sum + state.durationMs, 0),
    commands: states.flatMap((state) => state.commands),
    logSample: states
      .map((state) => state.logSample)
      .filter((sample) => sample !== '')
      .join('\n')
      .slice(-4_000),
  };
}

/** A review that throws is a review that did not say GO. */
async function safeReview(review: ReviewGate, input: Parameters<ReviewGate>[0]): Promise<ReviewVerdict> {
  try {
    const verdict = await review(input);
    return verdict.verdict === 'GO' || verdict.verdict === 'PIVOT' || verdict.verdict === 'NO_GO'
      ? verdict
      : { verdict: 'NO_GO', dissent: ['the review returned no verdict'] };
  } catch (thrown) {
    return { verdict: 'NO_GO', dissent: [`the review failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`] };
  }
}

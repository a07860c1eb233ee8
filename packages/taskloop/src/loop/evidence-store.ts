import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '@conclave/core/internal';
import type { BuildFeedback } from '../builders/builder.js';
import type { Level } from '../gates/gate-definition.js';
import type { GateEvidence } from '../gates/gate-evidence.js';
import { writeFileAtomic } from '../ledger/atomic-write.js';
import { CONCLAVE_DIR } from '../ledger/ledger-paths.js';
import { redactDeep, redactFileText, redactSecrets } from '../security/redact.js';
import { describeUnverified, signRecord, verifyRecord } from '../state/record-mac.js';
import type { AttemptDecision, AttemptState, TaskDisposition } from './loop-step.js';

/**
 * The evidence bundle of one attempt, as written to `evidence.json`: everything an auditor needs
 * to see why a box was or was not ticked, without the chat history.
 */
export interface EvidenceBundle {
  readonly mode: 'guarded';
  readonly runId: string;
  readonly specId: string;
  readonly taskId: string;
  readonly attempt: number;
  readonly level: Level;
  readonly retriesConfigured: number;
  /** Retries used before this attempt. */
  readonly retryCount: number;
  readonly decision: AttemptDecision;
  /** Set on the attempt that settled the task; absent while retries remain. */
  readonly disposition?: TaskDisposition;
  readonly gatesPassed: boolean;
  readonly gates: readonly GateEvidence[];
  readonly skippedGates: readonly { readonly name: string; readonly reason: string }[];
  readonly builder: {
    readonly name: string;
    readonly ok: boolean;
    readonly failure?: { readonly kind: string; readonly message: string };
    readonly summary: string;
    readonly durationMs: number;
    readonly costUsd?: number;
    readonly turns?: number;
    readonly permissionDenials?: readonly string[];
  } | null;
  readonly feedbackGiven: BuildFeedback | null;
  /** 0 for the plan's tasks; a split child is one deeper. */
  readonly depth?: number;
  /** A re-verification of a split parent: no build, the gates and judgement only. */
  readonly reverify?: boolean;
  /** The judge step: the kernel's completion proof and, when verifiers ran, the rule table's decision. */
  readonly judgement?: BundleJudgement;
  /** The split this attempt caused: the children appended, or why none could be. */
  readonly split?: { readonly ok: true; readonly children: readonly string[] } | { readonly ok: false; readonly message: string };
  readonly recordedAt: string;
}

/** The judge step's account in an evidence bundle (the verifiers' exchanges are in `verifiers.json`, the record in `completion.json`). */
export interface BundleJudgement {
  /** Whether the kernel proved the attempt complete. */
  readonly complete: boolean;
  /** The completion claims that were not proven, with the oracle's reason. */
  readonly unproven: readonly { readonly claim: string; readonly status: string; readonly reason: string }[];
  /** The lens panel's status, for tier T3 and above. */
  readonly panel?: string;
  /** The rule table's outcome, rule and reasons, when the neural verifiers ran. */
  readonly outcome?: string;
  readonly ruleId?: string;
  readonly reasons?: readonly string[];
  readonly warnings?: readonly string[];
  readonly fingerprint?: string;
  readonly fingerprintRepeats?: number;
  /** Verifiers that produced no state (never counted as passing). */
  readonly verifierFailures?: readonly string[];
  /** What the verifiers' model calls cost, when the adapter priced them. */
  readonly costUsd?: number;
  /** The review board's verdict, when a council reviews completions. */
  readonly review?: { readonly verdict: string; readonly score?: number; readonly dissent: readonly string[] };
}

/** The folder of one run's evidence, relative to the workspace. */
export function runDir(runId: string): string {
  return join(CONCLAVE_DIR, 'runs', runId);
}

/** The folder of one attempt's evidence, relative to the workspace. */
export function attemptDir(runId: string, taskId: string, attempt: number): string {
  return join(runDir(runId), taskId, `attempt-${attempt}`);
}

const EVIDENCE_FILE = 'evidence.json';

/**
 * Writes an attempt's evidence bundle, the builder transcript and the feedback it was given, each
 * atomically; `evidence.json` is written last, so its presence marks a finished attempt and an
 * attempt folder without it is one a kill interrupted.
 */
export async function writeAttemptEvidence(
  workspace: string,
  input: {
    readonly runId: string;
    readonly specId: string;
    readonly level: Level;
    readonly maxRetries: number;
    readonly builderName: string;
    readonly attempt: AttemptState;
    readonly depth?: number;
    readonly judgement?: BundleJudgement;
    /** Further files for the attempt's folder (verifier exchanges, the completion record, a split), written before evidence.json. */
    readonly files?: Readonly<Record<string, string>>;
    /** The run's key: the bundle is signed with it (ADR 0025), so a resumed run can tell its own records from a builder's. */
    readonly key?: Buffer;
    /** Values to redact from every file (the run's secrets); the known formats are redacted regardless. */
    readonly secretValues?: readonly string[];
  },
): Promise<{ ok: true; dir: string } | { ok: false; message: string }> {
  const { attempt } = input;
  const dir = attemptDir(input.runId, attempt.taskId, attempt.attempt);
  const absolute = join(workspace, dir);
  const build = attempt.build;
  const secrets = input.secretValues ?? [];
  // Every string of the bundle, redacted before it is signed: what the gates and the builder
  // reported is redacted at the source, but the judge's reasons, a split's titles and a failure's
  // message pass here too.
  const bundle: EvidenceBundle = redactDeep<EvidenceBundle>(
    {
      mode: 'guarded',
      runId: input.runId,
      specId: input.specId,
      taskId: attempt.taskId,
      attempt: attempt.attempt,
      level: input.level,
      retriesConfigured: input.maxRetries,
      retryCount: attempt.attempt - 1,
      decision: attempt.decision ?? 'failed',
      ...(attempt.disposition === undefined ? {} : { disposition: attempt.disposition }),
      gatesPassed: attempt.report !== undefined && attempt.report.gates.length > 0 && attempt.report.passed,
      gates: attempt.report?.gates ?? [],
      skippedGates: attempt.report?.skipped ?? [],
      builder:
        build === undefined
          ? null
          : {
              name: input.builderName,
              ok: build.ok,
              ...(build.failure === undefined ? {} : { failure: build.failure }),
              summary: build.summary,
              durationMs: build.durationMs,
              ...(build.costUsd === undefined ? {} : { costUsd: build.costUsd }),
              ...(build.turns === undefined ? {} : { turns: build.turns }),
              ...(build.permissionDenials === undefined ? {} : { permissionDenials: build.permissionDenials }),
            },
      feedbackGiven: attempt.feedback ?? null,
      ...(input.depth === undefined || input.depth === 0 ? {} : { depth: input.depth }),
      ...(attempt.reverify === true ? { reverify: true } : {}),
      ...(input.judgement === undefined ? {} : { judgement: input.judgement }),
      ...(attempt.split === undefined ? {} : { split: attempt.split }),
      recordedAt: new Date().toISOString(),
    },
    secrets,
  );
  try {
    mkdirSync(absolute, { recursive: true });
    // Atomic, so a kill never leaves half a file, but not fsynced: the attempt's commit follows at
    // once and is the durable record. evidence.json goes last, so it marks a finished attempt.
    const write = (file: string, data: string) => writeFileAtomic(join(absolute, file), data, { sync: false });
    const parts = await Promise.all([
      write('transcript.txt', redactSecrets(build?.transcript ?? '', secrets)),
      write('feedback.json', `${JSON.stringify(redactDeep(attempt.feedback ?? null, secrets), null, 2)}\n`),
      ...Object.entries(input.files ?? {}).map(([file, text]) => write(file, redactFileText(text, secrets))),
    ]);
    const failed = parts.find((part) => !part.ok);
    if (failed !== undefined && !failed.ok) return { ok: false, message: failed.message };
    const written = await write(
      EVIDENCE_FILE,
      `${JSON.stringify(input.key === undefined ? bundle : signRecord(input.key, 'evidence', bundle), null, 2)}\n`,
    );
    if (!written.ok) return { ok: false, message: written.message };
    return { ok: true, dir };
  } catch (thrown) {
    return { ok: false, message: `could not write the evidence in ${dir}: ${errorMessage(thrown)}` };
  }
}

/** The finished attempts of a task in a run, oldest first (folders without evidence.json were interrupted). Unauthenticated: for reports, never for decisions. */
export function readAttempts(workspace: string, runId: string, taskId: string): readonly EvidenceBundle[] {
  const bundles: EvidenceBundle[] = [];
  for (const { text } of attemptFiles(workspace, runId, taskId)) {
    try {
      bundles.push(JSON.parse(text) as EvidenceBundle);
    } catch {
      // Not a bundle: a report shows what it can.
    }
  }
  return bundles;
}

/** Every finished attempt of a run (with its evidence folder), in no particular order. Unauthenticated, like `readAttempts`. */
export function readRunAttempts(workspace: string, runId: string): readonly { readonly dir: string; readonly bundle: EvidenceBundle }[] {
  return taskFolders(workspace, runId).flatMap((task) =>
    readAttempts(workspace, runId, task).map((bundle) => ({ dir: attemptDir(runId, task, bundle.attempt), bundle })),
  );
}

/** What the loop reads back of its own evidence: every bundle signed by the run, or the first that is not. */
export type SignedAttempts<T> =
  { readonly ok: true; readonly attempts: T } | { readonly ok: false; readonly path: string; readonly message: string };

/**
 * A task's finished attempts, oldest first, each verified against the run's key and bound to its
 * place: the signed `runId`, `taskId` and `attempt` must be the folder's, so a genuine bundle
 * replayed into another task's or attempt's folder is caught like a forged one. Any evidence.json
 * that fails is tampering: writes are atomic, so a kill never leaves a half-written one.
 */
export function readSignedAttempts(
  workspace: string,
  runId: string,
  taskId: string,
  key: Buffer,
): SignedAttempts<readonly EvidenceBundle[]> {
  const bundles: EvidenceBundle[] = [];
  for (const { n, path, text } of attemptFiles(workspace, runId, taskId)) {
    const verified = verifyRecord(key, 'evidence', text);
    const shown = join(attemptDir(runId, taskId, n), EVIDENCE_FILE);
    if (!verified.ok)
      return { ok: false, path, message: `${shown} ${describeUnverified(verified.why)}: it was not written by the orchestrator` };
    const bundle = verified.record as unknown as EvidenceBundle;
    if (bundle.runId !== runId || bundle.taskId !== taskId || bundle.attempt !== n) {
      return {
        ok: false,
        path,
        message: `${shown} is a signed record of ${String(bundle.taskId)} attempt ${String(bundle.attempt)} (run ${String(bundle.runId)}) replayed into another folder`,
      };
    }
    bundles.push(bundle);
  }
  return { ok: true, attempts: bundles };
}

/** `readSignedAttempts` for every task of a run. */
export function readSignedRunAttempts(
  workspace: string,
  runId: string,
  key: Buffer,
): SignedAttempts<readonly { readonly dir: string; readonly bundle: EvidenceBundle }[]> {
  const found: { dir: string; bundle: EvidenceBundle }[] = [];
  for (const task of taskFolders(workspace, runId)) {
    const read = readSignedAttempts(workspace, runId, task, key);
    if (!read.ok) return read;
    for (const bundle of read.attempts) found.push({ dir: attemptDir(runId, task, bundle.attempt), bundle });
  }
  return { ok: true, attempts: found };
}

function taskFolders(workspace: string, runId: string): string[] {
  try {
    return readdirSync(join(workspace, runDir(runId)), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** The evidence.json texts of a task's attempt folders, by attempt number; a folder without one was interrupted before it was written. */
function attemptFiles(
  workspace: string,
  runId: string,
  taskId: string,
): { readonly n: number; readonly path: string; readonly text: string }[] {
  const dir = join(workspace, runDir(runId), taskId);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const numbers = names
    .map((name) => /^attempt-(\d+)$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  const files: { n: number; path: string; text: string }[] = [];
  for (const n of numbers) {
    const path = join(dir, `attempt-${n}`, EVIDENCE_FILE);
    try {
      files.push({ n, path, text: readFileSync(path, 'utf8') });
    } catch {
      // Interrupted before its evidence was written: the attempt did not finish and is retried.
    }
  }
  return files;
}

/** The commit message of an attempt: `[<task>] attempt <n>: <decision>`, with the disposition when it settled the task otherwise than completed. */
export function attemptCommitMessage(attempt: {
  readonly taskId: string;
  readonly attempt: number;
  readonly decision?: AttemptDecision;
  readonly disposition?: TaskDisposition;
}): string {
  const decision = attempt.decision ?? 'failed';
  const settled = attempt.disposition !== undefined && attempt.disposition !== 'completed' ? ` (${attempt.disposition})` : '';
  return `[${attempt.taskId}] attempt ${attempt.attempt}: ${decision}${settled}`;
}

/** One line of the run timeline. */
export interface TimelineEntry {
  readonly at: string;
  readonly state: 'build' | 'validate' | 'judge' | 'split' | 'retry' | 'flip' | 'commit' | 'halt' | 'finish' | 'resume';
  readonly taskId?: string;
  readonly attempt?: number;
  readonly durationMs?: number;
  readonly detail?: string;
}

/**
 * Appends to the run's JSONL timeline. One short line per append; a kill can at worst cut the
 * last line, which readers skip.
 */
export function appendTimeline(workspace: string, runId: string, entry: Omit<TimelineEntry, 'at'>): void {
  const dir = join(workspace, runDir(runId));
  const line = `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`;
  try {
    appendFileSync(join(dir, 'timeline.jsonl'), line);
  } catch {
    // The run folder does not exist yet: only the first line of a run pays for creating it.
    mkdirSync(dir, { recursive: true });
    appendFileSync(join(dir, 'timeline.jsonl'), line);
  }
}

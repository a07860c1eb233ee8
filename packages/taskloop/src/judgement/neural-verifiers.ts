import type { ModelAdapter, ModelRequest, ModelRunSuccess } from '@conclave/core';
import { askStructured, type ModelExchange } from '../model/ask-structured.js';
import type { InputPack } from './input-pack.js';
import { verifierSchemas, type BuildState, type VerifierFailure, type VerifierKind, type VerifierStates } from './verifier-schemas.js';

/** The protocol tag every verifier request carries in its metadata. */
export const VERIFIER_PROTOCOL = 'conclave.taskloop.verifier.v1';

/** What a verifier request's metadata says, for scripted and offline adapters. */
export interface VerifierRequestMetadata {
  readonly protocol: typeof VERIFIER_PROTOCOL;
  readonly verifier: VerifierKind;
}

export interface RunVerifierOptions {
  /** Deadline for each model call (default `safeRun`'s, 120 000 ms). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** One model call a verifier made: what it sent and what came back. */
export type VerifierExchange = ModelExchange;

/**
 * A verifier's outcome. Either way the request (and every exchange, the re-ask included) is kept,
 * so the caller can save the verifier's input and output with the attempt's evidence.
 */
export type ModelVerifierResult<K extends VerifierKind = VerifierKind> =
  | {
      readonly kind: K;
      readonly ok: true;
      readonly state: VerifierStates[K];
      readonly request: ModelRequest;
      readonly reply: ModelRunSuccess;
      readonly exchanges: readonly VerifierExchange[];
    }
  | {
      readonly kind: K;
      readonly ok: false;
      readonly failure: VerifierFailure;
      readonly request: ModelRequest;
      readonly exchanges: readonly VerifierExchange[];
    };

/** The verifiers a model is asked for at a depth: at depth 0 the build is run, not inferred. */
export function modelVerifierKinds(depth: number): readonly VerifierKind[] {
  return depth === 0 ? ['alignment', 'bigPicture', 'style'] : ['build', 'alignment', 'bigPicture', 'style'];
}

/**
 * Runs one neural verifier over any adapter: asks for its state as strict JSON (the zod schema
 * as the response format), re-asks once when the reply does not fit, and reports the state or
 * why there is none. Never throws or rejects. The verifier reports; it decides nothing.
 *
 * The build at depth 0 must actually build: the caller runs the build command and maps it with
 * `buildStateFromCommand`, so asking a model for it is refused (`not_applicable`) without a call.
 */
export async function runModelVerifier<K extends VerifierKind>(
  kind: K,
  adapter: ModelAdapter,
  pack: InputPack,
  options: RunVerifierOptions = {},
): Promise<ModelVerifierResult<K>> {
  let request: ModelRequest;
  try {
    request = verifierRequest(kind, pack);
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return {
      kind,
      ok: false,
      failure: { verifier: kind, kind: 'invalid_output', message: `could not build the ${kind} request: ${message}` },
      request: { messages: [] },
      exchanges: [],
    };
  }
  const fail = (failure: Omit<VerifierFailure, 'verifier'>, exchanges: readonly VerifierExchange[]): ModelVerifierResult<K> => ({
    kind,
    ok: false,
    failure: { verifier: kind, ...failure },
    request,
    exchanges,
  });
  if (kind === 'build' && pack.context.depth === 0) {
    return fail(
      { kind: 'not_applicable', message: 'at depth 0 the build must actually run: run the build command and use buildStateFromCommand' },
      [],
    );
  }

  const asked = await askStructured(adapter, request, verifierSchemas[kind], options);
  if (!asked.ok) {
    if (asked.kind === 'adapter_failed') return fail({ kind: asked.kind, message: asked.message }, asked.exchanges);
    return fail(
      {
        kind: asked.kind,
        message: `the ${kind} verifier's reply does not fit its schema: ${asked.issues.join('; ')}`,
        issues: asked.issues,
      },
      asked.exchanges,
    );
  }
  // A model only ever infers a build from the diff: it cannot claim to have run one.
  const state = (kind === 'build' ? { ...(asked.value as BuildState), inferred: true } : asked.value) as VerifierStates[K];
  return { kind, ok: true, state, request, reply: asked.reply, exchanges: asked.exchanges };
}

/** One verification round: every verifier's result, the states gathered and the failures recorded. */
export interface VerificationRound {
  /** The model verifiers' results, in `modelVerifierKinds` order, for the attempt's evidence. */
  readonly results: readonly ModelVerifierResult[];
  readonly states: { readonly [K in VerifierKind]?: VerifierStates[K] };
  readonly failures: readonly VerifierFailure[];
}

/**
 * Runs the model verifiers a depth calls for, concurrently, and gathers their states and
 * failures, ready to spread into a `JudgementState`. At depth 0 pass the build state from the
 * real build (`buildStateFromCommand`); without it the round records the build as missing.
 * Never throws or rejects.
 */
export async function runVerificationRound(
  adapter: ModelAdapter,
  pack: InputPack,
  options: RunVerifierOptions & { readonly build?: BuildState } = {},
): Promise<VerificationRound> {
  const { build, ...runOptions } = options;
  const results = await Promise.all(
    modelVerifierKinds(pack.context.depth).map((kind) => runModelVerifier(kind, adapter, pack, runOptions)),
  );
  const states: { -readonly [K in VerifierKind]?: VerifierStates[K] } = pack.context.depth === 0 && build !== undefined ? { build } : {};
  const failures: VerifierFailure[] = [];
  for (const result of results) {
    if (result.ok) Object.assign(states, { [result.kind]: result.state });
    else failures.push(result.failure);
  }
  return { results, states, failures };
}

const INSTRUCTIONS: { readonly [K in VerifierKind]: { readonly role: string; readonly reply: string } } = {
  build: {
    role: 'You are the build verifier. No build runs here: infer from the diff alone whether the code would build (syntax errors, missing imports or files, type mismatches visible in the diff, broken references).',
    reply:
      'Reply with one JSON object: {"attempted": false, "exitCode": null, "errors": ["<file:line message>"], "warnings": ["<message>"], "durationMs": 0, "commands": [], "logSample": "<the diff lines your errors are based on>", "inferred": true}. An empty errors list means you found nothing that would break the build.',
  },
  alignment: {
    role: 'You are the alignment verifier. Judge how well the change meets the acceptance criteria and keeps to the constraints.',
    reply:
      'Reply with one JSON object: {"score": <0..1>, "coverage": [{"criterion": "<the criterion, verbatim>", "met": <true|false>, "why": "<one sentence>"}], "constraintIssues": ["<a constraint the change breaks, and how>"]}. Give exactly one coverage entry per acceptance criterion, in the order listed.',
  },
  bigPicture: {
    role: 'You are the big-picture verifier. Judge whether the change fits the work around it: does it support the parent task, and each task that comes next? You see short excerpts of those specs only.',
    reply:
      'Reply with one JSON object: {"score": <0..1>, "supportsParent": <true|false|null (null when there is no parent)>, "supportsNext": [{"spec": "<next spec id>", "supports": <true|false>, "why": "<one sentence>"}], "risks": ["<how the change could hurt the parent or a next task>"]}. Give one supportsNext entry per next spec listed.',
  },
  style: {
    role: 'You are the style verifier. Scan the added lines of the diff, and nothing else, for style issues: naming, dead code, debugging leftovers, inconsistent formatting, overly long functions.',
    reply:
      'Reply with one JSON object: {"issues": [{"rule": "<short rule name, e.g. no-console>", "count": <occurrences>, "examples": ["<a quoted line>"]}]}. One entry per rule; at most 3 examples each; an empty list when the diff is clean.',
  },
};

/**
 * A verifier's request: its instructions and the parts of the input pack it needs, with the
 * state schema as the response format and `{ protocol, verifier }` as metadata. Pure.
 */
export function verifierRequest(kind: VerifierKind, pack: InputPack): ModelRequest {
  const instructions = INSTRUCTIONS[kind];
  const { spec, context, workspace, relations } = pack;
  const list = (items: readonly string[]) => (items.length === 0 ? '(none)' : items.map((item) => `- ${item}`).join('\n'));
  const diff = `Diff${workspace.diffTruncated ? ' (capped: some hunks were dropped, every file header is kept)' : ''}:\n\`\`\`diff\n${workspace.diff}\n\`\`\``;
  const parts: string[] = [`Task "${spec.title}" (${spec.id}), depth ${context.depth}, attempt ${context.attempt}.`];
  if (kind === 'alignment' || kind === 'bigPicture') parts.push(`Acceptance criteria:\n${list(spec.acceptance)}`);
  if (kind === 'alignment')
    parts.push(
      `Constraints:\n${list(spec.constraints)}`,
      `Budgets and policy: ${JSON.stringify({ budgets: context.budgets, policy: pack.policy })}`,
    );
  if (kind === 'bigPicture') {
    parts.push(`Parent task: ${relations.parent === undefined ? '(none)' : `${relations.parent.spec}\n${relations.parent.excerpt}`}`);
    parts.push(
      `Next tasks:\n${relations.next.length === 0 ? '(none)' : relations.next.map((next) => `- ${next.spec}: ${next.excerpt}`).join('\n')}`,
    );
  }
  parts.push(`Changed files:\n${list(workspace.changedFiles)}`, diff, instructions.reply);
  return {
    system: [
      instructions.role,
      'You report what you see; you never decide whether the task is done, never advise and never change files.',
      'Your only output is the JSON object asked for.',
    ].join('\n'),
    messages: [{ role: 'user', content: parts.join('\n\n') }],
    responseFormat: { type: 'json', name: `taskloop_verifier_${kind}`, schema: verifierSchemas[kind] },
    metadata: { protocol: VERIFIER_PROTOCOL, verifier: kind } satisfies VerifierRequestMetadata,
  };
}

/** A finished build process, as `runProcess` reports it plus the command line that ran. */
export interface BuildCommandOutcome {
  /** Null or undefined when the process was killed or never started. */
  readonly exitCode: number | null | undefined;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
  readonly command: string;
  readonly timedOut?: boolean;
  /** Why the process never started. */
  readonly spawnError?: string;
}

export interface BuildStateOptions {
  /** At most this many errors and this many warnings are listed (default 50). */
  readonly maxMessages?: number;
  /** The log sample is the last this many lines (default 40) ... */
  readonly logLines?: number;
  /** ... and at most this many characters (default 4000). */
  readonly maxLogChars?: number;
}

const ERROR_LINE = /\berror\b|\bERR!/i;
const WARNING_LINE = /\bwarn(?:ing)?\b/i;
const NONE_REPORTED = /\b(?:0|no|zero)\s+(?:errors?|warnings?)\b|\berrors?:\s*0\b|\bwarnings?:\s*0\b/i;

/**
 * The build state at depth 0, from the build command that really ran: no model is asked. Errors
 * and warnings are the output lines that say `error` or `warning` (a summary like "0 errors" is
 * not one); a process that never started or was killed is an error in its own right. The log
 * sample is the last lines of the output. Pure.
 */
export function buildStateFromCommand(outcome: BuildCommandOutcome, options: BuildStateOptions = {}): BuildState {
  const maxMessages = options.maxMessages ?? 50;
  const lines = `${outcome.stdout}\n${outcome.stderr}`
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const line of lines) {
    if (NONE_REPORTED.test(line)) continue;
    const message = line.trim().slice(0, 1_000);
    if (ERROR_LINE.test(line)) errors.push(message);
    else if (WARNING_LINE.test(line)) warnings.push(message);
  }
  const exitCode = outcome.exitCode ?? null;
  if (outcome.spawnError !== undefined) errors.unshift(`the build did not start: ${outcome.spawnError}`);
  else if (exitCode === null)
    errors.unshift(
      outcome.timedOut === true
        ? `the build timed out after ${Math.round(outcome.durationMs)} ms`
        : 'the build was killed before it exited',
    );
  else if (exitCode !== 0 && errors.length === 0) errors.push(`the build exited with code ${exitCode}`);

  const maxLogChars = options.maxLogChars ?? 4_000;
  let logSample = lines.slice(-(options.logLines ?? 40)).join('\n');
  if (logSample.length > maxLogChars) logSample = `…${logSample.slice(logSample.length - maxLogChars + 1)}`;
  return {
    attempted: outcome.spawnError === undefined,
    exitCode,
    errors: errors.slice(0, maxMessages),
    warnings: warnings.slice(0, maxMessages),
    durationMs: Math.max(0, outcome.durationMs),
    commands: [outcome.command],
    logSample,
    inferred: false,
  };
}

/** A verifier's outcome as plain JSON for the attempt's evidence (the schema is named, not serialised). */
export function verifierEvidence(result: ModelVerifierResult): Record<string, unknown> {
  return {
    verifier: result.kind,
    ok: result.ok,
    ...(result.ok ? { state: result.state } : { failure: result.failure }),
    exchanges: result.exchanges.map(({ request, result: reply }) => ({
      request: {
        ...(request.system === undefined ? {} : { system: request.system }),
        messages: request.messages,
        ...(request.responseFormat === undefined ? {} : { responseFormat: request.responseFormat.name }),
        ...(request.metadata === undefined ? {} : { metadata: request.metadata }),
      },
      result: reply.ok
        ? {
            ok: true,
            text: reply.text,
            ...(reply.value === undefined ? {} : { value: reply.value }),
            usage: reply.usage,
            latencyMs: reply.latencyMs,
            modelId: reply.modelId,
          }
        : { ok: false, failure: reply.failure, latencyMs: reply.latencyMs },
    })),
  };
}

/** @deprecated Renamed `ModelVerifierResult`: a model's report on an attempt, not `@conclave/verifier`'s check of a decision; removed in the next release. */
export type VerifierResult<K extends VerifierKind = VerifierKind> = ModelVerifierResult<K>;

/** @deprecated Renamed `runModelVerifier`: a model's report on an attempt, not `@conclave/verifier`'s check of a decision; removed in the next release. */
export const runVerifier: typeof runModelVerifier = runModelVerifier;

import {
  systemClock,
  type AdapterFailure,
  type Clock,
  type ModelAdapter,
  type ModelRequest,
  type ModelRunFailure,
  type ModelRunResult,
  type Usage,
} from '@conclave/core';
import { isRetryableByDefault } from '@conclave/core/adapter-kit';
import { errorMessage, sleep } from '@conclave/core/internal';

/** A scripted answer: the text, an optional structured value, usage and a simulated delay. */
export interface ScriptedAnswer {
  readonly text?: string;
  readonly value?: unknown;
  readonly usage?: Partial<Usage>;
  /** Milliseconds to wait (on the adapter's clock) before answering. */
  readonly delayMs?: number;
}

/** A scripted failure; `retryable` defaults to `isRetryableByDefault(failure)`. */
export interface ScriptedFailure {
  readonly failure: AdapterFailure;
  readonly retryable?: boolean;
  readonly delayMs?: number;
  /** What the failed call was billed for (a refused, empty or cut-off answer); none by default. */
  readonly usage?: Usage;
}

/** What a script answers with: plain text, an answer, or a failure. */
export type ScriptedReply = string | ScriptedAnswer | ScriptedFailure;

/** Where a call sits: its position among all calls and among its member's calls. */
export interface ScriptedCall {
  /** 0-based position among every call this adapter received. */
  readonly index: number;
  /** 0-based position among the calls for the same member (0 when there is no member). */
  readonly memberIndex: number;
  /** `request.metadata.memberId`, when it is a string. */
  readonly memberId?: string;
  /** `request.metadata.phase`, when it is a string. */
  readonly phase?: string;
}

/** Computes a reply from the request. */
export type ScriptFunction = (request: ModelRequest, call: ScriptedCall) => ScriptedReply | PromiseLike<ScriptedReply>;

/** One member's script: the same reply every time, one reply per call in order, or a function. */
export type MemberScript = ScriptedReply | readonly ScriptedReply[] | ScriptFunction;

/** A whole script: one function for every call, or a script per member id. */
export type Script = ScriptFunction | Readonly<Record<string, MemberScript>>;

/** Options for `scriptedAdapter`. */
export interface ScriptedAdapterOptions {
  readonly id?: string;
  readonly modelId?: string;
  /** The clock `delayMs` waits on; pass a manual clock for deterministic timeout tests. */
  readonly clock?: Clock;
  /**
   * Check a structured reply against `request.responseFormat.schema`, as real adapters do, and
   * answer `invalid_output` when it does not fit. Default true.
   */
  readonly validate?: boolean;
}

/** One request the adapter received, as it received it. */
export interface RecordedCall extends ScriptedCall {
  readonly request: ModelRequest;
}

/** A scripted adapter that also remembers what it was asked. */
export interface ScriptedAdapter extends ModelAdapter {
  /** Every request received so far, in order. */
  readonly calls: readonly RecordedCall[];
  /** The requests one member received, in order. */
  callsFor(memberId: string): readonly RecordedCall[];
}

/**
 * A `ModelAdapter` whose replies come from a script, keyed by member id
 * (`request.metadata.memberId`) or computed by a function. It records every request so a test
 * can check exactly what each member saw. A member without a script entry, an exhausted list
 * of replies, a script that throws, or a structured value that does not fit the requested
 * schema becomes an `invalid_output` failure: the adapter itself never throws or rejects.
 *
 * @example
 * const adapter = scriptedAdapter({
 *   cfo: { text: 'Margins are thin.', delayMs: 5 },
 *   contrarian: ['First objection.', { failure: { kind: 'refused', message: 'policy' } }],
 * });
 */
export function scriptedAdapter(script: Script, options: ScriptedAdapterOptions = {}): ScriptedAdapter {
  const clock = options.clock ?? systemClock;
  const modelId = options.modelId ?? 'scripted';
  const validate = options.validate ?? true;
  const calls: RecordedCall[] = [];

  const replyFor = async (request: ModelRequest, call: ScriptedCall): Promise<ScriptedReply> => {
    if (typeof script === 'function') return script(request, call);
    if (call.memberId === undefined) {
      return {
        failure: { kind: 'invalid_output', message: 'scripted adapter: the request has no metadata.memberId to look up a script by' },
      };
    }
    if (!Object.hasOwn(script, call.memberId)) {
      return { failure: { kind: 'invalid_output', message: `scripted adapter: there is no script for member "${call.memberId}"` } };
    }
    const entry = script[call.memberId] as MemberScript;
    if (typeof entry === 'function') return entry(request, call);
    if (!isReplyList(entry)) return entry;
    const reply = entry[call.memberIndex];
    if (reply === undefined) {
      return {
        failure: {
          kind: 'invalid_output',
          message: `scripted adapter: the script for member "${call.memberId}" has ${entry.length} replies; call ${call.memberIndex + 1} has none`,
        },
      };
    }
    return reply;
  };

  const answer = async (request: ModelRequest, call: ScriptedCall, signal: AbortSignal | undefined): Promise<ModelRunResult> => {
    const started = clock.now();
    const failed = (failure: AdapterFailure, retryable = isRetryableByDefault(failure)): ModelRunFailure => ({
      ok: false,
      failure,
      retryable,
      latencyMs: Math.max(0, clock.now() - started),
      modelId,
    });
    const aborted = (): ModelRunFailure => failed({ kind: 'aborted', message: abortMessage(signal) });

    if (signal?.aborted) return aborted();
    let reply: ScriptedReply;
    try {
      reply = await replyFor(request, call);
    } catch (thrown) {
      return failed({ kind: 'invalid_output', message: `scripted adapter: the script threw: ${errorMessage(thrown)}` });
    }
    if (typeof reply === 'string') reply = { text: reply };
    const delayMs = reply.delayMs ?? 0;
    if (delayMs > 0 && !(await sleep(delayMs, clock, signal))) return aborted();
    if (signal?.aborted) return aborted();
    if ('failure' in reply)
      return reply.usage === undefined
        ? failed(reply.failure, reply.retryable)
        : { ...failed(reply.failure, reply.retryable), usage: reply.usage };

    const text = reply.text ?? stringify(reply.value);
    let value = reply.value;
    const format = request.responseFormat;
    if (validate && format !== undefined) {
      const candidate = 'value' in reply ? reply.value : parseJson(text);
      const parsed = format.schema.safeParse(candidate);
      if (!parsed.success) {
        return failed({
          kind: 'invalid_output',
          message: `scripted reply does not match the "${format.name}" schema`,
          issues: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
        });
      }
      value = parsed.data;
    }
    const usage = reply.usage ?? {};
    return {
      ok: true,
      text,
      ...(value === undefined ? {} : { value }),
      usage: {
        inputTokens: usage.inputTokens ?? 0,
        outputTokens: usage.outputTokens ?? 0,
        ...(usage.cachedInputTokens === undefined ? {} : { cachedInputTokens: usage.cachedInputTokens }),
        ...(usage.costUsd === undefined ? {} : { costUsd: usage.costUsd }),
      },
      latencyMs: Math.max(0, clock.now() - started),
      modelId,
    };
  };

  return {
    specificationVersion: 'v1',
    id: options.id ?? 'scripted',
    calls,
    callsFor: (memberId) => calls.filter((call) => call.memberId === memberId),
    run(request, runOptions) {
      const memberId = stringField(request.metadata, 'memberId');
      const phase = stringField(request.metadata, 'phase');
      const call: ScriptedCall = {
        index: calls.length,
        memberIndex: memberId === undefined ? 0 : calls.filter((c) => c.memberId === memberId).length,
        ...(memberId === undefined ? {} : { memberId }),
        ...(phase === undefined ? {} : { phase }),
      };
      calls.push({ ...call, request });
      // A script that returns something that is not a reply is a test bug; report it as data.
      return answer(request, call, runOptions.signal).catch((thrown: unknown): ModelRunFailure => ({
        ok: false,
        failure: { kind: 'invalid_output', message: `scripted adapter: unusable reply: ${errorMessage(thrown)}` },
        retryable: false,
        latencyMs: 0,
        modelId,
      }));
    },
  };
}

function isReplyList(entry: ScriptedReply | readonly ScriptedReply[]): entry is readonly ScriptedReply[] {
  return Array.isArray(entry);
}

function stringField(metadata: ModelRequest['metadata'], key: string): string | undefined {
  const value = metadata?.[key];
  return typeof value === 'string' ? value : undefined;
}

function abortMessage(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return reason === undefined ? 'aborted by the caller' : errorMessage(reason);
}

function stringify(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

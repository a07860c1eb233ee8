import { systemClock, type AdapterFailure, type Clock, type ModelAdapter, type ModelRunFailure, type ModelRunResult } from '@conclave/core';
import { isRetryableByDefault } from '@conclave/core/adapter-kit';
import { errorMessage, sleep } from '@conclave/core/internal';
import { HOSTILE_REPLIES, hostileReply, type HostileSpot } from '../hostile/hostile-reply.js';
import type { HostileWay } from '../hostile/hostile-value.js';
import { seededRandom, type SeededRandom } from '../random.js';
import { fixedAdapter } from './fixed-adapter.js';

/**
 * The ways an adapter can misbehave: throw from `run`, reject, never settle, resolve to
 * something that is not a `ModelRunResult`, resolve to a well-formed failure, or resolve to the
 * inner adapter's answer with a throwing getter or proxy planted at one depth of it (`hostile`:
 * the result itself, `usage`, `providerMetadata`, `value`, `value.scores`, a score, an evidence item).
 */
export const FAULTS = ['throw', 'reject', 'hang', 'garbage', 'failure', 'hostile'] as const;
/** One way an adapter can misbehave. */
export type Fault = (typeof FAULTS)[number];
/** Every behaviour the faulty adapter can pick for a call: a fault, or a normal answer. */
export const ADAPTER_BEHAVIOURS = [...FAULTS, 'ok'] as const;
/** A fault, or `ok` (the inner adapter answers). */
export type AdapterBehaviour = (typeof ADAPTER_BEHAVIOURS)[number];

/** Options for `faultyAdapter`. */
export interface FaultyAdapterOptions {
  /** Seeds the generator that picks every fault, delay and variant: same seed, same sequence. */
  readonly seed: number;
  /** Probability of each fault per call, each in [0, 1], summing to at most 1; the rest is `ok`. */
  readonly faults?: Partial<Readonly<Record<Fault, number>>>;
  /** Uniform delay in whole milliseconds before answering (not before `throw` or `hang`). Default 0. */
  readonly latency?: { readonly minMs: number; readonly maxMs: number };
  /** Answers the calls no fault hits. Default: `fixedAdapter('ok')`. */
  readonly inner?: ModelAdapter;
  readonly id?: string;
  /** The clock delays wait on. */
  readonly clock?: Clock;
}

/** What the faulty adapter decided for one call. */
export interface FaultyCall {
  readonly index: number;
  readonly behaviour: AdapterBehaviour;
  readonly delayMs: number;
  /** Which garbage value, failure kind or hostile spot (`value.scores:proxy`) was used, for `garbage`, `failure` and `hostile`. */
  readonly detail?: string;
}

/** A fault-injecting adapter that remembers its decisions. */
export interface FaultyAdapter extends ModelAdapter {
  /** One entry per call, in order: compare two runs with the same seed. */
  readonly history: readonly FaultyCall[];
}

type GarbageVariant = readonly [name: string, make: () => unknown];
type MakeFailure = (random: number) => AdapterFailure;

// Each value breaks the result contract in a different way; safeRun must catch every one.
const GARBAGE: readonly [GarbageVariant, ...GarbageVariant[]] = [
  ['null', () => null],
  ['undefined', () => undefined],
  ['string', () => 'OK'],
  ['number', () => 42],
  ['array', () => []],
  ['ok-not-boolean', () => ({ ok: 'yes' })],
  ['nan-usage', () => ({ ok: true, text: 'x', usage: { inputTokens: Number.NaN, outputTokens: 1 }, latencyMs: 0, modelId: 'garbage' })],
  ['missing-usage', () => ({ ok: true, text: 'x', latencyMs: 0, modelId: 'garbage' })],
  ['text-not-string', () => ({ ok: true, text: 42, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, modelId: 'garbage' })],
  ['negative-latency', () => ({ ok: true, text: 'x', usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: -1, modelId: 'garbage' })],
  ['unknown-failure-kind', () => ({ ok: false, failure: { kind: 'meltdown', message: 'x' }, retryable: true, latencyMs: 0 })],
  ['failure-without-retryable', () => ({ ok: false, failure: { kind: 'transport', message: 'x' }, latencyMs: 0 })],
  [
    'throwing-getter',
    () => ({
      get ok(): boolean {
        throw new Error('faulty adapter: a result whose fields throw when read');
      },
    }),
  ],
];

// adapter_threw is left out: only safeRun may produce it.
const FAILURES: readonly [MakeFailure, ...MakeFailure[]] = [
  (r) => ({ kind: 'timeout', timeoutMs: Math.floor(r * 10_000), message: 'injected timeout' }),
  () => ({ kind: 'aborted', message: 'injected abort' }),
  (r) =>
    r < 0.5
      ? { kind: 'rate_limited', retryAfterMs: Math.floor(r * 2_000), message: 'injected rate limit' }
      : { kind: 'rate_limited', message: 'injected rate limit' },
  () => ({ kind: 'transport', message: 'injected connection reset' }),
  (r) => ({ kind: 'provider_error', status: [400, 401, 408, 429, 500, 503][Math.floor(r * 6)] ?? 500, message: 'injected provider error' }),
  () => ({ kind: 'refused', message: 'injected refusal' }),
  () => ({ kind: 'invalid_output', message: 'injected invalid output', issues: ['(root): injected'] }),
  () => ({ kind: 'empty_output', message: 'injected empty answer' }),
  (r) => ({ kind: 'truncated', maxOutputTokens: 1 + Math.floor(r * 4_096), message: 'injected cut-off answer' }),
  () => ({ kind: 'paused', message: 'injected paused turn' }),
];

/**
 * A fault-injecting adapter driven by a seeded generator: each call draws a behaviour from
 * `faults`, a delay from `latency`, and a variant (which garbage value, which failure kind).
 * Every call draws the same amount of randomness, so the decision for call N depends only on
 * the seed and N. A `hang` listens to the abort signal and settles as `aborted` when it fires,
 * so a caller that aborts leaks nothing.
 *
 * @example
 * const adapter = faultyAdapter({ seed: 7, faults: { throw: 0.1, hang: 0.1, garbage: 0.2 }, latency: { minMs: 0, maxMs: 5 } });
 */
export function faultyAdapter(options: FaultyAdapterOptions): FaultyAdapter {
  const thresholds = cumulativeFaults(options.faults ?? {});
  const latency = checkLatency(options.latency ?? { minMs: 0, maxMs: 0 });
  const inner = options.inner ?? fixedAdapter('ok');
  const clock = options.clock ?? systemClock;
  const random: SeededRandom = seededRandom(options.seed);
  const history: FaultyCall[] = [];

  return {
    specificationVersion: 'v1',
    id: options.id ?? `faulty(${inner.id})`,
    history,
    run(request, runOptions) {
      const index = history.length;
      const behaviourRoll = random.next();
      const delayMs = latency.minMs + Math.floor(random.next() * (latency.maxMs - latency.minMs + 1));
      const variantRoll = random.next();
      const extraRoll = random.next();
      const behaviour = thresholds.find(([, upTo]) => behaviourRoll < upTo)?.[0] ?? 'ok';
      const signal = runOptions.signal;
      const record = (detail?: string): void => {
        history.push({ index, behaviour, delayMs, ...(detail === undefined ? {} : { detail }) });
      };
      const aborted = (): ModelRunFailure => ({
        ok: false,
        failure: { kind: 'aborted', message: signal?.reason === undefined ? 'aborted by the caller' : errorMessage(signal.reason) },
        retryable: false,
        latencyMs: 0,
      });
      const afterDelay = async <T>(then: () => T | PromiseLike<T>): Promise<T | ModelRunFailure> => {
        if (delayMs > 0 && !(await sleep(delayMs, clock, signal))) return aborted();
        return then();
      };

      switch (behaviour) {
        case 'throw':
          record();
          throw new Error(`faulty adapter: injected synchronous throw (call ${index})`);
        case 'reject':
          record();
          return afterDelay(() => Promise.reject(new Error(`faulty adapter: injected rejection (call ${index})`)));
        case 'hang':
          record();
          return hang(signal, aborted);
        case 'garbage': {
          const [name, make] = pickBy(variantRoll, GARBAGE);
          record(name);
          // Deliberately breaks the type: this is what a broken adapter hands to safeRun.
          return afterDelay(make) as Promise<ModelRunResult>;
        }
        case 'failure': {
          const failure = pickBy(variantRoll, FAILURES)(extraRoll);
          record(failure.kind);
          return afterDelay(
            () => ({ ok: false, failure, retryable: isRetryableByDefault(failure), latencyMs: 0 }) satisfies ModelRunFailure,
          );
        }
        case 'hostile': {
          const [spot, way] = pickBy(
            variantRoll,
            HOSTILE_REPLIES as readonly [readonly [HostileSpot, HostileWay], ...(readonly [HostileSpot, HostileWay])[]],
          );
          record(`${spot}:${way}`);
          // Deliberately breaks the type: the answer throws when the spot is read.
          return afterDelay(async () => hostileReply(await inner.run(request, runOptions), spot, way)) as Promise<ModelRunResult>;
        }
        case 'ok':
          record();
          return afterDelay(() => inner.run(request, runOptions));
      }
    },
  };
}

/**
 * An adapter that always behaves one way; with `fault()` it makes "for every misbehaviour"
 * properties. `garbage`, `failure` and `hostile` vary their value per call, from `seed`.
 *
 * @example
 * fc.assert(fc.asyncProperty(fault(), async (kind) => { const result = await safeRun(misbehavingAdapter(kind), request, { timeoutMs: 10 }); ... }));
 */
export function misbehavingAdapter(kind: AdapterBehaviour, inner?: ModelAdapter, seed = 0): FaultyAdapter {
  return faultyAdapter({
    seed,
    faults: kind === 'ok' ? {} : { [kind]: 1 },
    ...(inner === undefined ? {} : { inner }),
    id: `misbehaving(${kind})`,
  });
}

function hang(signal: AbortSignal | undefined, aborted: () => ModelRunFailure): Promise<ModelRunResult> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) {
      resolve(aborted());
      return;
    }
    signal.addEventListener('abort', () => resolve(aborted()), { once: true });
  });
}

function cumulativeFaults(faults: Partial<Readonly<Record<Fault, number>>>): (readonly [Fault, number])[] {
  let total = 0;
  const out: (readonly [Fault, number])[] = [];
  for (const fault of FAULTS) {
    const p = faults[fault] ?? 0;
    if (!(p >= 0 && p <= 1)) throw new RangeError(`faultyAdapter: faults.${fault} must be a probability in [0, 1], got ${p}`);
    total += p;
    if (p > 0) out.push([fault, total]);
  }
  if (total > 1 + 1e-9) throw new RangeError(`faultyAdapter: fault probabilities sum to ${total}, more than 1`);
  // Probabilities that sum to 1 must leave no room for `ok`, even when the sum rounds below 1.
  const last = out.at(-1);
  if (last !== undefined && total >= 1 - 1e-9) out[out.length - 1] = [last[0], Infinity];
  return out;
}

function pickBy<T>(roll: number, items: readonly [T, ...T[]]): T {
  return items[Math.min(items.length - 1, Math.floor(roll * items.length))] ?? items[0];
}

function checkLatency(latency: { readonly minMs: number; readonly maxMs: number }): { minMs: number; maxMs: number } {
  const { minMs, maxMs } = latency;
  if (!Number.isInteger(minMs) || !Number.isInteger(maxMs) || minMs < 0 || maxMs < minMs) {
    throw new RangeError(`faultyAdapter: latency needs whole milliseconds 0 <= minMs <= maxMs, got ${minMs}..${maxMs}`);
  }
  return { minMs, maxMs };
}

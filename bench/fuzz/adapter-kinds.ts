/**
 * The catalogue of adapter behaviours the fault campaign draws members from: honest adapters
 * (which must be counted), ordinary faults (throw, reject, hang, garbage, broken scores; which
 * must never be counted) and hostile objects (throwing getters and Proxies at every depth, a
 * hostile adapter object; which must never be counted and never make `run` reject). Where
 * `@conclave/testing` already has a misbehaviour it is used as is, so the campaign also covers
 * whatever kinds that package gains.
 */
import type { ModelAdapter, ModelRequest, ModelRunOptions, ModelRunResult } from '@conclave/core';
import { ADAPTER_BEHAVIOURS, faultyAdapter, misbehavingAdapter } from '@conclave/testing';
import { makeCircular, plantThrowingGetter, plantThrowingToJson, thenableOf, throwingProxy } from './hostile-values.js';

/** Which engine a member answers. */
export type Engine = 'debate' | 'meeting';

/**
 * What the oracle expects of a member with this adapter: `valid` must be counted (unless the run
 * stopped), `fails` must never be counted, `either` may go both ways (its value is still checked).
 */
export type Expectation = 'valid' | 'fails' | 'either';

/**
 * `honest` and `fault` kinds pass today and stay behind the campaign test's zero-rejection
 * assertion; `hostile` kinds (throwing getters, Proxies, hostile adapter objects) are what
 * issue 19 fixes.
 */
export type KindFamily = 'honest' | 'fault' | 'hostile';

/** What a kind needs to build one member's adapter. */
export interface KindContext {
  readonly engine: Engine;
  readonly memberId: string;
  /** Seeds `@conclave/testing`'s generators, so a replayed run injects the same faults. */
  readonly seed: number;
  /** The engine's per-call deadline: a late reply waits past it. */
  readonly timeoutMs: number;
  /** The honest reply value for a request: a fresh plain object on every call, safe to mutate. */
  readonly honest: (request: ModelRequest) => Record<string, unknown>;
  /** Aborts the whole run, as a caller pressing Ctrl-C mid-debate would. */
  readonly abort: () => void;
}

/** One adapter behaviour. */
export interface AdapterKind {
  readonly name: string;
  readonly family: KindFamily;
  readonly expect: Expectation | Readonly<Record<Engine, Expectation>>;
  readonly make: (context: KindContext) => ModelAdapter;
}

/** What the oracle expects of a kind in an engine. */
export function expectationOf(kind: AdapterKind, engine: Engine): Expectation {
  return typeof kind.expect === 'string' ? kind.expect : kind.expect[engine];
}

const USAGE = { inputTokens: 10, outputTokens: 10 } as const;

function success(text: string, value?: unknown): ModelRunResult {
  return { ok: true, text, ...(value === undefined ? {} : { value }), usage: USAGE, latencyMs: 0, modelId: 'fuzz' };
}

type Answer = (request: ModelRequest, options: ModelRunOptions, context: KindContext) => PromiseLike<ModelRunResult> | ModelRunResult;

/** A well-behaved adapter object around `answer`: only what it answers misbehaves. */
function adapterOf(name: string, context: KindContext, answer: Answer): ModelAdapter {
  return {
    specificationVersion: 'v1',
    id: `fuzz-${name}`,
    run: (request, options) => {
      const answered = answer(request, options, context);
      return isPromiseLike(answered) ? answered : Promise.resolve(answered);
    },
  };
}

function isPromiseLike(value: unknown): value is PromiseLike<ModelRunResult> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** An adapter answering with the honest value, reshaped by `reshape` (which may mutate it). */
function valueKind(
  name: string,
  family: KindFamily,
  expect: AdapterKind['expect'],
  reshape: (value: Record<string, unknown>) => unknown,
): AdapterKind {
  return {
    name,
    family,
    expect,
    make: (context) => adapterOf(name, context, (request) => success('', reshape(context.honest(request)))),
  };
}

/** The object holding what a member scores: a council reply's `scores`, a meeting stance itself. */
function scoreHolder(value: Record<string, unknown>): Record<string, unknown> {
  const scores = value['scores'];
  return typeof scores === 'object' && scores !== null ? (scores as Record<string, unknown>) : value;
}

/** The number the score kinds corrupt: a council reply's first axis, a stance's confidence. */
function scoreKey(holder: Record<string, unknown>): string {
  return Object.hasOwn(holder, 'confidence') ? 'confidence' : (Object.keys(holder)[0] ?? 'score');
}

function setScore(value: Record<string, unknown>, to: unknown): Record<string, unknown> {
  const holder = scoreHolder(value);
  holder[scoreKey(holder)] = to;
  return value;
}

/** The first field holding text: a council statement, a stance's preferred option, a summary. */
function textKey(value: Record<string, unknown>): string {
  return Object.keys(value).find((key) => typeof value[key] === 'string') ?? 'statement';
}

/** The first field holding a container: a council reply's scores, a stance's reasons. */
function containerKey(value: Record<string, unknown>): string {
  return Object.keys(value).find((key) => typeof value[key] === 'object' && value[key] !== null) ?? 'scores';
}

/** The last field holding a list: a council reply's evidence, a stance's proposed options. */
function listKey(value: Record<string, unknown>): string {
  return Object.keys(value).findLast((key) => Array.isArray(value[key])) ?? 'evidence';
}

const ONE_MB = 'x'.repeat(1_000_000);

const HONEST: readonly AdapterKind[] = [
  valueKind('honest-value', 'honest', 'valid', (value) => value),
  {
    name: 'honest-text',
    family: 'honest',
    expect: 'valid',
    make: (context) => adapterOf('honest-text', context, (request) => success(JSON.stringify(context.honest(request)))),
  },
  {
    name: 'honest-fenced',
    family: 'honest',
    expect: 'valid',
    make: (context) =>
      adapterOf('honest-fenced', context, (request) =>
        success(`Here is my view.\n\`\`\`json\n${JSON.stringify(context.honest(request), null, 2)}\n\`\`\`\nThat is all.`),
      ),
  },
  {
    name: 'honest-slow',
    family: 'honest',
    expect: 'valid',
    make: (context) =>
      adapterOf(
        'honest-slow',
        context,
        (request) => new Promise((resolve) => setTimeout(() => resolve(success('', context.honest(request))), 1 + (context.seed % 3))),
      ),
  },
  {
    // PromiseLike is what the contract allows; a thenable that is no Promise must work.
    name: 'thenable-result',
    family: 'honest',
    expect: 'valid',
    make: (context) => adapterOf('thenable-result', context, (request) => thenableOf(success('', context.honest(request)))),
  },
  {
    // Duplicate replies: a thenable that fulfils twice, with different values, then rejects.
    // Only the first settlement may count.
    name: 'double-settle',
    family: 'honest',
    expect: 'valid',
    make: (context) =>
      adapterOf('double-settle', context, (request) => ({
        then<R1, R2>(
          onFulfilled?: ((v: ModelRunResult) => R1 | PromiseLike<R1>) | null,
          onRejected?: ((e: unknown) => R2 | PromiseLike<R2>) | null,
        ): PromiseLike<R1 | R2> {
          const first = success('', context.honest(request));
          const second = success('', setScore(context.honest(request), 0));
          const result = Promise.resolve(first).then(onFulfilled, onRejected);
          void Promise.resolve(second).then(onFulfilled, onRejected);
          void Promise.reject(new Error('double-settle: late rejection')).then(onFulfilled, onRejected);
          return result;
        },
      })),
  },
  // Fields a member may not set (who it is, how much it weighs): ignored by the council,
  // refused by the meeting's strict stance schema.
  valueKind('foreign-fields', 'honest', { debate: 'valid', meeting: 'fails' }, (value) => ({
    ...value,
    memberId: 'someone-else',
    weight: 1e6,
  })),
  valueKind('huge-statement', 'honest', 'either', (value) => {
    const key = textKey(value);
    // A council statement is free text; a meeting's first text field is an option id, so the
    // megabyte goes into its reasons instead.
    if (key === 'preferredOption') value['reasons'] = [ONE_MB];
    else value[key] = ONE_MB;
    return value;
  }),
];

const SCORE_FAULTS: readonly AdapterKind[] = [
  valueKind('nan-score', 'fault', 'fails', (value) => setScore(value, Number.NaN)),
  valueKind('infinity-score', 'fault', 'fails', (value) => setScore(value, Number.POSITIVE_INFINITY)),
  valueKind('minus-infinity-score', 'fault', 'fails', (value) => setScore(value, Number.NEGATIVE_INFINITY)),
  valueKind('out-of-range-score', 'fault', 'fails', (value) => setScore(value, Object.hasOwn(value, 'confidence') ? 1.5 : 10.5)),
  valueKind('huge-score', 'fault', 'fails', (value) => setScore(value, 1e308)),
  valueKind('string-score', 'fault', 'fails', (value) => setScore(value, '7')),
  valueKind('missing-axis', 'fault', 'fails', (value) => {
    const holder = scoreHolder(value);
    delete holder[scoreKey(holder)];
    return value;
  }),
  valueKind('unknown-axis', 'fault', 'fails', (value) => {
    scoreHolder(value)['bogus'] = 5;
    return value;
  }),
  valueKind('empty-statement', 'fault', 'fails', (value) => {
    const key = textKey(value);
    value[key] = '   ';
    return value;
  }),
  valueKind('thenable-value', 'fault', 'fails', (value) => thenableOf(value)),
  valueKind('circular-scores', 'fault', 'fails', (value) => {
    makeCircular(scoreHolder(value));
    return value;
  }),
  // Valid fields plus a loop or a throwing toJSON: whether the member counts depends on the
  // schema's strictness, but nothing may throw or hang on it.
  valueKind('circular-value', 'fault', 'either', (value) => {
    makeCircular(value, 'loop');
    return value;
  }),
  valueKind('throwing-tojson', 'fault', 'either', (value) => {
    plantThrowingToJson(value);
    return value;
  }),
];

const TEXT_FAULTS: readonly AdapterKind[] = [
  {
    name: 'garbage-text',
    family: 'fault',
    expect: 'fails',
    make: (context) => adapterOf('garbage-text', context, () => success('I think we should go ahead, broadly.')),
  },
  { name: 'empty-text', family: 'fault', expect: 'fails', make: (context) => adapterOf('empty-text', context, () => success('')) },
  {
    name: 'json-array-text',
    family: 'fault',
    expect: 'fails',
    make: (context) => adapterOf('json-array-text', context, () => success('[7, 7, 7]')),
  },
  {
    name: 'truncated-json',
    family: 'fault',
    expect: 'fails',
    make: (context) => adapterOf('truncated-json', context, (request) => success(JSON.stringify(context.honest(request)).slice(0, -2))),
  },
];

const CALL_FAULTS: readonly AdapterKind[] = [
  {
    name: 'throw-string',
    family: 'fault',
    expect: 'fails',
    make: (context) =>
      adapterOf('throw-string', context, () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a foreign adapter may throw anything
        throw 'boom';
      }),
  },
  {
    name: 'throw-undefined',
    family: 'fault',
    expect: 'fails',
    make: (context) =>
      adapterOf('throw-undefined', context, () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a foreign adapter may throw anything
        throw undefined;
      }),
  },
  {
    name: 'reject-null',
    family: 'fault',
    expect: 'fails',
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a foreign adapter may reject with anything
    make: (context) => adapterOf('reject-null', context, () => Promise.reject(null)),
  },
  // Ignores the abort signal entirely: only the engine's own deadline ends it.
  {
    name: 'hang-deaf',
    family: 'fault',
    expect: 'fails',
    make: (context) => adapterOf('hang-deaf', context, () => new Promise<never>(() => undefined)),
  },
  {
    // Replies three deadlines late. 'either', not 'fails': when the event loop stalls, Node can
    // fire a longer timer before a shorter one set just before it (seen in this campaign: a
    // 150 ms timer before a 50 ms one after a 300 ms stall), so under load the reply may beat
    // the engine's deadline timer. If it is counted, its scores must still be the ones it sent.
    name: 'late-reply',
    family: 'fault',
    expect: 'either',
    make: (context) =>
      adapterOf(
        'late-reply',
        context,
        (request) => new Promise((resolve) => setTimeout(() => resolve(success('', context.honest(request))), context.timeoutMs * 3)),
      ),
  },
  {
    // Aborts the caller's signal from inside a call, then waits for that abort to reach it.
    name: 'abort-mid-run',
    family: 'fault',
    expect: 'fails',
    make: (context) =>
      adapterOf('abort-mid-run', context, (_request, options) => {
        context.abort();
        return new Promise((resolve) => {
          const aborted = (): void =>
            resolve({ ok: false, failure: { kind: 'aborted', message: 'aborted mid-run' }, retryable: false, latencyMs: 0 });
          if (options.signal === undefined || options.signal.aborted) aborted();
          else options.signal.addEventListener('abort', aborted, { once: true });
        });
      }),
  },
];

/** Every misbehaviour of `@conclave/testing`, and a seeded mix of them around an honest adapter. */
function testingKinds(): AdapterKind[] {
  const ordinary = new Set(['throw', 'reject', 'hang', 'garbage', 'failure']);
  const kinds: AdapterKind[] = ADAPTER_BEHAVIOURS.filter((behaviour) => behaviour !== 'ok').map((behaviour) => ({
    name: `testing:${behaviour}`,
    // Kinds that package gains after this file was written are the hostile ones of issue 19.
    family: ordinary.has(behaviour) ? 'fault' : 'hostile',
    expect: 'fails',
    make: (context) => misbehavingAdapter(behaviour, HONEST[0]?.make(context), context.seed),
  }));
  kinds.push({
    name: 'testing:mixed',
    family: 'fault',
    expect: 'either',
    make: (context) =>
      faultyAdapter({
        seed: context.seed,
        faults: { throw: 0.1, reject: 0.1, hang: 0.1, garbage: 0.1, failure: 0.1 },
        latency: { minMs: 0, maxMs: 2 },
        ...(HONEST[0] === undefined ? {} : { inner: HONEST[0].make(context) }),
        id: 'fuzz-testing-mixed',
      }),
  });
  return kinds;
}

/** Plants a throwing getter on the field `key` picks, or on an element of it. */
function getterKind(name: string, plant: (value: Record<string, unknown>) => void): AdapterKind {
  return valueKind(name, 'hostile', 'fails', (value) => {
    plant(value);
    return value;
  });
}

const HOSTILE: readonly AdapterKind[] = [
  {
    name: 'getter-result-text',
    family: 'hostile',
    expect: 'fails',
    make: (context) =>
      adapterOf('getter-result-text', context, (request) => {
        const result = success('', context.honest(request)) as unknown as Record<string, unknown>;
        plantThrowingGetter(result, 'text', 'result.text');
        return result as unknown as ModelRunResult;
      }),
  },
  {
    name: 'getter-result-value',
    family: 'hostile',
    expect: 'fails',
    make: (context) =>
      adapterOf('getter-result-value', context, () => {
        const result = success('') as unknown as Record<string, unknown>;
        plantThrowingGetter(result, 'value', 'result.value');
        return result as unknown as ModelRunResult;
      }),
  },
  getterKind('getter-value-text', (value) => plantThrowingGetter(value, textKey(value), 'value.<text field>')),
  getterKind('getter-value-container', (value) => plantThrowingGetter(value, containerKey(value), 'value.<container field>')),
  getterKind('getter-value-leaf', (value) => {
    const container = value[containerKey(value)] as object;
    const first = Array.isArray(container) ? 0 : (Object.keys(container)[0] ?? 'x');
    plantThrowingGetter(container, first, 'value.<container>.<first>');
  }),
  getterKind('getter-list-item', (value) => {
    const item = {};
    plantThrowingGetter(item, 'claim', 'value.<list>[0].claim');
    value[listKey(value)] = [item];
  }),
  valueKind('proxy-value', 'hostile', 'fails', () => throwingProxy('value')),
  valueKind('proxy-container', 'hostile', 'fails', (value) => ({ ...value, [containerKey(value)]: throwingProxy('value.<container>') })),
  valueKind('proxy-list-item', 'hostile', 'fails', (value) => ({ ...value, [listKey(value)]: [throwingProxy('value.<list>[0]')] })),
  {
    name: 'proxy-result',
    family: 'hostile',
    expect: 'fails',
    make: (context) => adapterOf('proxy-result', context, () => throwingProxy('result') as ModelRunResult),
  },
  {
    name: 'proxy-usage',
    family: 'hostile',
    expect: 'fails',
    make: (context) =>
      adapterOf('proxy-usage', context, (request) => ({
        ...success('', context.honest(request)),
        usage: throwingProxy('result.usage') as never,
      })),
  },
  {
    name: 'throw-proxy',
    family: 'hostile',
    expect: 'fails',
    make: (context) =>
      adapterOf('throw-proxy', context, () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a foreign adapter may throw anything
        throw throwingProxy('thrown value');
      }),
  },
  {
    name: 'thenable-then-getter',
    family: 'hostile',
    expect: 'fails',
    make: (context) =>
      adapterOf('thenable-then-getter', context, () => {
        const hostile = {};
        plantThrowingGetter(hostile, 'then', 'result.then');
        return hostile as ModelRunResult;
      }),
  },
  { name: 'proxy-adapter', family: 'hostile', expect: 'fails', make: () => throwingProxy('adapter') as ModelAdapter },
  {
    // 'either': its `run` answers honestly, so counting it is not unsafe (before issue 19 the
    // meeting, which never read `id`, did); refusing an adapter without a readable id is right too.
    name: 'id-getter',
    family: 'hostile',
    expect: 'either',
    make: (context) => {
      const adapter = adapterOf('id-getter', context, (request) => success('', context.honest(request)));
      plantThrowingGetter(adapter, 'id', 'adapter.id');
      return adapter;
    },
  },
  {
    name: 'run-getter',
    family: 'hostile',
    expect: 'fails',
    make: (context) => {
      const adapter = adapterOf('run-getter', context, (request) => success('', context.honest(request)));
      plantThrowingGetter(adapter, 'run', 'adapter.run');
      return adapter;
    },
  },
];

/** Every kind the campaign draws from; honest ones first. */
export const ADAPTER_KINDS: readonly AdapterKind[] = [
  ...HONEST,
  ...testingKinds(),
  ...SCORE_FAULTS,
  ...TEXT_FAULTS,
  ...CALL_FAULTS,
  ...HOSTILE,
];

/** The kinds that pass `include`, in catalogue order. */
export function kindsIncluded(include: (kind: AdapterKind) => boolean): AdapterKind[] {
  return ADAPTER_KINDS.filter(include);
}

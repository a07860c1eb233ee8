import { ADAPTER_FAILURE_KINDS, type ModelRequest, type ModelRunResult } from '@conclave/core';
import { parseRunResult } from '@conclave/core/adapter-kit';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fault } from '../arbitraries/fault.js';
import { ADAPTER_BEHAVIOURS, faultyAdapter, FAULTS, misbehavingAdapter, type FaultyAdapter } from './faulty-adapter.js';
import { fixedAdapter } from './fixed-adapter.js';
import { manualClock } from './manual-clock.js';

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }] };

/** Calls the adapter `n` times without waiting (a hang would never finish), aborting each call. */
function drive(adapter: FaultyAdapter, n: number): void {
  for (let i = 0; i < n; i++) {
    const controller = new AbortController();
    try {
      const pending = adapter.run(request, { signal: controller.signal });
      Promise.resolve(pending).catch(() => undefined);
    } catch {
      // a synchronous throw is one of the injected faults
    }
    controller.abort();
  }
}

/** Settles a call however it ends: `threw`, `rejected`, or the value it resolved to. */
async function outcome(adapter: FaultyAdapter, signal?: AbortSignal): Promise<{ how: 'threw' | 'rejected' | 'resolved'; value?: unknown }> {
  let pending: PromiseLike<ModelRunResult>;
  try {
    pending = adapter.run(request, signal === undefined ? {} : { signal });
  } catch {
    return { how: 'threw' };
  }
  try {
    return { how: 'resolved', value: await pending };
  } catch {
    return { how: 'rejected' };
  }
}

describe('faultyAdapter', () => {
  const someFaults = fc.record({
    throw: fc.double({ min: 0, max: 0.2, noNaN: true }),
    reject: fc.double({ min: 0, max: 0.2, noNaN: true }),
    hang: fc.double({ min: 0, max: 0.2, noNaN: true }),
    garbage: fc.double({ min: 0, max: 0.2, noNaN: true }),
    failure: fc.double({ min: 0, max: 0.2, noNaN: true }),
  });

  it('makes the same decisions for the same seed', () => {
    fc.assert(
      fc.property(fc.integer(), someFaults, fc.nat({ max: 20 }), (seed, faults, maxMs) => {
        const make = () => faultyAdapter({ seed, faults, latency: { minMs: 0, maxMs }, clock: manualClock() });
        const first = make();
        const second = make();
        drive(first, 20);
        drive(second, 20);
        expect(first.history).toHaveLength(20);
        expect(second.history).toEqual(first.history);
      }),
    );
  });

  it('makes different decisions for different seeds', () => {
    const faults = { throw: 0.2, reject: 0.2, hang: 0.2, garbage: 0.2 };
    const a = faultyAdapter({ seed: 1, faults });
    const b = faultyAdapter({ seed: 2, faults });
    drive(a, 40);
    drive(b, 40);
    expect(b.history).not.toEqual(a.history);
  });

  it('injects each fault at roughly its probability', () => {
    const adapter = faultyAdapter({ seed: 99, faults: { throw: 0.1, reject: 0.2, hang: 0.1, garbage: 0.15, failure: 0.05 } });
    drive(adapter, 4_000);
    const share = (behaviour: string) => adapter.history.filter((call) => call.behaviour === behaviour).length / 4_000;
    expect(share('throw')).toBeCloseTo(0.1, 1);
    expect(share('reject')).toBeCloseTo(0.2, 1);
    expect(share('hang')).toBeCloseTo(0.1, 1);
    expect(share('garbage')).toBeCloseTo(0.15, 1);
    expect(share('failure')).toBeCloseTo(0.05, 1);
    expect(share('ok')).toBeCloseTo(0.4, 1);
  });

  it('never injects a fault whose probability is 0 and always injects one whose probability is 1', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...FAULTS), (seed, only) => {
        const adapter = faultyAdapter({ seed, faults: { [only]: 1 } });
        drive(adapter, 30);
        expect(adapter.history.every((call) => call.behaviour === only)).toBe(true);
      }),
    );
  });

  it('throws synchronously for `throw` and rejects for `reject`', async () => {
    expect(() => misbehavingAdapter('throw').run(request, {})).toThrow(/injected synchronous throw/);
    await expect(misbehavingAdapter('reject').run(request, {})).rejects.toThrow(/injected rejection/);
  });

  it('hangs until the signal aborts, then settles as aborted', async () => {
    const adapter = misbehavingAdapter('hang');
    const controller = new AbortController();
    let settled: ModelRunResult | undefined;
    void Promise.resolve(adapter.run(request, { signal: controller.signal })).then((result) => (settled = result));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled).toBeUndefined();
    controller.abort(new Error('deadline'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(settled).toMatchObject({ ok: false, failure: { kind: 'aborted', message: 'deadline' } });
  });

  it('resolves `garbage` to values that are not ModelRunResults, of many shapes', async () => {
    const details = new Set<string>();
    for (let seed = 0; seed < 200; seed++) {
      const adapter = misbehavingAdapter('garbage', undefined, seed);
      const { how, value } = await outcome(adapter);
      expect(how).toBe('resolved');
      details.add(adapter.history[0]?.detail ?? '');
      let accepted: boolean;
      try {
        accepted = parseRunResult(value).isOk();
      } catch {
        accepted = false; // a value whose fields throw when read is garbage too
      }
      expect(accepted).toBe(false);
    }
    expect(details.size).toBeGreaterThanOrEqual(10);
  });

  it('resolves `failure` to well-formed failures of every kind except adapter_threw', async () => {
    const kinds = new Set<string>();
    for (let seed = 0; seed < 200; seed++) {
      const { how, value } = await outcome(misbehavingAdapter('failure', undefined, seed));
      expect(how).toBe('resolved');
      const parsed = parseRunResult(value);
      if (parsed.isErr() || parsed.value.ok) throw new Error(`not a well-formed failure: ${JSON.stringify(value)}`);
      kinds.add(parsed.value.failure.kind);
    }
    expect([...kinds].sort()).toEqual(ADAPTER_FAILURE_KINDS.filter((kind) => kind !== 'adapter_threw').sort());
  });

  it('lets the inner adapter answer `ok` calls', async () => {
    const { how, value } = await outcome(misbehavingAdapter('ok', fixedAdapter('inner says hi')));
    expect(how).toBe('resolved');
    expect(value).toMatchObject({ ok: true, text: 'inner says hi' });
  });

  it('waits a seeded delay within the latency bounds before answering', async () => {
    const clock = manualClock();
    const adapter = faultyAdapter({ seed: 5, latency: { minMs: 10, maxMs: 30 }, clock });
    for (let i = 0; i < 20; i++) {
      let settled = false;
      void Promise.resolve(adapter.run(request, {})).then(() => (settled = true));
      const delayMs = adapter.history[i]?.delayMs ?? -1;
      expect(delayMs).toBeGreaterThanOrEqual(10);
      expect(delayMs).toBeLessThanOrEqual(30);
      await clock.advanceAsync(delayMs - 1);
      expect(settled).toBe(false);
      await clock.advanceAsync(1);
      expect(settled).toBe(true);
    }
    expect(new Set(adapter.history.map((call) => call.delayMs)).size).toBeGreaterThan(5);
  });

  it('settles as aborted when the signal fires during the delay', async () => {
    const clock = manualClock();
    const adapter = faultyAdapter({ seed: 5, latency: { minMs: 50, maxMs: 50 }, clock });
    const controller = new AbortController();
    const pending = adapter.run(request, { signal: controller.signal });
    await clock.advanceAsync(10);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    expect(clock.pendingTimers).toBe(0);
  });

  it('rejects probabilities and latencies it cannot honour', () => {
    expect(() => faultyAdapter({ seed: 1, faults: { throw: 1.5 } })).toThrow(RangeError);
    expect(() => faultyAdapter({ seed: 1, faults: { throw: -0.1 } })).toThrow(RangeError);
    expect(() => faultyAdapter({ seed: 1, faults: { throw: Number.NaN } })).toThrow(RangeError);
    expect(() => faultyAdapter({ seed: 1, faults: { throw: 0.6, hang: 0.6 } })).toThrow(RangeError);
    expect(() => faultyAdapter({ seed: 1, latency: { minMs: 5, maxMs: 1 } })).toThrow(RangeError);
    expect(() => faultyAdapter({ seed: 1, latency: { minMs: -1, maxMs: 1 } })).toThrow(RangeError);
    expect(() => faultyAdapter({ seed: 1.5 })).toThrow(RangeError);
  });

  it('treats probabilities that sum to 1 as leaving no room for ok', () => {
    const adapter = faultyAdapter({ seed: 3, faults: { throw: 0.1, reject: 0.2, hang: 0.7 } });
    drive(adapter, 2_000);
    expect(adapter.history.some((call) => call.behaviour === 'ok')).toBe(false);
  });
});

describe('misbehavingAdapter', () => {
  it('always behaves the one way it was asked to', () => {
    fc.assert(
      fc.property(fault(), fc.nat(), (kind, seed) => {
        const adapter = misbehavingAdapter(kind, undefined, seed);
        drive(adapter, 10);
        expect(adapter.history.map((call) => call.behaviour)).toEqual(Array<string>(10).fill(kind));
      }),
    );
  });
});

describe('fault()', () => {
  it('produces every behaviour and nothing else', () => {
    const seen = new Set(fc.sample(fault(), { numRuns: 300, seed: 1 }));
    expect([...seen].sort()).toEqual([...ADAPTER_BEHAVIOURS].sort());
  });
});

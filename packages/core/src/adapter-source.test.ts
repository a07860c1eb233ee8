import { fixedAdapter, HOSTILE_ADAPTER_KINDS, hostileAdapter, throwingProxy } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import type { ModelAdapter } from './adapter.js';
import { bindAdapter, type AdapterSource } from './adapter-source.js';
import { safeRun } from './safe-run.js';

const request = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('bindAdapter', () => {
  it('finds an adapter by full reference, then by provider, and hands back a frozen copy that runs the original', async () => {
    const inner = fixedAdapter('from provider', { id: 'p' });
    const exact = fixedAdapter('exact', { id: 'e' });
    const bound = bindAdapter({ acme: inner, 'acme:exact': exact }, 'acme:model');
    expect(bound.ok).toBe(true);
    if (!bound.ok) return;
    expect(bound.adapter).not.toBe(inner);
    expect(Object.isFrozen(bound.adapter)).toBe(true);
    expect(bound.adapter.id).toBe('p');
    expect(await safeRun(bound.adapter, request)).toMatchObject({ ok: true, text: 'from provider' });
    const byRef = bindAdapter({ acme: inner, 'acme:exact': exact }, 'acme:exact');
    expect(byRef.ok && byRef.adapter.id).toBe('e');
  });

  it('calls run on the original adapter, so a class-based adapter keeps its `this`', async () => {
    class Counter implements ModelAdapter {
      readonly specificationVersion = 'v1' as const;
      readonly id = 'counter';
      calls = 0;
      run() {
        this.calls += 1;
        return Promise.resolve({
          ok: true as const,
          text: String(this.calls),
          usage: { inputTokens: 0, outputTokens: 0 },
          latencyMs: 0,
          modelId: 'c',
        });
      }
    }
    const counter = new Counter();
    const bound = bindAdapter({ c: counter }, 'c:m');
    if (!bound.ok) throw new Error(bound.message);
    expect(await safeRun(bound.adapter, request)).toMatchObject({ ok: true, text: '1' });
    expect(counter.calls).toBe(1);
  });

  it('says why a reference has no adapter, never throwing', () => {
    const cases: [AdapterSource, string][] = [
      [{}, 'no adapter serves "acme:m"'],
      [() => ({ unbound: 'set ACME_API_KEY' }), 'set ACME_API_KEY'],
      [
        () => {
          throw new Error('lookup broke');
        },
        'resolving the adapter threw: lookup broke',
      ],
      [throwingProxy({}), 'resolving the adapter threw'],
      [
        { acme: { specificationVersion: 'v2', id: 'x', run: () => Promise.resolve() } as unknown as ModelAdapter },
        'does not implement specificationVersion "v1"',
      ],
      [{ acme: { specificationVersion: 'v1', id: 7, run: () => Promise.resolve() } as unknown as ModelAdapter }, 'has no string id'],
      [{ acme: { specificationVersion: 'v1', id: 'x' } as unknown as ModelAdapter }, 'has no run function'],
      [{ acme: 'not an adapter' as unknown as ModelAdapter }, 'does not implement specificationVersion "v1"'],
      [() => ({ unbound: throwingProxy({}) }) as unknown as ModelAdapter, 'the adapter for "acme:m" cannot be served'],
    ];
    for (const [source, message] of cases) {
      const bound = bindAdapter(source, 'acme:m');
      expect(bound.ok).toBe(false);
      if (!bound.ok) expect(bound.message).toContain(message);
    }
  });

  it.each(HOSTILE_ADAPTER_KINDS)('turns a hostile adapter object (%s) into a reason, reading it once', (kind) => {
    expect(() => bindAdapter({ acme: hostileAdapter(kind) }, 'acme:m')).not.toThrow();
    const bound = bindAdapter({ acme: hostileAdapter(kind) }, 'acme:m');
    expect(bound).toMatchObject({ ok: false });
    if (!bound.ok) expect(bound.message).toMatch(/reading the adapter for "acme:m" threw|does not implement/);
  });
});

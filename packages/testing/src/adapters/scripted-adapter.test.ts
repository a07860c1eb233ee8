import { type ModelRequest, type ModelRunResult } from '@conclave/core';
import { parseRunResult } from '@conclave/core/adapter-kit';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { manualClock } from './manual-clock.js';
import { scriptedAdapter, type ScriptedReply } from './scripted-adapter.js';

const ask = (memberId?: string, phase?: string, content = 'question'): ModelRequest => ({
  messages: [{ role: 'user', content }],
  ...(memberId === undefined && phase === undefined
    ? {}
    : { metadata: { ...(memberId === undefined ? {} : { memberId }), ...(phase === undefined ? {} : { phase }) } }),
});

const failureOf = (result: ModelRunResult) => {
  if (result.ok) throw new Error(`expected a failure, got text ${JSON.stringify(result.text)}`);
  return result;
};
const successOf = (result: ModelRunResult) => {
  if (!result.ok) throw new Error(`expected a success, got ${result.failure.kind}: ${result.failure.message}`);
  return result;
};

describe('scriptedAdapter', () => {
  it('answers each member from its own script and records who asked what', async () => {
    const adapter = scriptedAdapter({ cfo: 'Margins are thin.', cto: { text: 'Feasible.', usage: { inputTokens: 12 } } });
    const first = ask('cfo', 'opening', 'pitch A');
    const second = ask('cto', 'opening', 'pitch B');
    const third = ask('cfo', 'rebuttal', 'pitch C');

    expect(successOf(await adapter.run(first, {})).text).toBe('Margins are thin.');
    const cto = successOf(await adapter.run(second, {}));
    expect(cto.text).toBe('Feasible.');
    expect(cto.usage).toEqual({ inputTokens: 12, outputTokens: 0 });
    expect(successOf(await adapter.run(third, {})).text).toBe('Margins are thin.');

    expect(adapter.calls).toEqual([
      { index: 0, memberIndex: 0, memberId: 'cfo', phase: 'opening', request: first },
      { index: 1, memberIndex: 0, memberId: 'cto', phase: 'opening', request: second },
      { index: 2, memberIndex: 1, memberId: 'cfo', phase: 'rebuttal', request: third },
    ]);
    expect(adapter.calls[0]?.request).toBe(first);
    expect(adapter.callsFor('cfo').map((call) => call.request)).toEqual([first, third]);
    expect(adapter.callsFor('nobody')).toEqual([]);
  });

  it('plays a list of replies in order and fails once the list runs out', async () => {
    const adapter = scriptedAdapter({ critic: ['one', { text: 'two' }] });
    expect(successOf(await adapter.run(ask('critic'), {})).text).toBe('one');
    expect(successOf(await adapter.run(ask('critic'), {})).text).toBe('two');
    const third = failureOf(await adapter.run(ask('critic'), {}));
    expect(third.failure.kind).toBe('invalid_output');
    expect(third.failure.message).toContain('has 2 replies; call 3 has none');
  });

  it('fails with invalid_output for a member without a script, naming the member', async () => {
    const adapter = scriptedAdapter({ cfo: 'yes' });
    const result = failureOf(await adapter.run(ask('ghost'), {}));
    expect(result.failure).toEqual({ kind: 'invalid_output', message: 'scripted adapter: there is no script for member "ghost"' });
    expect(result.retryable).toBe(false);
    expect(adapter.calls).toHaveLength(1);
  });

  it('does not mistake inherited object keys for script entries', async () => {
    const adapter = scriptedAdapter({ cfo: 'yes' });
    const result = failureOf(await adapter.run(ask('toString'), {}));
    expect(result.failure.message).toContain('no script for member "toString"');
  });

  it('fails with invalid_output when a keyed script gets a request without a member id', async () => {
    const adapter = scriptedAdapter({ cfo: 'yes' });
    const result = failureOf(await adapter.run(ask(), {}));
    expect(result.failure.kind).toBe('invalid_output');
    expect(result.failure.message).toContain('metadata.memberId');
  });

  it('passes the call position, member and phase to a script function', async () => {
    const seen: unknown[] = [];
    const adapter = scriptedAdapter((request, call) => {
      seen.push(call);
      return `${call.memberId ?? '-'}#${call.memberIndex}@${call.phase ?? '-'}:${request.messages[0]?.content ?? ''}`;
    });
    const texts = [];
    for (const request of [ask('a', 'p1', 'x'), ask('b', 'p1', 'y'), ask('a', 'p2', 'z'), ask()]) {
      texts.push(successOf(await adapter.run(request, {})).text);
    }
    expect(texts).toEqual(['a#0@p1:x', 'b#0@p1:y', 'a#1@p2:z', '-#0@-:question']);
    expect(seen).toEqual([
      { index: 0, memberIndex: 0, memberId: 'a', phase: 'p1' },
      { index: 1, memberIndex: 0, memberId: 'b', phase: 'p1' },
      { index: 2, memberIndex: 1, memberId: 'a', phase: 'p2' },
      { index: 3, memberIndex: 0 },
    ]);
  });

  it('returns scripted failures with the default or the scripted retryable flag', async () => {
    const adapter = scriptedAdapter({
      slow: { failure: { kind: 'rate_limited', message: 'busy' } },
      stubborn: { failure: { kind: 'rate_limited', message: 'busy' }, retryable: false },
    });
    expect(failureOf(await adapter.run(ask('slow'), {})).retryable).toBe(true);
    const stubborn = failureOf(await adapter.run(ask('stubborn'), {}));
    expect(stubborn.retryable).toBe(false);
    expect(stubborn.failure).toEqual({ kind: 'rate_limited', message: 'busy' });
  });

  it('keeps optional usage fields only when scripted', async () => {
    const adapter = scriptedAdapter({ m: { text: 't', usage: { outputTokens: 3, costUsd: 0.5 } } });
    expect(successOf(await adapter.run(ask('m'), {})).usage).toEqual({ inputTokens: 0, outputTokens: 3, costUsd: 0.5 });
  });

  it('waits delayMs on its clock and reports that as latency', async () => {
    const clock = manualClock();
    const adapter = scriptedAdapter({ m: { text: 'late', delayMs: 40 } }, { clock });
    let settled: ModelRunResult | undefined;
    void adapter.run(ask('m'), {}).then((result) => (settled = result));
    await clock.advanceAsync(39);
    expect(settled).toBeUndefined();
    await clock.advanceAsync(1);
    expect(successOf(settled as ModelRunResult).latencyMs).toBe(40);
  });

  it('answers aborted when the signal fires during a delay, and clears its timer', async () => {
    const clock = manualClock();
    const adapter = scriptedAdapter({ m: { text: 'late', delayMs: 40 } }, { clock });
    const controller = new AbortController();
    const pending = adapter.run(ask('m'), { signal: controller.signal });
    await clock.advanceAsync(10);
    controller.abort(new Error('caller gave up'));
    const result = failureOf(await pending);
    expect(result.failure).toEqual({ kind: 'aborted', message: 'caller gave up' });
    expect(clock.pendingTimers).toBe(0);
  });

  it('answers aborted at once when the signal has already fired', async () => {
    const adapter = scriptedAdapter(() => 'never');
    const result = failureOf(await adapter.run(ask(), { signal: AbortSignal.abort() }));
    expect(result.failure.kind).toBe('aborted');
  });

  describe('structured output', () => {
    const format = { type: 'json' as const, name: 'vote', schema: z.object({ score: z.number().min(0).max(10) }) };
    const structured = (memberId: string): ModelRequest => ({ ...ask(memberId), responseFormat: format });

    it('returns a scripted value that fits the schema, with JSON text', async () => {
      const adapter = scriptedAdapter({ m: { value: { score: 7 } } });
      const result = successOf(await adapter.run(structured('m'), {}));
      expect(result.value).toEqual({ score: 7 });
      expect(result.text).toBe('{"score":7}');
    });

    it('parses a text reply as JSON when a value is asked for', async () => {
      const adapter = scriptedAdapter({ m: '{"score": 3}' });
      expect(successOf(await adapter.run(structured('m'), {})).value).toEqual({ score: 3 });
    });

    it('answers invalid_output with the schema issues when the value does not fit', async () => {
      const adapter = scriptedAdapter({ m: { value: { score: 11 } }, n: 'not json' });
      const bad = failureOf(await adapter.run(structured('m'), {}));
      expect(bad.failure.kind).toBe('invalid_output');
      expect(bad.failure.kind === 'invalid_output' && bad.failure.issues?.[0]).toMatch(/^score: /);
      expect(failureOf(await adapter.run(structured('n'), {})).failure.kind).toBe('invalid_output');
    });

    it('passes values through unchecked when validation is off', async () => {
      const adapter = scriptedAdapter({ m: { value: { score: 11 } } }, { validate: false });
      expect(successOf(await adapter.run(structured('m'), {})).value).toEqual({ score: 11 });
    });
  });

  it('turns a script that throws or returns nonsense into invalid_output instead of rejecting', async () => {
    const throwing = scriptedAdapter(() => {
      throw new Error('script bug');
    });
    const thrown = failureOf(await throwing.run(ask(), {}));
    expect(thrown.failure).toEqual({ kind: 'invalid_output', message: 'scripted adapter: the script threw: script bug' });

    const nonsense = scriptedAdapter(() => null as unknown as ScriptedReply);
    expect(failureOf(await nonsense.run(ask(), {})).failure.kind).toBe('invalid_output');
  });

  it('always resolves to a well-formed ModelRunResult', async () => {
    const reply: fc.Arbitrary<ScriptedReply> = fc.oneof(
      fc.string(),
      fc.record(
        {
          text: fc.string(),
          value: fc.jsonValue(),
          usage: fc.record(
            { inputTokens: fc.nat(), outputTokens: fc.nat(), costUsd: fc.double({ min: 0, max: 1, noNaN: true }) },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
      fc.record({
        failure: fc.constantFrom(
          { kind: 'transport' as const, message: 'reset' },
          { kind: 'refused' as const, message: 'no' },
          { kind: 'provider_error' as const, status: 503, message: 'down' },
        ),
        retryable: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(reply, fc.string({ minLength: 1 }), async (scripted, member) => {
        const adapter = scriptedAdapter({ [member]: scripted });
        const result = await adapter.run(ask(member), {});
        expect(parseRunResult(result).isOk()).toBe(true);
        expect(result.ok).toBe(typeof scripted === 'string' || !('failure' in scripted));
      }),
    );
  });
});

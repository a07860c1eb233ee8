import { scriptedAdapter, type ScriptedReply } from '@conclave/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { askStructured } from './ask-structured.js';
import { safeRun } from './safe-run.js';

const schema = z.object({ verdict: z.enum(['go', 'stop']) });
const request = { messages: [{ role: 'user' as const, content: 'Go or stop?' }] };
const scripted = (replies: readonly ScriptedReply[]) =>
  scriptedAdapter((_request, call) => replies[call.index] ?? { failure: { kind: 'transport', message: 'no more replies' } }, {
    validate: false,
  });

describe('askStructured', () => {
  it('returns the validated value of a reply that fits, after one call', async () => {
    const asked = await askStructured(scripted(['{"verdict":"go"}']), request, schema);
    expect(asked).toMatchObject({ ok: true, value: { verdict: 'go' }, reasked: false });
    expect(asked.exchanges).toHaveLength(1);
  });

  it('re-asks once with the invalid reply and its issues, and takes a repaired answer', async () => {
    const adapter = scripted(['{"verdict":"maybe"}', '{"verdict":"stop"}']);
    const asked = await askStructured(adapter, request, schema);
    expect(asked).toMatchObject({ ok: true, value: { verdict: 'stop' }, reasked: true });
    const repair = JSON.stringify(adapter.calls[1]?.request.messages);
    expect(repair).toContain('{\\"verdict\\":\\"maybe\\"}');
    expect(repair).toContain('verdict: Invalid option');
  });

  it('gives up with invalid_output and the issues after the one re-ask, never a third call', async () => {
    const adapter = scripted(['nope', '{"verdict":"maybe"}', '{"verdict":"go"}']);
    const asked = await askStructured(adapter, request, schema);
    expect(asked).toMatchObject({ ok: false, kind: 'invalid_output', reasked: true });
    expect(adapter.calls).toHaveLength(2);
  });

  it('does not re-ask after a failure that is not a schema miss, and keeps the failure', async () => {
    const adapter = scripted([{ failure: { kind: 'refused', message: 'no' } }, '{"verdict":"go"}']);
    const asked = await askStructured(adapter, request, schema);
    expect(asked).toMatchObject({
      ok: false,
      kind: 'adapter_failed',
      message: 'refused: no',
      failure: { kind: 'refused' },
      reasked: false,
    });
    expect(adapter.calls).toHaveLength(1);
  });

  it('answers a bad timeoutMs with adapter_failed instead of rejecting', async () => {
    await expect(askStructured(scripted(['{"verdict":"go"}']), request, schema, { timeoutMs: -1 })).resolves.toMatchObject({
      ok: false,
      kind: 'adapter_failed',
    });
  });

  it('reports a call that declines to run as not_run, with the attempt it declined', async () => {
    const asked = await askStructured(scripted(['{}']), request, schema, {
      call: (adapter, r, attempt) => (attempt === 1 ? safeRun(adapter, r) : Promise.resolve({ notRun: 'budget_exhausted' as const })),
    });
    expect(asked).toMatchObject({ ok: false, kind: 'not_run', reason: 'budget_exhausted', reasked: true });
    expect(asked.exchanges).toHaveLength(1);
  });

  it('fails closed: only a reply that fits the schema is ok, and at most two calls are made', async () => {
    const reply = fc.oneof(
      fc.constantFrom('{"verdict":"go"}', '{"verdict":"stop"}', '{"verdict":"maybe"}', 'not json', ''),
      fc.constantFrom<ScriptedReply>(
        { failure: { kind: 'timeout', timeoutMs: 1, message: 'late' } },
        { failure: { kind: 'invalid_output', message: 'bad', issues: ['x'] } },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(reply, { minLength: 2, maxLength: 3 }), async (replies) => {
        const adapter = scripted(replies);
        const asked = await askStructured(adapter, request, schema);
        expect(adapter.calls.length).toBeLessThanOrEqual(2);
        if (asked.ok) expect(schema.safeParse(asked.value).success).toBe(true);
        const answered = replies.slice(0, adapter.calls.length).at(-1);
        if (asked.ok) expect(typeof answered === 'string' && schema.safeParse(JSON.parse(answered)).success).toBe(true);
      }),
    );
  });
});

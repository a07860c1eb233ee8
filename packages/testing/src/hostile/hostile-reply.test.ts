import { safeRun, type ModelRunResult } from '@conclave/core';
import { toPlainData } from '@conclave/core/data';
import { describe, expect, it } from 'vitest';
import { misbehavingAdapter } from '../adapters/faulty-adapter.js';
import { scriptedAdapter } from '../adapters/scripted-adapter.js';
import { HOSTILE_REPLIES, hostileReply } from './hostile-reply.js';

const answer: ModelRunResult = {
  ok: true,
  text: '{"statement":"s","scores":{"risk":5}}',
  value: { statement: 's', scores: { risk: 5 }, evidence: [{ claim: 'c' }] },
  usage: { inputTokens: 1, outputTokens: 1 },
  latencyMs: 0,
  modelId: 'm',
  providerMetadata: { acme: { id: 'x' } },
};
const request = { messages: [{ role: 'user' as const, content: 'q' }], metadata: { memberId: 'a' } };

describe('hostileReply', () => {
  it.each(HOSTILE_REPLIES)('plants a value at %s (%s) that throws when the reply is read', async (spot, way) => {
    const reply = hostileReply(answer, spot, way);
    expect(toPlainData(reply)._unsafeUnwrapErr()).toMatchObject({ kind: 'threw' });
    const adapter = { specificationVersion: 'v1' as const, id: 'h', run: () => Promise.resolve(reply as ModelRunResult) };
    expect(await safeRun(adapter, request)).toMatchObject({ ok: false, failure: { kind: 'adapter_threw' } });
  });

  it('leaves the rest of the answer as the inner adapter gave it', () => {
    const reply = hostileReply(answer, 'score', 'getter') as { text: string; value: { statement: string; scores: object } };
    expect(reply.text).toBe(answer.text);
    expect(reply.value.statement).toBe('s');
    expect(() => (reply.value.scores as { risk: number }).risk).toThrow('hostile value');
  });

  it('is the `hostile` fault of the faulty adapter, which records where it planted it', async () => {
    const adapter = misbehavingAdapter('hostile', scriptedAdapter({ a: { value: { statement: 's', scores: { risk: 5 } } } }), 3);
    const result = await safeRun(adapter, request);
    expect(result).toMatchObject({ ok: false, failure: { kind: 'adapter_threw' } });
    expect(adapter.history[0]?.detail).toMatch(/^[a-zA-Z.]+:(getter|proxy|revoked)$/);
  });
});

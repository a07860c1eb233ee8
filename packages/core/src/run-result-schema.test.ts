import { describe, expect, it } from 'vitest';
import { err, ok } from 'neverthrow';
import { parseRunResult } from './run-result-schema.js';

const success = { ok: true, text: 'hi', usage: { inputTokens: 1, outputTokens: 2 }, latencyMs: 3, modelId: 'm' };

describe('parseRunResult', () => {
  it('accepts a well-formed success and failure', () => {
    expect(parseRunResult(success)).toEqual(ok(success));
    const failure = { ok: false, failure: { kind: 'refused', message: 'no' }, retryable: false, latencyMs: 0 };
    expect(parseRunResult(failure)).toEqual(ok(failure));
  });

  it('drops keys it does not know', () => {
    const parsed = parseRunResult({ ...success, extra: 1, usage: { ...success.usage, bonus: 2 } });
    expect(parsed).toEqual(ok(success));
  });

  it('reports each problem with its path', () => {
    const parsed = parseRunResult({ ...success, usage: { inputTokens: -1, outputTokens: Number.NaN } });
    expect(parsed.isErr()).toBe(true);
    if (parsed.isOk()) return;
    expect(parsed.error.some((issue) => issue.startsWith('usage.inputTokens: '))).toBe(true);
    expect(parsed.error.some((issue) => issue.startsWith('usage.outputTokens: '))).toBe(true);
  });

  it('never throws, even when reading the value throws', () => {
    const hostile = new Proxy(
      { ok: true },
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(parseRunResult(hostile)).toEqual(err(['ok: reading it threw: trap']));
  });
});

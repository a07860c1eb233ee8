import { describe, expect, it } from 'vitest';
import { ADAPTER_FAILURE_KINDS, describeFailure, isRetryableByDefault, type AdapterFailure } from './failure.js';

describe('isRetryableByDefault', () => {
  const table: [AdapterFailure, boolean][] = [
    [{ kind: 'timeout', timeoutMs: 100, message: 'slow' }, true],
    [{ kind: 'aborted', message: 'cancelled' }, false],
    [{ kind: 'rate_limited', message: 'busy' }, true],
    [{ kind: 'rate_limited', retryAfterMs: 250, message: 'busy' }, true],
    [{ kind: 'transport', message: 'reset' }, true],
    [{ kind: 'provider_error', message: 'unknown status' }, true],
    [{ kind: 'provider_error', status: 500, message: 'server' }, true],
    [{ kind: 'provider_error', status: 503, message: 'unavailable' }, true],
    [{ kind: 'provider_error', status: 408, message: 'request timeout' }, true],
    [{ kind: 'provider_error', status: 429, message: 'too many requests' }, true],
    [{ kind: 'provider_error', status: 400, message: 'bad request' }, false],
    [{ kind: 'provider_error', status: 404, message: 'no such model' }, false],
    [{ kind: 'provider_error', status: 499, message: 'client closed' }, false],
    [{ kind: 'refused', message: 'policy' }, false],
    [{ kind: 'invalid_output', message: 'not json' }, false],
    [{ kind: 'empty_output', message: 'only a tool call' }, false],
    [{ kind: 'truncated', maxOutputTokens: 1024, message: 'cut off' }, false],
    [{ kind: 'paused', message: 'server tool still running' }, false],
    [{ kind: 'adapter_threw', how: 'threw', message: 'bug' }, false],
    [{ kind: 'adapter_threw', how: 'rejected', message: 'bug' }, false],
    [{ kind: 'adapter_threw', how: 'malformed_result', message: 'bug' }, false],
  ];

  it.each(table)('%j → %s', (failure, retryable) => {
    expect(isRetryableByDefault(failure)).toBe(retryable);
  });

  it('the table covers every failure kind', () => {
    expect(new Set(table.map(([failure]) => failure.kind))).toEqual(new Set(ADAPTER_FAILURE_KINDS));
  });
});

describe('describeFailure', () => {
  it.each<[AdapterFailure, string]>([
    [{ kind: 'timeout', timeoutMs: 100, message: 'no answer within 100 ms' }, 'timeout: no answer within 100 ms'],
    [{ kind: 'aborted', message: 'cancelled' }, 'aborted: cancelled'],
    [{ kind: 'rate_limited', message: 'busy' }, 'rate_limited: busy'],
    [{ kind: 'rate_limited', retryAfterMs: 250, message: 'busy' }, 'rate_limited (retry after 250 ms): busy'],
    [{ kind: 'transport', message: 'reset' }, 'transport: reset'],
    [{ kind: 'provider_error', message: 'odd' }, 'provider_error: odd'],
    [{ kind: 'provider_error', status: 503, message: 'down' }, 'provider_error 503: down'],
    [{ kind: 'refused', message: 'policy' }, 'refused: policy'],
    [{ kind: 'invalid_output', message: 'not json', issues: ['a: b'] }, 'invalid_output: not json'],
    [{ kind: 'adapter_threw', how: 'rejected', message: 'bug' }, 'adapter_threw (rejected): bug'],
  ])('%j → %s', (failure, text) => {
    expect(describeFailure(failure)).toBe(text);
  });
});

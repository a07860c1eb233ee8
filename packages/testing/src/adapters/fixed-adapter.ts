import { ZERO_USAGE, type ModelAdapter } from '@conclave/core';

/** Options for `fixedAdapter`. */
export interface FixedAdapterOptions {
  readonly id?: string;
  readonly modelId?: string;
}

/**
 * A well-behaved adapter that answers every request with the same text at once and uses no
 * tokens; an already-aborted signal still yields an `aborted` failure, as the contract asks.
 *
 * @example
 * await safeRun(fixedAdapter('yes'), request); // { ok: true, text: 'yes', ... }
 */
export function fixedAdapter(text = 'ok', options: FixedAdapterOptions = {}): ModelAdapter {
  const modelId = options.modelId ?? 'fixed';
  return {
    specificationVersion: 'v1',
    id: options.id ?? 'fixed',
    run(_request, { signal }) {
      if (signal?.aborted) {
        return Promise.resolve({
          ok: false,
          failure: { kind: 'aborted', message: 'aborted before the call started' },
          retryable: false,
          latencyMs: 0,
          modelId,
        });
      }
      return Promise.resolve({ ok: true, text, usage: ZERO_USAGE, latencyMs: 0, modelId });
    },
  };
}

import type { ModelAdapter } from '@conclave/core';
import { fixedAdapter } from '../adapters/fixed-adapter.js';
import { revokedProxy, throwingProxy, withThrowingGetter } from './hostile-value.js';

/**
 * The ways an adapter object itself can be hostile: a proxy whose every trap throws, a revoked
 * proxy, or a throwing getter for `id`, `run` or `specificationVersion`.
 */
export const HOSTILE_ADAPTER_KINDS = ['proxy', 'revoked', 'id-getter', 'run-getter', 'version-getter'] as const;
/** One way an adapter object can be hostile. */
export type HostileAdapterKind = (typeof HOSTILE_ADAPTER_KINDS)[number];

/**
 * An adapter object that throws when an engine merely looks at it (its `run` is never reached
 * through a guard that reads it first). Engines must turn it into a failure of the members it
 * serves, never a rejection.
 *
 * @example
 * const result = await DebateEngine.run(board, { question: 'q', adapters: { scripted: hostileAdapter('id-getter') } });
 */
export function hostileAdapter(kind: HostileAdapterKind, inner: ModelAdapter = fixedAdapter('ok')): ModelAdapter {
  const adapter = { specificationVersion: inner.specificationVersion, id: inner.id, run: inner.run.bind(inner) };
  switch (kind) {
    case 'proxy':
      return throwingProxy(adapter);
    case 'revoked':
      return revokedProxy(adapter);
    case 'id-getter':
      return withThrowingGetter(adapter, 'id');
    case 'run-getter':
      return withThrowingGetter(adapter, 'run');
    case 'version-getter':
      return withThrowingGetter(adapter, 'specificationVersion');
  }
}

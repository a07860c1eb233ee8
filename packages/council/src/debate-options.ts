import { describePlainDataRefusal, toPlainData } from '@conclave/core/data';
import { errorMessage } from '@conclave/core/internal';
import type { DebateOptions } from './debate-engine.js';

/** A run's options, read once into an object of the engine's own, or why they cannot be. */
export type ReadOptions<A extends string> =
  { readonly ok: true; readonly options: DebateOptions<A> } | { readonly ok: false; readonly message: string };

/**
 * Reads the options of one run once, in a guard, into an object of the engine's own (ADR 0024:
 * one boundary for foreign values): every field once, and the plain-data ones (`vars`,
 * `concurrency`, `budget`) copied by `toPlainData`. A getter or proxy that throws, a signal that
 * is not an AbortSignal or a number that throws when compared is then `invalid_input`, never a
 * throw or a rejection of `run`. What needs more than its shape (the question, facts, context,
 * adapters, calibration) is checked where it is used, each in its own guard.
 */
export function readDebateOptions<A extends string>(given: DebateOptions<A>): ReadOptions<A> {
  try {
    if (given === null || typeof given !== 'object') return refused('options: must be an object ({ question, adapters, ... })');
    const { question, vars, context, facts, adapters, signal, concurrency, memberTimeoutMs, calibration, budget, onEvent, runStep } = given;
    const options: Record<string, unknown> = { question, adapters };
    for (const [name, value] of [
      ['vars', vars],
      ['concurrency', concurrency],
      ['budget', budget],
    ] as const) {
      if (value === undefined) continue;
      const plain = toPlainData(value);
      if (plain.isErr()) return refused(`${name}: cannot be read (${describePlainDataRefusal(plain.error)})`);
      options[name] = plain.value;
    }
    if (signal !== undefined) {
      // Read here, in the guard: a proxy around a signal throws on its own getters.
      if (!(signal instanceof AbortSignal) || typeof signal.aborted !== 'boolean') return refused('signal: must be an AbortSignal');
      options['signal'] = signal;
    }
    if (memberTimeoutMs !== undefined && typeof memberTimeoutMs !== 'number')
      return refused(`memberTimeoutMs: must be a number of milliseconds, got ${typeof memberTimeoutMs}`);
    for (const [name, value] of [
      ['onEvent', onEvent],
      ['runStep', runStep],
    ] as const)
      if (value !== undefined && typeof value !== 'function') return refused(`${name}: must be a function, got ${typeof value}`);
    for (const [name, value] of [
      ['context', context],
      ['facts', facts],
      ['memberTimeoutMs', memberTimeoutMs],
      ['calibration', calibration],
      ['onEvent', onEvent],
      ['runStep', runStep],
    ] as const)
      if (value !== undefined) options[name] = value;
    return { ok: true, options: options as unknown as DebateOptions<A> };
  } catch (thrown) {
    return refused(`options: reading them threw: ${errorMessage(thrown)}`);
  }
}

function refused(message: string): { readonly ok: false; readonly message: string } {
  return { ok: false, message };
}

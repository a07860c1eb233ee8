import { describePlainDataRefusal, toPlainData } from '@conclave/core/data';
import { errorMessage } from '@conclave/core/internal';
import type { AdapterSource, EventListener, RunStep } from '@conclave/core';
import type { Calibration } from '@conclave/scoring/calibration';
import type { Fact } from './board.js';
import type { DebateEvent } from './debate-event.js';

/** A cap on calls in flight: one number for the whole debate, or global and per-adapter caps. */
export type ConcurrencyOption = number | { readonly global?: number; readonly perAdapter?: Readonly<Record<string, number>> };

/** What one debate run needs besides the board; `A` is the board's rubric axes (of the extra facts and the events). */
export interface DebateOptions<A extends string = string> {
  /** The question; fills `{{question}}` in the board's question template. */
  readonly question: string;
  /** Values for the template's other `{{placeholders}}`. */
  readonly vars?: Readonly<Record<string, string>>;
  /** Background every member sees; an object is shown as JSON. */
  readonly context?: string | Readonly<Record<string, unknown>>;
  /** Structured facts added to the board's own. */
  readonly facts?: readonly Fact<A>[];
  /** Where each member's model reference finds its adapter. */
  readonly adapters: AdapterSource;
  /** Cancels every call in flight; the debate stops with `aborted` and is NO_GO. */
  readonly signal?: AbortSignal;
  /** Overrides the board's concurrency caps. */
  readonly concurrency?: ConcurrencyOption;
  /** Deadline for each member's call (default 120 000 ms). */
  readonly memberTimeoutMs?: number;
  /**
   * What the track record says of each member (`calibrate(record)` from `@conclave/scoring`): the
   * weights of the board's calibrated rule, and the estimate of P(GO is right) under either rule.
   * Without it every member has the prior's reliability (evidence 0).
   */
  readonly calibration?: Calibration;
  /** Stop starting calls once this many calls or tokens (input + output) have been used. */
  readonly budget?: { readonly maxCalls?: number; readonly maxTokens?: number };
  readonly onEvent?: EventListener<DebateEvent<A>>;
  /**
   * Runs each member call as a named, journaled step (ADR 0035): `debate/<board>/<phase>/<member>/<attempt>`.
   * The default runs it directly; a durable engine (`@conclave/restate`) journals it, so a
   * restarted run answers finished calls from its journal instead of paying for them again.
   */
  readonly runStep?: RunStep;
}

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

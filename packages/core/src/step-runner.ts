/**
 * The one seam between conclave's engines and a durable-execution engine (ADR 0035).
 *
 * Every effect that costs money or time — a member call, a facilitator call, a verifier call, a
 * builder run, a gate run — is run through a `RunStep`. The default runs it directly; a durable
 * runner (Restate's `ctx.run`, a Temporal activity, Inngest's `step.run`, a DBOS step) journals the
 * result under the step's name and hands the journaled result back on replay instead of running
 * the effect again. For that to be sound:
 * - names are deterministic (board/phase/member/attempt), and unique within one run;
 * - a step never throws for an expected failure: it returns a serialisable result (a
 *   `ModelRunResult`, a gate outcome), so a failed paid call is journaled like a successful one;
 * - the decision logic around the steps stays pure, so replaying results reproduces the decision.
 */
export type RunStep = <T>(name: string, effect: () => Promise<T>) => Promise<T>;

/** The default step runner: runs the effect, journals nothing. */
export const runStepDirectly: RunStep = (_name, effect) => effect();

/** One journaled step: its name and the JSON text of its result. */
export interface JournalEntry {
  readonly name: string;
  readonly result: string;
}

/** A step runner that records every step's result, in order, as JSON. */
export interface RecordingStepRunner {
  readonly runStep: RunStep;
  /** The journal so far, in completion order. */
  readonly journal: readonly JournalEntry[];
}

/**
 * Runs every effect and records its result as JSON, the way a durable engine's journal would.
 * A name used twice in one run is a bug in the engine (replay could not tell the steps apart),
 * so it throws at once rather than record an ambiguous journal.
 */
export function recordSteps(inner: RunStep = runStepDirectly): RecordingStepRunner {
  const journal: JournalEntry[] = [];
  const seen = new Set<string>();
  const runStep: RunStep = async (name, effect) => {
    if (seen.has(name)) throw new Error(`step name "${name}" was used twice in one run; step names must be unique`);
    seen.add(name);
    const result = await inner(name, effect);
    journal.push({ name, result: JSON.stringify(result) ?? 'null' });
    return result;
  };
  return { runStep, journal };
}

/**
 * A step runner that never runs an effect: it answers every step from a recorded journal, parsed
 * from JSON as a durable engine would hand it back. A step the journal lacks throws, naming it —
 * replay that needs a live call is exactly what the replay property must catch.
 */
export function replaySteps(journal: readonly JournalEntry[]): RunStep {
  const results = new Map(journal.map((entry) => [entry.name, entry.result]));
  return <T>(name: string): Promise<T> => {
    const result = results.get(name);
    if (result === undefined) return Promise.reject(new Error(`step "${name}" is not in the journal: replay would have to run it`));
    return Promise.resolve(JSON.parse(result) as T);
  };
}

/**
 * What one gate run proves, for the evidence bundle, the run timeline and the builder's retry
 * prompt. Everything textual has been truncated and passed through `redactSecrets` before it got
 * here, so the evidence can be stored, shown and sent to a model as it is.
 */
export interface GateEvidence {
  readonly name: string;
  readonly type: 'shell' | 'file_exists' | 'regex';
  /** The shell gate's command line, as configured. */
  readonly command?: string;
  /** The regex gate's pattern, as configured. */
  readonly pattern?: string;
  readonly passed: boolean;
  /** The shell gate's exit code, when the process exited. */
  readonly exitCode?: number;
  readonly durationMs: number;
  /** Truncated AND redacted. A regex gate lists its matches here. */
  readonly stdout?: string;
  readonly stderr?: string;
  /** Whether stdout or stderr was cut. */
  readonly truncated?: boolean;
  /** One line: why the gate passed or failed, e.g. "exit code 1", "timed out after 120000 ms", "missing: src/a.ts", "src/x.ts:12 matches /TODO/". */
  readonly reason: string;
}

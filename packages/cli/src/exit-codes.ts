/**
 * The documented exit codes (docs/cli.md): scripts branch on them, so they never change meaning.
 */
export const EXIT = {
  /** GO and approved, a decided meeting, a recorded ADR, a completed task run, a successful query. */
  ok: 0,
  /** NO_GO, PIVOT, blocked by the gate, rejected, no quorum, a failed or halted task run. */
  no: 1,
  /** A usage or input error: a bad flag, a missing or malformed file, a missing key. */
  usage: 2,
  /** Escalated to a person or blocked: a panel escalation, an unconverged meeting, a guardian block. */
  escalated: 3,
  /** Stopped by Ctrl-C (SIGINT): 128 + 2, as shells report it; wins over the outcome's own code. */
  interrupted: 130,
  /** Stopped by SIGTERM: 128 + 15; wins over the outcome's own code. */
  terminated: 143,
} as const;

/** One of the documented exit codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

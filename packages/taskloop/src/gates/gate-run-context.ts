import type { ProcessGroupWatcher } from '../process/run-process.js';
import type { CommandPolicy } from '../security/command-policy-config.js';
import type { Level } from './gate-definition.js';

/** Everything a gate run needs from the loop; gates read nothing else from the machine's state. */
export interface GateRunContext {
  /** The repository the gates check; shell gates run here and every path stays inside it. */
  readonly workspace: string;
  readonly level: Level;
  /** The plan item being validated, for gates scoped with `tasks`. */
  readonly taskId: string;
  /** Shell gates are refused unless this policy allows their command. */
  readonly policy: CommandPolicy | undefined;
  /** The complete environment for shell gates, already scrubbed (see `scrubbedEnv`). */
  readonly env: Readonly<Record<string, string>>;
  /** Literal values redacted from everything a gate reports. */
  readonly secretValues: readonly string[];
  /**
   * For shell gates without their own `timeoutMs`, and the deadline of every `file_exists` and
   * `regex` gate (which have no `timeoutMs`): past it they fail as timed out, never pass.
   */
  readonly defaultTimeoutMs: number;
  /** Per stream, for shell gate output. */
  readonly maxOutputBytes: number;
  /** Aborting kills the running gate's process tree; gates not yet run fail as aborted. */
  readonly signal?: AbortSignal;
  /** Told of every process group a shell gate starts (see `ProcessGroupWatcher`). */
  readonly groups?: ProcessGroupWatcher;
}

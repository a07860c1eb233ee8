/** How long a process group has between SIGTERM and SIGKILL. Long enough for a test runner to flush and clean up, short enough that a stuck gate does not hold the loop. */
export const KILL_GRACE_MS = 2_000;

import { processesWithToken, signalToken } from './process-token.js';

/** Process groups started by this process that may still have members, with their trees' tokens; killed on exit. */
const liveGroups = new Map<number, string | undefined>();
let exitHookInstalled = false;

/**
 * Remembers a detached child's process group so that, if the orchestrator exits normally while a
 * gate or builder is still running, the group does not outlive it. (A SIGKILL of the orchestrator
 * cannot be caught; the groups then survive, which is why every run also has its own deadline.)
 */
export function trackGroup(pgid: number, token?: string): void {
  liveGroups.set(pgid, token);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [group, groupToken] of liveGroups) {
      signalGroup(group, 'SIGKILL');
      if (groupToken !== undefined) signalToken(groupToken, 'SIGKILL');
    }
  });
}

/** Forgets a group once nothing in it can be running any more. */
export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
}

/**
 * Sends a signal to every process in a group. The child was spawned detached, so its pid is the
 * group id and `kill(-pgid)` reaches its grandchildren too (`sh -c 'sleep 100 & wait'`), which
 * killing the child alone would orphan. Returns false when the group no longer exists.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  // kill(-1) would signal every process we may signal, kill(0) our own group: never.
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: every member has exited. EPERM: nothing of ours is left to signal.
    return false;
  }
}

/**
 * Terminates a process group, and with a `token` every process that carries it although it left
 * the group (`setsid`, a double fork; see process-token.ts): SIGTERM now, SIGKILL after the grace
 * period if anything is left. Resolves once the SIGKILL was sent or nothing was found alive.
 */
export async function killGroup(pgid: number | undefined, graceMs: number = KILL_GRACE_MS, token?: string): Promise<void> {
  // Without a group (its leader is gone or not ours) only the token's processes are signalled.
  const group = pgid !== undefined && Number.isInteger(pgid) && pgid > 1 ? pgid : undefined;
  const alive = (): boolean => (group !== undefined && groupAlive(group)) || (token !== undefined && processesWithToken(token).length > 0);
  const signal = (name: NodeJS.Signals): void => {
    if (group !== undefined) signalGroup(group, name);
    if (token !== undefined) signalToken(token, name);
  };
  if (!alive()) return;
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (!alive()) return;
  }
  signal('SIGKILL');
}

/** Whether any process is still in the group (signal 0 checks without sending anything). */
export function groupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

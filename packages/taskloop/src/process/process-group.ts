/** How long a process group has between SIGTERM and SIGKILL. Long enough for a test runner to flush and clean up, short enough that a stuck gate does not hold the loop. */
export const KILL_GRACE_MS = 2_000;

/** Process groups started by this process that may still have members; killed on exit. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Remembers a detached child's process group so that, if the orchestrator exits normally while a
 * gate or builder is still running, the group does not outlive it. (A SIGKILL of the orchestrator
 * cannot be caught; the groups then survive, which is why every run also has its own deadline.)
 */
export function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
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
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: every member has exited. EPERM: nothing of ours is left to signal.
    return false;
  }
}

/**
 * Terminates a process group: SIGTERM now, SIGKILL after the grace period if anything is left.
 * Resolves once the SIGKILL was sent or the group was found empty.
 */
export async function killGroup(pgid: number, graceMs: number = KILL_GRACE_MS): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (!groupAlive(pgid)) return;
  }
  signalGroup(pgid, 'SIGKILL');
}

/** Whether any process is still in the group (signal 0 checks without sending anything). */
export function groupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

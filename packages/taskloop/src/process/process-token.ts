import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The environment variable that marks every process a gate or builder starts. A process group
 * reaches only the processes that stay in it; one that calls `setsid` (or double-forks, or
 * `setpgrp()`) leaves the group, so a group kill would miss it and it would outlive the timeout.
 * The environment is inherited across all of those, so a random token in it finds them again:
 * on Linux every process whose `/proc/<pid>/environ` carries the token is ours to stop. A process
 * that clears its own environment (`env -i`) still escapes; only a cgroup or a PID namespace
 * would hold it, which Node cannot create without privileges (docs/taskloop.md, Processes).
 */
export const PROCESS_TOKEN_VAR = 'CONCLAVE_PROCESS_TOKEN';

/** A fresh token for one supervised process tree. */
export function newProcessToken(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The processes carrying `token` in their environment (Linux; elsewhere, and where /proc cannot
 * be read, none: the process group is then the only reach). This process itself is never listed.
 */
export function processesWithToken(token: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const marker = Buffer.from(`\0${PROCESS_TOKEN_VAR}=${token}\0`);
  const nul = Buffer.from([0]);
  const found: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    try {
      // environ is NUL-separated: framed in NULs, the marker matches one whole variable exactly.
      if (Buffer.concat([nul, readFileSync(`/proc/${pid}/environ`), nul]).includes(marker)) found.push(pid);
    } catch {
      // Gone already, or another user's process (not readable, so not ours).
    }
  }
  return found;
}

/** Sends `signal` to every process carrying `token`; returns how many were signalled. */
export function signalToken(token: string, signal: NodeJS.Signals): number {
  let signalled = 0;
  for (const pid of processesWithToken(token)) {
    try {
      process.kill(pid, signal);
      signalled += 1;
    } catch {
      // Exited in between.
    }
  }
  return signalled;
}

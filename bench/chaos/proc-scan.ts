/**
 * The leftover-process detector: every process (other than this one) that carries one of the
 * given `CONCLAVE_PROCESS_TOKEN` values in its environment, or whose working directory is inside
 * the workspace. Linux only (it reads /proc); elsewhere it finds nothing.
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';

/** The variable the task loop marks each builder's and gate's process tree with. */
export const TOKEN_VAR = 'CONCLAVE_PROCESS_TOKEN';

/** One process found by the scan. */
export interface FoundProcess {
  readonly pid: number;
  /** Its token, when it carries one. */
  readonly token?: string;
  /** Its working directory, when readable. */
  readonly cwd?: string;
  /** Its command line, NULs as spaces (at most 200 characters). */
  readonly command: string;
}

function pids(): number[] {
  try {
    return readdirSync('/proc')
      .map(Number)
      .filter((pid) => Number.isInteger(pid) && pid > 1 && pid !== process.pid);
  } catch {
    return [];
  }
}

function read(pid: number): FoundProcess | undefined {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
    const token = environ.find((entry) => entry.startsWith(`${TOKEN_VAR}=`))?.slice(TOKEN_VAR.length + 1);
    let cwd: string | undefined;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // A zombie, or gone: no working directory.
    }
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim().slice(0, 200);
    return { pid, command, ...(token === undefined ? {} : { token }), ...(cwd === undefined ? {} : { cwd }) };
  } catch {
    // Exited in between, or another user's process.
    return undefined;
  }
}

/** The workspace's real path, so that it compares with /proc/<pid>/cwd. */
export function realWorkspace(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return workspace;
  }
}

function inside(cwd: string | undefined, root: string): boolean {
  return cwd !== undefined && (cwd === root || cwd.startsWith(`${root}${sep}`));
}

/** Every process carrying one of `tokens`, or running inside `workspace` (a real path). */
export function findProcesses(tokens: ReadonlySet<string>, workspace: string): FoundProcess[] {
  return pids()
    .map(read)
    .filter(
      (found): found is FoundProcess =>
        found !== undefined && ((found.token !== undefined && tokens.has(found.token)) || inside(found.cwd, workspace)),
    );
}

/** The tokens carried by the processes running inside `workspace` now (builders and gates run there). */
export function tokensInWorkspace(workspace: string): string[] {
  return findProcesses(new Set(), workspace).flatMap((found) => (found.token === undefined ? [] : [found.token]));
}

import { readFileSync, readlinkSync, renameSync, writeFileSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { groupAlive, killGroup } from '../process/process-group.js';
import { processesWithToken } from '../process/process-token.js';
import type { ProcessGroupWatcher } from '../process/run-process.js';

/**
 * The process groups a run has started and not yet seen end, in `processes.json` beside the
 * run's evidence. A SIGKILL of the orchestrator cannot stop its builder or gate: they run in
 * their own process groups and would go on editing the workspace while the rerun starts. The
 * rerun reads this journal and stops them first. Written synchronously (tiny file, temp + rename)
 * because a group must be on record before the child can do anything worth stopping.
 */
export class ProcessJournal implements ProcessGroupWatcher {
  readonly #file: string;
  /** Each live group and the token its processes carry (process-token.ts). */
  readonly #groups = new Map<number, string>();
  #closed = false;
  #drained: (() => void) | undefined;

  constructor(runDir: string) {
    this.#file = join(runDir, 'processes.json');
  }

  started(pgid: number, token: string): void {
    this.#groups.set(pgid, token);
    this.#write();
  }

  ended(pgid: number): void {
    if (!this.#groups.delete(pgid)) return;
    this.#write();
    if (this.#groups.size === 0) this.#drained?.();
  }

  /**
   * Waits (at most `limitMs`) until every group on record has ended, then stops writing, so that
   * when a run returns nothing it started is still running and nothing writes into its folder.
   */
  async close(limitMs: number): Promise<void> {
    if (this.#groups.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.#drained = resolve;
        timer = setTimeout(resolve, limitMs);
      });
      clearTimeout(timer);
    }
    this.#closed = true;
  }

  #write(): void {
    if (this.#closed) return;
    const temp = `${this.#file}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, `${JSON.stringify([...this.#groups].map(([pgid, token]) => ({ pgid, token })))}\n`);
      renameSync(temp, this.#file);
    } catch {
      // The journal only helps a rerun tidy up; failing to keep it must not fail the attempt.
    }
  }
}

/**
 * Stops the process trees a killed run left running in `workspace`: a group whose leader is alive
 * and still runs in the workspace (Linux: `/proc/<pid>/cwd`), so a process id the system has since
 * given to something else is never touched; and every process carrying a tree's random token,
 * also when its leader has exited. Returns the groups stopped.
 */
export async function stopLeftoverGroups(runDir: string, workspace: string): Promise<readonly number[]> {
  let groups: unknown;
  try {
    groups = JSON.parse(await readFile(join(runDir, 'processes.json'), 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(groups)) return [];
  const root = await realpath(workspace);
  const stopped: number[] = [];
  for (const entry of groups) {
    // `{ pgid, token }`; a bare number is a journal from before tokens.
    const { pgid, token } =
      typeof entry === 'number' ? { pgid: entry, token: undefined } : ((entry ?? {}) as { pgid?: unknown; token?: unknown });
    if (typeof pgid !== 'number' || !Number.isInteger(pgid) || pgid <= 1) continue;
    const tokenText = typeof token === 'string' && /^[0-9a-f]{32}$/.test(token) ? token : undefined;
    // A group whose leader still runs in the workspace (a pid the system has not given to
    // something else), or any process carrying the tree's random token: the leader may have
    // exited while a child that called setsid goes on editing the workspace.
    const leader = groupAlive(pgid) && runsIn(pgid, root);
    const marked = tokenText !== undefined && processesWithToken(tokenText).length > 0;
    if (!leader && !marked) continue;
    await killGroup(leader ? pgid : undefined, undefined, tokenText);
    stopped.push(pgid);
  }
  try {
    writeFileSync(join(runDir, 'processes.json'), '[]\n');
  } catch {
    // Nothing to tidy then.
  }
  return stopped;
}

function runsIn(pid: number, root: string): boolean {
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    return cwd === root || cwd.startsWith(`${root}/`);
  } catch {
    // No /proc (macOS) or the leader is gone: without proof the group is ours, leave it alone.
    return false;
  }
}

/** For tests: the groups on record. */
export function readJournal(runDir: string): readonly number[] {
  try {
    const entries = JSON.parse(readFileSync(join(runDir, 'processes.json'), 'utf8')) as unknown;
    if (!Array.isArray(entries)) return [];
    return entries
      .map((entry: unknown) => (typeof entry === 'number' ? entry : (entry as { pgid?: unknown } | null)?.pgid))
      .filter((pgid): pgid is number => typeof pgid === 'number');
  } catch {
    return [];
  }
}

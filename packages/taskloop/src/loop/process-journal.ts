import { readFileSync, readlinkSync, renameSync, writeFileSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { groupAlive, killGroup } from '../process/process-group.js';
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
  readonly #groups = new Set<number>();
  #closed = false;
  #drained: (() => void) | undefined;

  constructor(runDir: string) {
    this.#file = join(runDir, 'processes.json');
  }

  started(pgid: number): void {
    this.#groups.add(pgid);
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
      writeFileSync(temp, `${JSON.stringify([...this.#groups])}\n`);
      renameSync(temp, this.#file);
    } catch {
      // The journal only helps a rerun tidy up; failing to keep it must not fail the attempt.
    }
  }
}

/**
 * Stops the process groups a killed run left running in `workspace`. A group is stopped only if
 * it is alive and its leader still runs in the workspace (Linux: `/proc/<pid>/cwd`), so a process
 * id the system has since given to something else is never touched. Returns the groups stopped.
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
  for (const pgid of groups) {
    if (typeof pgid !== 'number' || !Number.isInteger(pgid) || pgid <= 1 || !groupAlive(pgid)) continue;
    if (!runsIn(pgid, root)) continue;
    await killGroup(pgid);
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
    return JSON.parse(readFileSync(join(runDir, 'processes.json'), 'utf8')) as number[];
  } catch {
    return [];
  }
}

/**
 * One trial of the kill campaign: `task run` in a fresh sample repository, SIGKILLed at a
 * seeded moment, then `task resume` (killed again, up to the trial's number of kills) until a
 * resume runs to its end. What it checks after each step and at the end is in `TrialRecord`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runRandom } from '../fuzz/run-random.js';
import { runCliChild, type KillMoment } from './cli-child.js';
import { gitLocks } from './git-locks.js';
import { lostTicks, planTicks, type PlanTicks } from './plan-ticks.js';
import { findProcesses, realWorkspace, type FoundProcess } from './proc-scan.js';
import { attemptSubjects, rebuiltTasks } from './rebuilt.js';
import { nextCommand, trialWorkspace } from './trial-workspace.js';

/**
 * The kill moments: one in four during start-up (ms after the spawn: tsx, the spec, the run's
 * first records), the others in the loop (ms after its first progress line: the sample run's
 * loop takes 0.8–1.5 s, so some kills come after it ended and the step completes).
 */
export const STARTUP_KILL_MS: readonly [number, number] = [100, 2_000];
export const LOOP_KILL_MS: readonly [number, number] = [0, 900];
/** A run or resume still going after this long is killed and the trial counted as incomplete. */
const LIMIT_MS = 90_000;

/** One `task run` or `task resume` of a trial. */
export interface Step {
  readonly kind: 'run' | 'resume';
  readonly kill?: KillMoment;
  readonly killed: boolean;
  readonly code: number | null;
  readonly elapsedMs: number;
  /** When the loop started, in ms after the spawn (absent when the kill came first). */
  readonly loopStartMs?: number;
  /** The plan's ticked tasks after the step (or `absent`, `unparseable`). */
  readonly ticks: readonly string[] | 'absent' | 'unparseable';
  /** Git lock files present before the step started (before a resume: left by the kill). */
  readonly locksBefore: readonly string[];
  /** After a kill: the builders and gates it left running (the next step must stop them). */
  readonly orphans: number;
}

/** What one trial did and found. */
export interface TrialRecord {
  readonly index: number;
  readonly plannedKills: number;
  readonly steps: readonly Step[];
  readonly kills: number;
  readonly completed: boolean;
  /** How the last step ended, in words. */
  readonly ending: string;
  /** Resumes (and reruns) that refused to go on: exit 2 or outcome `refused`, with the message. */
  readonly refused: readonly string[];
  /** Tasks ticked before a step and not after it. */
  readonly lost: readonly string[];
  /** Tasks with an attempt committed after one of theirs had passed. */
  readonly rebuilt: readonly string[];
  /** Git lock files still there after the last step finished. */
  readonly locksLeft: readonly string[];
  /** Processes of the killed runs (by token) or in the workspace, still alive after the last step. */
  readonly leftovers: readonly FoundProcess[];
  readonly elapsedMs: number;
}

function ticksOf(plan: PlanTicks): Step['ticks'] {
  return plan.state === 'ok' ? [...plan.ticked].sort() : plan.state;
}

/** The tokens the run folders' process journals hold (groups a killed run had not seen end). */
function journalTokens(workspace: string): string[] {
  const runs = join(workspace, '.conclave/runs');
  let ids: string[];
  try {
    ids = readdirSync(runs);
  } catch {
    return [];
  }
  return ids.flatMap((id) => {
    try {
      const entries = JSON.parse(readFileSync(join(runs, id, 'processes.json'), 'utf8')) as unknown;
      return Array.isArray(entries)
        ? entries.flatMap((entry) => (typeof (entry as { token?: unknown }).token === 'string' ? [(entry as { token: string }).token] : []))
        : [];
    } catch {
      return [];
    }
  });
}

function branchOf(workspace: string): string {
  try {
    const run = JSON.parse(readFileSync(join(workspace, '.conclave/run.json'), 'utf8')) as { branch?: unknown };
    return typeof run.branch === 'string' ? run.branch : 'conclave/add-farewell';
  } catch {
    return 'conclave/add-farewell';
  }
}

function outcomeOf(stdout: string): string | undefined {
  try {
    const json = JSON.parse(stdout) as { outcome?: unknown };
    return typeof json.outcome === 'string' ? json.outcome : undefined;
  } catch {
    return undefined;
  }
}

/** Runs trial `index` of a campaign seeded with `seed`, with at most `maxKills` kills. */
export async function runTrial(seed: number, index: number, maxKills: number): Promise<TrialRecord> {
  const started = Date.now();
  const random = runRandom(seed, index);
  const plannedKills = random.int(1, maxKills);
  const moments = Array.from({ length: plannedKills }, (): KillMoment =>
    random.next() < 0.25 ? { from: 'spawn', ms: random.int(...STARTUP_KILL_MS) } : { from: 'loop', ms: random.int(...LOOP_KILL_MS) },
  );
  const world = trialWorkspace();
  const real = realWorkspace(world.workspace);
  const steps: Step[] = [];
  const refused: string[] = [];
  const lost: string[] = [];
  const tokens = new Set<string>();
  let before: PlanTicks = { state: 'absent' };
  let ending = '';
  let completed = false;
  try {
    for (;;) {
      const kill = moments[steps.filter((step) => step.killed).length];
      const command = nextCommand(world.workspace);
      const locksBefore = gitLocks(world.workspace);
      const child = await runCliChild(command.argv, {
        workspace: world.workspace,
        realWorkspace: real,
        env: world.env,
        limitMs: LIMIT_MS,
        ...(kill === undefined ? {} : { kill }),
      });
      for (const token of [...child.tokens, ...journalTokens(world.workspace)]) tokens.add(token);
      const orphans = child.killed ? findProcesses(tokens, real).length : 0;
      const after = planTicks(world.workspace);
      lost.push(...lostTicks(before, after).map((id) => `${id} (after step ${steps.length + 1})`));
      before = after;
      steps.push({
        kind: command.kind,
        ...(kill === undefined ? {} : { kill }),
        killed: child.killed,
        code: child.code,
        elapsedMs: child.elapsedMs,
        ...(child.loopStartMs === undefined ? {} : { loopStartMs: child.loopStartMs }),
        ticks: ticksOf(after),
        locksBefore,
        orphans,
      });
      if (child.killed) continue;
      const outcome = outcomeOf(child.stdout);
      if (child.timedOut) ending = `${command.kind} still running after ${LIMIT_MS / 1_000} s (killed)`;
      else if (child.code === 2 || outcome === 'refused') {
        const message =
          child.stderr
            .split('\n')
            .find(
              (line) =>
                line.startsWith('conclave: ') && !/^conclave: (build|validate|commit|retry|flip|judge|finish|task )/.test(line.slice(10)),
            ) ??
          child.stderr.trim().split('\n').at(-1) ??
          '';
        refused.push(`${command.kind} exit ${String(child.code)}: ${message.slice(0, 300)}`);
        ending = `${command.kind} refused`;
      } else {
        completed = child.code === 0 && outcome === 'completed';
        ending = `${command.kind} exit ${String(child.code)}, ${outcome ?? 'no JSON outcome'}`;
      }
      break;
    }
    const leftovers = findProcesses(tokens, real);
    const locksLeft = gitLocks(world.workspace);
    const rebuilt = rebuiltTasks(attemptSubjects(world.workspace, branchOf(world.workspace)));
    // Stop what was found, so that it cannot disturb the next trial (it is a finding already).
    for (const found of leftovers) {
      try {
        process.kill(found.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    return {
      index,
      plannedKills,
      steps,
      kills: steps.filter((step) => step.killed).length,
      completed,
      ending,
      refused,
      lost,
      rebuilt,
      locksLeft,
      leftovers,
      elapsedMs: Date.now() - started,
    };
  } finally {
    world.remove();
  }
}

import { mkdir, readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  draftAdr,
  PROPOSED_STATUS_LINE,
  runMeeting,
  slugify,
  type AdrDraft,
  type Brief,
  type MeetingEvent,
  type MeetingResult,
} from '@conclave/meeting';
import { recordAdr } from '@conclave/meeting/node';
import { runRecord, type MeetingRunRecord } from '@conclave/report';
import { providerLine, type CommandContext, type CommandOutcome } from '../command.js';
import { CliError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { loadInputFile, readInput, resolvePath } from '../inputs.js';
import { interruptedOutcome } from '../interrupt.js';
import type { Progress } from '../progress.js';
import { describeMemberFailure, renderMeeting } from '../render.js';
import { recordText, refuseOverwritingInput, writeOutput } from '../run-files.js';

export interface MeetFlags {
  readonly out?: string;
  readonly adrDir?: string;
  readonly maxRounds?: string;
}

/** A meeting's progress as events and a live status. */
export function meetingListener(progress: Progress): (event: MeetingEvent) => void {
  let round = 0;
  let answered: string[] = [];
  return (event) => {
    switch (event.type) {
      case 'meeting_started':
        progress.event(`meeting: ${event.members.length} members`);
        break;
      case 'round_started':
        round = event.round;
        answered = [];
        progress.event(round === 0 ? 'prep round (isolated, in parallel)' : `round ${round}${event.adversarial ? ' (adversarial)' : ''}`);
        progress.status(`round ${round}: waiting for stances`);
        break;
      case 'stance_recorded':
        answered.push(`${event.memberId}→${event.preferredOption}`);
        progress.status(`round ${round}: ${answered.join(', ')}`);
        break;
      case 'member_abstained':
        progress.event(`  ${event.memberId} abstained: ${describeMemberFailure(event.reason)}`);
        break;
      case 'round_finished':
        progress.done();
        progress.event(
          `  round ${event.round}: ${answered.join(', ')}${event.verdict === undefined ? '' : event.verdict.converged ? ' (converged)' : ''}`,
        );
        break;
      case 'meeting_stopped':
        progress.event(`meeting stopped: ${event.reason.kind}`);
        break;
      case 'meeting_finished':
        progress.event(`meeting finished: ${event.outcome}`);
        break;
      // The warning is printed with the result (`Warning: ...`), once; offline it names no family.
      case 'family_majority':
      case 'table_curated':
        break;
    }
  };
}

/** Exit code of a meeting: 0 converged decision, 3 provisional (a person decides), 1 no decision, 2 invalid input. */
export function meetingExitCode(meeting: MeetingResult): ExitCode {
  if (meeting.outcome === 'invalid_input') return EXIT.usage;
  if (meeting.outcome !== 'decided') return EXIT.no;
  return meeting.synthesis?.decision.status === 'converged' ? EXIT.ok : EXIT.escalated;
}

export interface MeetingRun {
  readonly meeting: MeetingResult;
  readonly adr?: AdrDraft;
  readonly record: MeetingRunRecord;
  readonly text: string;
}

export async function runMeetingFor(
  ctx: CommandContext,
  brief: Brief,
  briefPath: string | undefined,
  maxRounds?: number,
): Promise<MeetingRun> {
  const choice = ctx.providers();
  // Ctrl-C aborts the members' calls: the meeting ends `aborted`, with no decision, and is recorded.
  const meeting = await runMeeting(brief, {
    adapters: choice.meeting,
    onEvent: meetingListener(ctx.progress),
    ...(maxRounds === undefined ? {} : { maxRounds }),
    ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
  });
  const adr = meeting.synthesis === undefined ? undefined : draftAdr(meeting.synthesis, { offline: choice.offline });
  const record = runRecord<MeetingRunRecord>({
    kind: 'meeting',
    offline: choice.offline,
    title: brief.question,
    brief: { id: slugify(brief.question), title: brief.question, ...(briefPath === undefined ? {} : { path: briefPath }) },
    result: meeting,
    ...(adr === undefined ? {} : { adr }),
  });
  return {
    meeting,
    ...(adr === undefined ? {} : { adr }),
    record,
    text: renderMeeting(meeting, brief.question, adr, choice.offline),
  };
}

export async function meetCommand(ctx: CommandContext, briefFile: string, flags: MeetFlags): Promise<CommandOutcome> {
  const maxRounds = flags.maxRounds === undefined ? undefined : Number(flags.maxRounds);
  if (maxRounds !== undefined && (!Number.isInteger(maxRounds) || maxRounds < 1))
    throw new CliError(
      `--max-rounds ${flags.maxRounds ?? ''} is not a whole number of rounds`,
      [],
      undefined,
      'pass a whole number from 1, e.g. --max-rounds 4',
    );
  refuseOverwritingInput(ctx.io.cwd, flags.out, briefFile);
  const brief = await loadInputFile(ctx.io.cwd, briefFile, 'brief');
  const choice = ctx.providers();
  const run = await runMeetingFor(ctx, brief, briefFile, maxRounds);
  const exitCode = meetingExitCode(run.meeting);
  const draftPath =
    flags.adrDir === undefined || run.adr === undefined
      ? undefined
      : await writeOutput(ctx.io.cwd, `${resolvePath(ctx.io.cwd, flags.adrDir)}/proposed-${run.adr.slug}.md`, run.adr.markdown);
  const written = flags.out === undefined ? undefined : await writeOutput(ctx.io.cwd, flags.out, recordText(run.record));
  const lines = [providerLine('meet', choice), '', run.text];
  if (run.adr !== undefined && draftPath === undefined) lines.push('', run.adr.markdown.trimEnd());
  if (draftPath !== undefined)
    lines.push('', `ADR draft: ${draftPath}`, `approve it with: conclave adr approve ${draftPath} --dir ${flags.adrDir ?? 'adr'}`);
  if (written !== undefined) lines.push('', `run record: ${written}`);
  const s = run.meeting.synthesis;
  const outcome = run.meeting.outcome;
  // Checked last, so a stop that came after the meeting decided still wins over its exit 0.
  const stopped =
    outcome === 'aborted'
      ? 'the meeting stopped; no decision'
      : `the meeting had ended (${outcome}), but the run was stopped: do not act on it`;
  return interruptedOutcome(
    {
      exitCode,
      text: lines.join('\n'),
      json: {
        command: 'meet',
        exitCode,
        offline: choice.offline,
        provider: choice.provider,
        question: brief.question,
        outcome: run.meeting.outcome,
        stopReason: run.meeting.stopReason,
        ...(s === undefined
          ? {}
          : {
              decision: { choice: s.decision.choice, title: s.decision.title, status: s.decision.status, confidence: s.confidence },
              dissent: s.dissent,
            }),
        ...(run.adr === undefined
          ? {}
          : {
              adr: {
                title: run.adr.title,
                slug: run.adr.slug,
                status: run.adr.status,
                ...(draftPath === undefined ? { markdown: run.adr.markdown } : { path: draftPath }),
              },
            }),
        ...(written === undefined ? {} : { out: written }),
      },
    },
    ctx.interrupted(),
    stopped,
  );
}

export interface AdrApproveFlags {
  readonly dir: string;
  readonly by?: string;
}

/**
 * The numbered ADR (`NNNN-*.md`) in `dir` whose title is `title`: the same decision on the same
 * question, approved before. Matching the title, not the slug: two meetings may both pick "gcp".
 */
async function recordedWithTitle(dir: string, shown: string, title: string): Promise<string | undefined> {
  try {
    for (const name of (await readdir(dir)).filter((n) => /^\d{4}-.*\.md$/.test(n)).sort()) {
      const heading = (await readFile(join(dir, name), 'utf8')).split('\n').find((line) => line.startsWith('# '));
      if (heading?.slice(2).trim() === title) return join(shown, name);
    }
  } catch (error) {
    throw new CliError(`cannot read the ADRs in ${shown}: ${(error as Error).message}`, [], undefined, 'check --dir');
  }
  return undefined;
}

/** `conclave adr approve <draft> --dir adr/`: numbers the draft and records it as accepted, once. */
export async function adrApproveCommand(ctx: CommandContext, draftFile: string, flags: AdrApproveFlags): Promise<CommandOutcome> {
  const markdown = await readInput(ctx.io.cwd, draftFile, 'ADR draft');
  const lines = markdown.split('\n');
  const statusLine = lines.findIndex((line) => line.trim() === PROPOSED_STATUS_LINE);
  if (statusLine < 0) {
    throw new CliError(`${draftFile}: not a proposed ADR draft`, [
      {
        code: 'not_a_draft',
        file: draftFile,
        line: 1,
        column: 1,
        message: `no "${PROPOSED_STATUS_LINE}" line (an accepted ADR is not approved twice)`,
        fix: 'pass a draft written by `conclave meet --adr-dir`',
      },
    ]);
  }
  const heading = lines.find((line) => line.startsWith('# '));
  if (heading === undefined)
    throw new CliError(`${draftFile}: the draft has no "# title" heading`, [
      {
        code: 'no_heading',
        file: draftFile,
        line: 1,
        column: 1,
        message: 'no level-1 heading',
        fix: 'start the draft with "# <decision>: <question>"',
      },
    ]);
  const approvedBy = flags.by ?? ctx.io.env.USER ?? ctx.io.env.LOGNAME ?? ctx.io.env.USERNAME;
  if (approvedBy === undefined || approvedBy.trim() === '')
    throw new CliError('who approves this ADR?', [], undefined, 'pass --by <your name>');
  const title = heading.slice(2).trim();
  const fromName = basename(draftFile, '.md').replace(/^proposed-/, '');
  const draft: AdrDraft = { title, slug: slugify(fromName === '' ? title : fromName), status: 'proposed', markdown };
  const dir = resolvePath(ctx.io.cwd, flags.dir);
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new CliError(`cannot create ${flags.dir}: ${(error as Error).message}`, [], undefined, 'choose a writable --dir');
  }
  const earlier = await recordedWithTitle(dir, flags.dir, title);
  if (earlier !== undefined) {
    throw new CliError(
      `${draftFile}: already approved: ${earlier} records "${title}"`,
      [],
      undefined,
      `nothing to do; delete the draft, or write a new ADR that supersedes ${basename(earlier)} to change the decision`,
    );
  }
  const recorded = await recordAdr(dir, draft, { approvedBy, at: new Date().toISOString() });
  if (recorded.isErr())
    throw new CliError(
      `cannot record the ADR: ${recorded.error.message}`,
      [],
      recorded.error.kind === 'no_free_number' ? EXIT.no : EXIT.usage,
      recorded.error.kind === 'not_approved' ? 'pass --by <your name> on one line' : 'check --dir',
    );
  const { number, path } = recorded.value;
  const text = `conclave adr approve: offline (no model is called)\nrecorded ADR ${String(number).padStart(4, '0')}: ${path} (Status: accepted, approved by ${approvedBy})`;
  return { exitCode: EXIT.ok, text, json: { command: 'adr approve', exitCode: EXIT.ok, offline: true, number, path, approvedBy } };
}

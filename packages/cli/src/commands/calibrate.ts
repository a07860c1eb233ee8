import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkVote, MIN_VALID_VOTES, verdictFor, weightedScore, type Vote } from '@conclave/scoring';
import {
  calibrate,
  calibratedVerdict,
  EMPTY_TRACK_RECORD,
  recordDecision,
  recordOutcome,
  type CalibratedVote,
  type Outcome,
  type TrackEntry,
  type TrackRecord,
} from '@conclave/scoring/calibration';
import { writeFileAtomic } from '@conclave/taskloop/ledger';
import type { CommandContext, CommandOutcome } from '../command.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { loadJsonFile, resolvePath } from '../inputs.js';
import { loadDecision } from './verify.js';

/** Flags of `conclave calibrate` subcommands. */
export interface CalibrateFlags {
  readonly track: string;
  readonly outcome?: string;
  readonly id?: string;
  readonly costOfFalseGo?: string;
  readonly falseGoRate?: string;
}

/**
 * `conclave calibrate record <run.json> --track track.json [--outcome GO|NO_GO]`: adds each
 * member's own verdict (recomputed from its scores in the record) to the track record, and the
 * outcome when it is known. The track file is created when missing and written atomically.
 */
export async function calibrateRecordCommand(ctx: CommandContext, file: string, flags: CalibrateFlags): Promise<CommandOutcome> {
  const outcome = flags.outcome === undefined ? undefined : parseOutcome(flags.outcome);
  const { id, members } = await memberVerdicts(ctx, file, flags.id);
  let track = recordDecision(await loadTrack(ctx, flags.track, { missing: 'empty' }), id, members);
  if (outcome !== undefined) track = recordOutcome(track, id, outcome);
  await writeTrack(ctx, flags.track, track);
  const text = `conclave calibrate: recorded ${members.length} member verdict(s) of "${id}"${outcome === undefined ? ' (outcome not known yet: add it with `conclave calibrate outcome`)' : `, outcome ${outcome}`} in ${flags.track}`;
  return {
    exitCode: EXIT.ok,
    text,
    json: {
      command: 'calibrate record',
      exitCode: EXIT.ok,
      decision: id,
      members: members.length,
      ...(outcome === undefined ? {} : { outcome }),
      track: flags.track,
    },
  };
}

/** `conclave calibrate outcome <decision-id> <GO|NO_GO> --track track.json`: labels a recorded decision. */
export async function calibrateOutcomeCommand(
  ctx: CommandContext,
  id: string,
  outcomeText: string,
  flags: CalibrateFlags,
): Promise<CommandOutcome> {
  const outcome = parseOutcome(outcomeText);
  const track = await loadTrack(ctx, flags.track, { missing: 'error' });
  if (!track.entries.some((entry) => entry.decisionId === id)) {
    const known = [...new Set(track.entries.map((entry) => entry.decisionId))].slice(0, 5);
    throw new CliError(
      `${flags.track}: no decision "${id}" in the track record`,
      [],
      EXIT.usage,
      `record it first with \`conclave calibrate record <run.json> --track ${flags.track}\`${known.length === 0 ? '' : `; recorded: ${known.map((k) => `"${k}"`).join(', ')}`}`,
    );
  }
  await writeTrack(ctx, flags.track, recordOutcome(track, id, outcome));
  return {
    exitCode: EXIT.ok,
    text: `conclave calibrate: "${id}" labelled ${outcome} in ${flags.track}`,
    json: { command: 'calibrate outcome', exitCode: EXIT.ok, decision: id, outcome, track: flags.track },
  };
}

/** `conclave calibrate show --track track.json`: what the track record says about each member and family. */
export async function calibrateShowCommand(ctx: CommandContext, flags: CalibrateFlags): Promise<CommandOutcome> {
  const calibration = calibrate(await loadTrack(ctx, flags.track, { missing: 'error' }));
  const lines = [
    `conclave calibrate: ${flags.track}, prior Beta(${calibration.prior.alpha}, ${calibration.prior.beta})`,
    '',
    ...(calibration.members.length === 0
      ? ['no labelled decision yet: every member weighs the same (the prior)']
      : calibration.members.map(
          (m) =>
            `  ${m.key.padEnd(20)} reliability ${m.reliability.toFixed(2)}  weight ${Math.max(0, m.weight).toFixed(2)}  over ${m.evidence} labelled decision(s), ${m.right} right`,
        )),
    ...(calibration.families.length === 0
      ? []
      : [
          '',
          'families (error correlation):',
          ...calibration.families.map((f) => `  ${f.family.padEnd(20)} rho ${f.rho.toFixed(2)} over ${f.pairs} pair(s) of votes`),
        ]),
  ];
  return { exitCode: EXIT.ok, text: lines.join('\n'), json: { command: 'calibrate show', exitCode: EXIT.ok, calibration } };
}

/**
 * `conclave calibrate decide <run.json> --track track.json`: the calibrated rule on the record's
 * member verdicts, beside the default rule's verdict. Exit 0 only for a calibrated GO; 1 otherwise
 * (no quorum included); 2 for a malformed record, track or flag.
 */
export async function calibrateDecideCommand(ctx: CommandContext, file: string, flags: CalibrateFlags): Promise<CommandOutcome> {
  const costOfFalseGo =
    flags.costOfFalseGo === undefined
      ? undefined
      : parsePositive(flags.costOfFalseGo, '--cost-of-false-go', 'a number above 0, such as 4 (a wrong GO costs four missed ones)');
  const falseGoRate = flags.falseGoRate === undefined ? undefined : parseRate(flags.falseGoRate);
  const calibration = calibrate(await loadTrack(ctx, flags.track, { missing: 'error' }));
  const { id, members, stated, minValidVotes } = await memberVerdicts(ctx, file, flags.id);
  let decision;
  try {
    decision = calibratedVerdict(members, calibration, {
      minValidVotes,
      ...(costOfFalseGo === undefined ? {} : { costOfFalseGo }),
      ...(falseGoRate === undefined ? {} : { falseGoRate }),
    });
  } catch (error) {
    throw new CliError(`${file}: the calibrated rule cannot decide this board`, [], EXIT.usage, `${(error as Error).message}`);
  }
  const exitCode = decision.verdict === 'GO' ? EXIT.ok : EXIT.no;
  const head =
    decision.status === 'decided'
      ? `calibrated rule: ${decision.verdict}, P(GO is right) ${decision.probabilityGo.toFixed(2)} (default rule: ${stated})`
      : `calibrated rule: NO_GO, no quorum (${decision.validVotes} of ${decision.minValidVotes} valid votes; default rule: ${stated})`;
  const lines = [
    `conclave calibrate decide: "${id}" with ${flags.track}`,
    '',
    head,
    ...(decision.status === 'decided'
      ? decision.members.map(
          (m) =>
            `  ${m.memberId.padEnd(20)} ${m.verdict.padEnd(6)} weight ${m.effectiveWeight.toFixed(2)} (reliability ${m.reliability.toFixed(2)} over ${m.evidence}${m.familyDiscount < 1 ? `, family ${m.family} ×${m.familyDiscount.toFixed(2)}` : ''})`,
        )
      : []),
    ...(decision.status === 'decided' ? decision.warnings.map((w) => `warning: ${w}`) : []),
  ];
  return {
    exitCode,
    text: lines.join('\n'),
    json: { command: 'calibrate decide', exitCode, decision: id, defaultVerdict: stated, calibrated: decision },
  };
}

/**
 * Each valid voter's own verdict, recomputed from its scores under the record's rubric (a
 * verdict written in the record is never taken on trust), with its model from the transcript.
 */
async function memberVerdicts(
  ctx: CommandContext,
  file: string,
  id: string | undefined,
): Promise<{ id: string; members: CalibratedVote[]; stated: string; minValidVotes: number }> {
  const loaded = await loadDecision(ctx.io.cwd, file);
  const { decision } = loaded;
  const votes: readonly Vote[] = Array.isArray(decision.votes) ? decision.votes : [];
  const rubric = decision.rubric;
  if (rubric === undefined || rubric === null || !Array.isArray(rubric.axes) || typeof rubric.thresholds !== 'object') {
    throw new CliError(`${file}: the decision record has no usable rubric`, [
      {
        code: 'no_rubric',
        ...loaded.at('rubric'),
        message: "a rubric with axes, weights and thresholds is needed to read each member's verdict",
        fix: 'pass the run record `conclave debate --out` writes',
      },
    ]);
  }
  const models = new Map<string, string>();
  const transcript = (loaded.document as { result?: { transcript?: unknown } }).result?.transcript;
  if (Array.isArray(transcript))
    for (const c of transcript as { memberId?: unknown; model?: unknown }[])
      if (typeof c?.memberId === 'string' && typeof c.model === 'string') models.set(c.memberId, c.model);
  const members: CalibratedVote[] = votes
    .filter((vote) => checkVote(vote, rubric).length === 0)
    .map((vote) => {
      const model = models.get(vote.memberId);
      return {
        memberId: vote.memberId,
        verdict: verdictFor(weightedScore(vote.scores, rubric), rubric.thresholds),
        ...(model === undefined ? {} : { model }),
      };
    });
  const stated = typeof decision.consensus?.verdict === 'string' ? decision.consensus.verdict : 'unknown';
  const decisionId = id ?? (typeof decision.id === 'string' && decision.id !== '' ? decision.id : undefined);
  if (decisionId === undefined)
    throw new CliError(`${file}: the decision record has no id`, [
      {
        code: 'no_decision_id',
        ...loaded.at('id'),
        message: 'a decision id names the decision in the track record',
        fix: 'pass --id <name>',
      },
    ]);
  return {
    id: decisionId,
    members,
    stated,
    minValidVotes: Math.max(MIN_VALID_VOTES, Number.isInteger(decision.minValidVotes) ? decision.minValidVotes : MIN_VALID_VOTES),
  };
}

/** A track record from its JSON file, checked entry by entry; a missing file is empty or an error. */
export async function loadTrack(ctx: CommandContext, file: string, options: { missing: 'empty' | 'error' }): Promise<TrackRecord> {
  if (!existsSync(resolvePath(ctx.io.cwd, file))) {
    if (options.missing === 'empty') return EMPTY_TRACK_RECORD;
    throw new CliError(
      `${file}: no such track record file`,
      [],
      EXIT.usage,
      `record a decision first: \`conclave calibrate record <run.json> --track ${file}\``,
    );
  }
  const loaded = await loadJsonFile(ctx.io.cwd, file, 'track record');
  const { data, locate } = loaded;
  const fix = 'pass a track record written by `conclave calibrate record`, or a new file name to start one';
  if (
    data === null ||
    typeof data !== 'object' ||
    (data as { version?: unknown }).version !== 1 ||
    !Array.isArray((data as { entries?: unknown }).entries)
  ) {
    throw new CliError(`${file}: not a track record`, [
      { code: 'not_a_track_record', ...locate([]), message: 'expected { "version": 1, "entries": [...] }', fix },
    ]);
  }
  const entries = (data as { entries: unknown[] }).entries;
  entries.forEach((entry, i) => {
    const e = entry as Partial<Record<keyof TrackEntry, unknown>> | null;
    const problem =
      e === null || typeof e !== 'object'
        ? 'an entry must be an object'
        : typeof e.decisionId !== 'string' || typeof e.memberId !== 'string'
          ? 'decisionId and memberId must be strings'
          : e.verdict !== 'GO' && e.verdict !== 'PIVOT' && e.verdict !== 'NO_GO'
            ? `verdict must be GO, PIVOT or NO_GO, got ${JSON.stringify(e.verdict)}`
            : e.outcome !== undefined && e.outcome !== 'GO' && e.outcome !== 'NO_GO'
              ? `outcome must be GO or NO_GO, got ${JSON.stringify(e.outcome)}`
              : undefined;
    if (problem !== undefined)
      throw new CliError(`${file}: entry ${i} is not a track entry`, [
        { code: 'bad_track_entry', ...locate(['entries', i]), path: ['entries', String(i)], message: problem, fix },
      ]);
  });
  return data as TrackRecord;
}

/** Writes the track record atomically (a temporary file renamed over the old one): never half a file. */
async function writeTrack(ctx: CommandContext, file: string, track: TrackRecord): Promise<void> {
  const path = resolvePath(ctx.io.cwd, file);
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`, [], EXIT.usage, 'choose a writable path for --track');
  }
  const written = await writeFileAtomic(path, `${JSON.stringify(track, null, 2)}\n`);
  if (!written.ok) throw new CliError(`cannot write ${file}: ${written.message}`, [], EXIT.usage, 'choose a writable path for --track');
}

function parseOutcome(text: string): Outcome {
  if (text === 'GO' || text === 'NO_GO') return text;
  throw new CliError(
    `the outcome must be GO or NO_GO, got "${text}"`,
    [],
    EXIT.usage,
    'GO when acting was (or would have been) right, NO_GO when it was not; PIVOT is not an outcome',
  );
}

function parsePositive(text: string, flag: string, hint: string): number {
  const value = Number(text);
  if (!(Number.isFinite(value) && value > 0))
    throw new CliError(`${flag} must be a number above 0, got "${text}"`, [], EXIT.usage, `pass ${hint}`);
  return value;
}

function parseRate(text: string): number {
  const value = Number(text);
  if (!(value >= 0 && value <= 1))
    throw new CliError(
      `--false-go-rate must be between 0 and 1, got "${text}"`,
      [],
      EXIT.usage,
      'pass the share of wrong GOs you accept, such as 0.05',
    );
  return value;
}

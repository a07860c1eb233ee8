import { DebateEngine, type Board, type DebateEvent, type DebateResult } from '@conclave/council';
import { runRecord, type DebateRunRecord } from '@conclave/report';
import { calibrate, type Calibration } from '@conclave/scoring/calibration';
import {
  createPanel,
  decisionRecordFromDebate,
  emissionGate,
  PANEL_TIER,
  tierAtLeast,
  verifyDecision,
  type EmissionDecision,
  type Tier,
  type ValidationSignal,
  type VerificationReport,
} from '@conclave/verifier';
import { providerLine, type CommandContext, type CommandOutcome } from '../command.js';
import { CliError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { loadInputFile } from '../inputs.js';
import { interruptedOutcome } from '../interrupt.js';
import { PhaseTally } from '../phase-tally.js';
import type { Progress } from '../progress.js';
import { describeMemberFailure, renderDebate, renderEmission } from '../render.js';
import { recordText, refuseOverwritingInput, writeOutput } from '../run-files.js';
import { loadTrack } from './calibrate.js';
import { parseTier } from '../tier-option.js';

export interface DebateFlags {
  readonly question: string;
  readonly tier?: string;
  readonly passed?: readonly string[];
  readonly out?: string;
  /** A track record (`conclave calibrate record`) whose calibration the board's rule uses. */
  readonly track?: string;
}

/** A debate's progress as events and a live status; a phase of more than `PROGRESS_DETAIL_LIMIT` members gets one line of counts. */
export function debateListener(progress: Progress): (event: DebateEvent) => void {
  const running = new Set<string>();
  let phase = '';
  let tally = new PhaseTally(0);
  return (event) => {
    switch (event.type) {
      case 'phase_started':
        phase = event.phase;
        tally = new PhaseTally(event.members.length);
        progress.event(
          `phase ${event.phaseIndex + 1}: ${event.phase}${event.contrarian ? ' (contrarian, speaks last)' : ''}, ${event.members.length} member(s) in parallel`,
        );
        break;
      case 'member_started':
        running.add(event.memberId);
        tally.started += 1;
        progress.status(`phase ${phase}: ${tally.summarised ? tally.describe() : `${[...running].join(', ')} thinking`}`);
        break;
      case 'member_finished':
        running.delete(event.memberId);
        tally.finished += 1;
        if (tally.summarised) progress.status(`phase ${phase}: ${tally.describe()}`);
        else {
          progress.event(`  ${event.memberId}: ${event.score.toFixed(2)}`);
          progress.status(`phase ${phase}: ${running.size === 0 ? 'done' : `${[...running].join(', ')} thinking`}`);
        }
        break;
      case 'member_failed':
        running.delete(event.memberId);
        tally.failed += 1;
        if (!tally.summarised) progress.event(`  ${event.memberId} failed: ${describeMemberFailure(event.reason)}`);
        break;
      case 'debate_stopped':
        progress.event(`debate stopped: ${event.reason.kind}`);
        break;
      case 'debate_finished':
        progress.event(`debate finished: ${event.verdict}`);
        break;
      case 'phase_finished':
        // The phase's status line would otherwise be redrawn under every later event (the gate's).
        progress.done();
        if (tally.summarised) progress.event(`  ${event.phase}: ${tally.size} members, ${event.valid} answered, ${event.failed} failed`);
        break;
      // The warning is printed with the result (`Warning: ...`), once, beside the rule it concerns.
      case 'family_majority':
      case 'debate_started':
        break;
    }
  };
}

export interface DebateRun {
  readonly result: DebateResult;
  readonly tier: Tier;
  readonly gate: EmissionDecision;
  readonly verification: VerificationReport;
  readonly record: DebateRunRecord;
  readonly exitCode: ExitCode;
  readonly text: string;
}

/** Runs a board through the engine, the verifier and the tier's emission gate. */
export async function runDebate(
  ctx: CommandContext,
  board: Board,
  boardPath: string | undefined,
  question: string,
  tier: Tier,
  passed: readonly string[] = [],
  calibration?: Calibration,
): Promise<DebateRun> {
  const choice = ctx.providers();
  // Ctrl-C aborts the members' calls: the engine ends `stopped` with a NO_GO, which is recorded.
  const result = await DebateEngine.run(board, {
    question,
    adapters: choice.council,
    onEvent: debateListener(ctx.progress),
    ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    ...(calibration === undefined ? {} : { calibration }),
  });
  const validation: ValidationSignal[] = passed.map((name) => ({ kind: 'test', name, passed: true }));
  const decision = decisionRecordFromDebate(board, result, { tier, validation });
  ctx.progress.event(`emission gate (${tier}): ${tierAtLeast(tier, PANEL_TIER) ? 'the N-lens panel' : 'the verifier'}`);
  const gate = emissionGate(decision, { panel: createPanel({ quorum: 2 }) });
  const verification = gate.route === 'verifier' ? gate.report : verifyDecision(decision);
  const escalated = gate.route === 'panel' && gate.verdict.status === 'escalated';
  // Only an approved GO exits 0; the engine's verdict must agree with the verifier's (ADR 0022).
  const exitCode: ExitCode = escalated ? EXIT.escalated : gate.mayAct && result.verdict === 'GO' ? EXIT.ok : EXIT.no;
  const record = runRecord<DebateRunRecord>({
    kind: 'debate',
    offline: choice.offline,
    title: `${board.title ?? board.id}: ${question}`,
    board: { id: board.id, ...(boardPath === undefined ? {} : { path: boardPath }) },
    result,
    decision,
    verification,
    ...(gate.route === 'panel' ? { panel: gate.verdict } : {}),
    emission: gate,
  });
  const text = [renderDebate(board, result), '', renderEmission(gate, tier, verification)].join('\n');
  return { result, tier, gate, verification, record, exitCode, text };
}

/** The JSON summary of a debate. */
export function debateSummary(run: DebateRun): Record<string, unknown> {
  const c = run.result.consensus;
  return {
    verdict: run.result.verdict,
    status: run.result.status,
    rule: run.result.decision.rule,
    ...(run.result.decision.probabilityGo === undefined ? {} : { probabilityGo: run.result.decision.probabilityGo }),
    weights: run.result.decision.members.map((m) => ({ memberId: m.memberId, weight: m.weight, reason: m.reason })),
    warnings: run.result.decision.warnings.map((w) => w.message),
    consensus:
      c.status === 'scored'
        ? { status: c.status, verdict: c.verdict, score: c.score, validVotes: c.validVotes }
        : { status: c.status, validVotes: c.validVotes, minValidVotes: c.minValidVotes },
    dissent:
      c.status === 'scored'
        ? c.dissent.map((d) => ({ memberId: d.memberId, verdict: d.verdict, score: d.score, direction: d.direction }))
        : [],
    failures: run.result.failures.map((f) => ({ memberId: f.memberId, phase: f.phase, reason: f.reason.kind })),
    tier: run.tier,
    emission: {
      approved: run.gate.approved,
      mayAct: run.gate.mayAct,
      route: run.gate.route,
      ...(run.gate.route === 'panel' ? { status: run.gate.verdict.status } : {}),
    },
  };
}

/**
 * The checks given with --passed. An empty name (say an unset "$CHECK") names no check, so it is
 * refused rather than counted as a passing test that a GO may rest on.
 */
function passedChecks(passed: readonly string[] = []): readonly string[] {
  if (passed.some((name) => name.trim() === ''))
    throw new CliError(
      '--passed needs the name of the check that passed',
      [],
      EXIT.usage,
      'write --passed "<test or gate>", e.g. --passed "npm test", or drop --passed when no check ran',
    );
  return passed;
}

/**
 * The question, refused when blank: the engine would stop on it (`invalid_input`) with a NO_GO,
 * which reads as the board's answer rather than as the typo it is. `name` is how the user gave it.
 */
export function nonBlankQuestion(question: string, name: string): string {
  if (question.trim() === '')
    throw new CliError(`${name} is empty`, [], EXIT.usage, 'ask the board something, e.g. -q "Tasca Pay in Brazil"');
  return question;
}

export async function debateCommand(ctx: CommandContext, boardFile: string, flags: DebateFlags): Promise<CommandOutcome> {
  const tier = parseTier(flags.tier, 'T3');
  const passed = passedChecks(flags.passed);
  const question = nonBlankQuestion(flags.question, '--question');
  refuseOverwritingInput(ctx.io.cwd, flags.out, boardFile);
  const board = await loadInputFile(ctx.io.cwd, boardFile, 'board');
  const choice = ctx.providers();
  ctx.progress.event(`debate ${board.id} (${choice.offline ? 'offline' : choice.label})`);
  const calibration = flags.track === undefined ? undefined : calibrate(await loadTrack(ctx, flags.track, { missing: 'error' }));
  const run = await runDebate(ctx, board, boardFile, question, tier, passed, calibration);
  const written = flags.out === undefined ? undefined : await writeOutput(ctx.io.cwd, flags.out, recordText(run.record));
  const text = [providerLine('debate', choice), '', run.text, ...(written === undefined ? [] : ['', `run record: ${written}`])].join('\n');
  const outcome: CommandOutcome = {
    exitCode: run.exitCode,
    text,
    json: {
      command: 'debate',
      exitCode: run.exitCode,
      offline: choice.offline,
      provider: choice.provider,
      board: board.id,
      question: run.result.question,
      ...debateSummary(run),
      ...(written === undefined ? {} : { out: written }),
    },
  };
  // Checked last, so a stop that came after the engine finished still wins over a GO.
  const stopped =
    run.result.status === 'stopped'
      ? `the debate stopped; verdict ${run.result.verdict}`
      : `the debate had finished (verdict ${run.result.verdict}), but the run was stopped: do not act on it`;
  return interruptedOutcome(outcome, ctx.interrupted(), stopped);
}

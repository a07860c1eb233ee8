import { describeFailure } from '@conclave/core';
import type { Board, DebateResult, MemberFailureReason } from '@conclave/council';
import type { AbstainReason, AdrDraft, MeetingResult } from '@conclave/meeting';
import type { RunEvidence, TaskLoopResult } from '@conclave/taskloop';
import { describeHalt } from '@conclave/taskloop';
import type { Verdict } from '@conclave/scoring';
import type { EmissionDecision, PanelVerdict, VerificationReport } from '@conclave/verifier';

/**
 * Why a member gave no vote (or abstained in a meeting): the reason's kind, and what went wrong where the reason says
 * (an adapter's failure, e.g. `refused: 401 invalid x-api-key`, so a bad key or URL is named).
 */
export function describeMemberFailure(reason: MemberFailureReason | AbstainReason): string {
  if (reason.kind === 'adapter_failed') return `${reason.kind} (${describeFailure(reason.failure)})`;
  return `${reason.kind}${'message' in reason ? ` (${reason.message})` : ''}`;
}

/** A plain-text account of a debate: each member's scores, failures, consensus and dissent. */
export function renderDebate(board: Board, result: DebateResult): string {
  const axes = board.rubric.axes;
  const lines: string[] = [`Question: ${result.question}`, ''];
  const header = ['member'.padEnd(18), ...axes.map((axis) => axis.padStart(11)), 'score'.padStart(7), '  verdict'].join('');
  for (const phase of board.phases) {
    lines.push(`Phase "${phase.name}"${phase.contrarian ? ' [contrarian]' : ''}`, header);
    for (const c of result.transcript.filter((entry) => entry.phase === phase.name)) {
      const member = result.consensus.status === 'scored' ? result.consensus.members.find((m) => m.memberId === c.memberId) : undefined;
      lines.push(
        [
          c.memberId.padEnd(18),
          ...axes.map((axis) => String(c.scores[axis]).padStart(11)),
          c.score.toFixed(2).padStart(7),
          `  ${member?.verdict ?? ''}`,
        ].join(''),
      );
      lines.push(`    “${c.statement}”`);
    }
    for (const f of result.failures.filter((entry) => entry.phase === phase.name))
      lines.push(`  ✗ ${f.memberId}: ${describeMemberFailure(f.reason)}`);
    lines.push('');
  }
  const c = result.consensus;
  if (c.status === 'quorum_not_met') {
    lines.push(`Consensus: NO_GO — quorum not met (${c.validVotes} of ${c.minValidVotes} valid votes required)`);
  } else {
    lines.push(
      `Consensus: ${c.verdict} at ${c.score.toFixed(2)} / 10 (GO ≥ ${board.rubric.thresholds.go}, PIVOT ≥ ${board.rubric.thresholds.pivot}); ${c.validVotes} valid votes, spread ${c.spread.range.toFixed(2)}`,
    );
    lines.push(`Axis means: ${axes.map((axis) => `${axis} ${(c.axisMeans[axis] ?? 0).toFixed(2)}`).join(', ')}`);
    lines.push(
      c.dissent.length === 0
        ? 'Dissent: none'
        : `Dissent: ${c.dissent.map((d) => `${d.memberId} (${d.verdict}, ${d.score.toFixed(2)}, ${d.direction} the consensus)`).join('; ')}`,
    );
  }
  lines.push(
    `Failures: ${result.failures.length === 0 ? 'none' : result.failures.map((f) => `${f.memberId} ${describeMemberFailure(f.reason)}`).join(', ')}`,
  );
  lines.push(...renderRule(result.decision, result.status));
  if (result.status === 'stopped') lines.push(`Stopped: ${result.stopReason?.kind} — the verdict is NO_GO`);
  lines.push(
    `Verdict: ${result.verdict}   (${result.usage.calls} calls, ~${result.usage.inputTokens + result.usage.outputTokens} tokens estimated)`,
  );
  return lines.join('\n');
}

/** The decision rule beside the verdict: the rule, P(GO is right), each member's effective weight and why, and a family warning. */
function renderRule(decision: DebateResult['decision'], status: DebateResult['status']): string[] {
  const { rule } = decision;
  const name =
    rule.rule === 'calibrated'
      ? `calibrated (${rule.falseGoRate === undefined ? `cost of a false GO ${rule.costOfFalseGo} : ${rule.costOfMissedGo}` : `false-GO rate ${rule.falseGoRate}`}) → ${status === 'stopped' ? `NO_GO, stopped (${decision.verdict} over the partial votes)` : decision.verdict}`
      : 'mean score';
  const lines = [`Rule: ${name}${decision.probabilityGo === undefined ? '' : `; P(GO is right) ${decision.probabilityGo.toFixed(2)}`}`];
  if (rule.rule === 'calibrated')
    for (const m of decision.members)
      lines.push(`  ${m.memberId.padEnd(18)} ${m.verdict.padEnd(6)} weight ${m.weight.toFixed(2)}: ${m.reason}`);
  for (const warning of decision.warnings) lines.push(`Warning: ${warning.message}`);
  if (decision.error !== undefined) lines.push(`The rule could not be applied: ${decision.error}; the verdict is NO_GO`);
  if (decision.estimateNote !== undefined) lines.push(`Note: P(GO is right) is approximate: ${decision.estimateNote}`);
  return lines;
}

/** The verifier's claims. `approved` says the record is sound, not that anyone may act (see `verifierAnswer`). */
export function renderReport(report: VerificationReport): string {
  const lines = [`Verifier (read-only, deterministic oracles): ${report.approved ? 'APPROVED (the record is sound)' : 'NOT APPROVED'}`];
  for (const c of report.claims) lines.push(`  ${c.status.padEnd(10)} ${c.claim.id.padEnd(24)} ${c.reason}`);
  for (const issue of report.malformed) lines.push(`  malformed: ${issue}`);
  return lines.join('\n');
}

/** The panel's lenses. */
export function renderPanel(verdict: PanelVerdict): string {
  const lines = [
    `Panel (quorum ${verdict.quorum} of ${verdict.lenses.length}, any veto blocks): ${verdict.status.toUpperCase()} with ${verdict.approvals} approval${verdict.approvals === 1 ? '' : 's'}`,
  ];
  for (const lens of verdict.lenses)
    lines.push(`  ${lens.lens.padEnd(13)} ${lens.decision}${lens.decision === 'approve' ? '' : `: ${lens.reasons.join('; ')}`}`);
  return lines.join('\n');
}

/**
 * The one line a person acts on. Whether the record is sound and whether anyone may act are two
 * statements (ADR 0022): only an approved GO says "may be acted on"; a sound PIVOT or NO_GO says
 * "not a GO: do not act" beside what the checks proved.
 */
export function actAnswer(answer: {
  readonly approved: boolean;
  readonly mayAct: boolean;
  readonly verdict: Verdict;
  readonly escalated?: boolean;
}): string {
  if (answer.escalated === true) return 'ESCALATED: a person must decide; do not act';
  if (answer.mayAct) return 'GO and APPROVED: the decision may be acted on';
  if (answer.approved) return `the record is sound, but the verdict is ${answer.verdict}: not a GO: do not act`;
  return `BLOCKED${answer.verdict === 'GO' ? '' : ` (verdict ${answer.verdict})`}: do not act on this decision`;
}

/** The emission gate's answer, with the report or the panel that decided it. */
export function renderEmission(gate: EmissionDecision, tier: string, verification?: VerificationReport): string {
  const lines: string[] = [];
  if (verification !== undefined) lines.push(renderReport(verification), '');
  if (gate.route === 'panel') lines.push(renderPanel(gate.verdict), '');
  if (gate.route === 'verifier' && verification === undefined) lines.push(renderReport(gate.report), '');
  if (gate.route === 'refused') lines.push(`Refused: ${gate.reason}`);
  const escalated = gate.route === 'panel' && gate.verdict.status === 'escalated';
  lines.push(
    `Emission gate (${tier}): ${actAnswer({ approved: gate.approved, mayAct: gate.mayAct, verdict: gate.consensusVerdict, escalated })}`,
  );
  return lines.join('\n');
}

/** The meeting's outcome, decision, dissent and ADR draft status. */
export function renderMeeting(meeting: MeetingResult, question: string, adr: AdrDraft | undefined, offline: boolean): string {
  const lines = [`${offline ? 'Meeting (offline members)' : 'Meeting'}: "${question}"`];
  const rounds = meeting.record.rounds.filter((round) => round.round > 0);
  const adversarial = rounds.filter((round) => round.adversarial).length;
  lines.push(
    `  outcome: ${meeting.outcome}, stopped: ${meeting.stopReason.kind}; isolated prep round + ${rounds.length} meeting rounds (${adversarial} adversarial)`,
  );
  const lastCuration = rounds.at(-1)?.curation;
  if (lastCuration?.by === 'facilitator') lines.push(`  facilitator, last round: ${lastCuration.summary}`);
  for (const warning of meeting.warnings) {
    // Offline, the brief's models never sat: a warning about their families would describe another panel.
    if (offline && (warning.kind === 'correlated_judges' || warning.kind === 'family_majority')) continue;
    lines.push(`  warning: ${warning.message}`);
  }
  if (meeting.synthesis) {
    const { decision, dissent } = meeting.synthesis;
    lines.push(`  decision: ${decision.title} (${decision.status}), confidence ${meeting.synthesis.confidence.toFixed(2)}`);
    lines.push(
      `  minority report: ${dissent.present ? dissent.dissenters.map((d) => `${d.name} (${d.role}) prefers ${d.preferredOption}`).join('; ') : dissent.statement}`,
    );
  } else {
    lines.push('  decision: none (fail-closed: only a decided meeting carries a decision)');
  }
  if (adr !== undefined)
    lines.push(`  ADR draft: "${adr.title}", Status: proposed (needs an explicit approval to be numbered and accepted)`);
  // Every paid call counts, an abstention's (a refused or invalid answer) too.
  const { calls, inputTokens, outputTokens, costUsd } = meeting.usage;
  lines.push(
    `  model calls: ${calls}, tokens: ${inputTokens} in, ${outputTokens} out${costUsd === undefined ? '' : `, cost $${costUsd.toFixed(4)}`}`,
  );
  return lines.join('\n');
}

/** The outcome of a task run. */
export function renderTaskResult(result: TaskLoopResult): string {
  const lines = [`outcome: ${result.outcome}${result.resumed ? ' (resumed)' : ''}`];
  if (result.stop?.kind === 'refused') {
    lines.push(`refused (${result.stop.reason}): ${result.stop.message}`, `    fix: ${result.stop.fix}`);
  } else if (result.stop !== undefined) lines.push(`stopped: ${describeHalt(result.stop)}`);
  lines.push(`completed: ${result.completed.join(', ') || '(none)'}`);
  for (const { taskId, disposition } of result.failed) lines.push(`failed: ${taskId} (${disposition})`);
  if (result.branch !== undefined) lines.push(`branch: ${result.branch}`);
  if (result.alignment !== undefined) lines.push(`guardian: ${result.alignment}`);
  return lines.join('\n');
}

/** A run's plan and attempts, for `task status`. */
export function renderEvidence(evidence: RunEvidence): string {
  const lines = [`run ${evidence.runId}`, `plan:${evidence.planVerified ? '' : ' (NOT VERIFIED: see below)'}`];
  for (const problem of evidence.problems) lines.splice(1, 0, `warning: ${problem}`);
  for (const item of evidence.plan) lines.push(`${'  '.repeat(item.depth + 1)}[${item.checked ? 'x' : ' '}] ${item.id}: ${item.text}`);
  lines.push(`attempts: ${evidence.attempts.length}`);
  for (const a of evidence.attempts) {
    const failed = a.gates.filter((g) => !g.passed).map((g) => g.name);
    lines.push(`  ${a.taskId} #${a.attempt}: ${a.decision}${failed.length === 0 ? '' : ` (failed: ${failed.join(', ')})`}`);
  }
  const last = evidence.timeline.at(-1);
  if (last !== undefined)
    lines.push(
      `last step: ${last.state}${last.taskId === undefined ? '' : ` ${last.taskId}`}${last.detail === undefined ? '' : ` ${last.detail}`}`,
    );
  return lines.join('\n');
}

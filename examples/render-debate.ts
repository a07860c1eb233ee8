import type { Board, DebateResult } from '@conclave/council';

/** A plain-text account of a debate: each member's scores, failures, consensus and dissent. */
export function renderDebate(board: Board, result: DebateResult): string {
  const axes = board.rubric.axes;
  const lines: string[] = [`\nQuestion: ${result.question}\n`];
  const header = ['member'.padEnd(18), ...axes.map((axis) => axis.padStart(11)), 'score'.padStart(7), '  verdict'].join('');
  for (const phase of board.phases) {
    lines.push(`Phase "${phase.name}"${phase.contrarian ? ' [contrarian]' : ''}`, header);
    for (const c of result.transcript.filter((entry) => entry.phase === phase.name)) {
      const member = result.consensus.status === 'scored' ? result.consensus.members.find((m) => m.memberId === c.memberId) : undefined;
      lines.push([c.memberId.padEnd(18), ...axes.map((axis) => String(c.scores[axis]).padStart(11)), c.score.toFixed(2).padStart(7), `  ${member?.verdict ?? ''}`].join(''));
      lines.push(`    “${c.statement}”`);
    }
    for (const f of result.failures.filter((entry) => entry.phase === phase.name)) lines.push(`  ✗ ${f.memberId}: ${f.reason.kind}`);
    lines.push('');
  }
  const c = result.consensus;
  if (c.status === 'quorum_not_met') {
    lines.push(`Consensus: NO_GO — quorum not met (${c.validVotes} of ${c.minValidVotes} valid votes required)`);
  } else {
    lines.push(`Consensus: ${c.verdict} at ${c.score.toFixed(2)} / 10 (GO ≥ ${board.rubric.thresholds.go}, PIVOT ≥ ${board.rubric.thresholds.pivot}); ${c.validVotes} valid votes, spread ${c.spread.range.toFixed(2)}`);
    lines.push(`Axis means: ${axes.map((axis) => `${axis} ${(c.axisMeans[axis] ?? 0).toFixed(2)}`).join(', ')}`);
    lines.push(c.dissent.length === 0 ? 'Dissent: none' : `Dissent: ${c.dissent.map((d) => `${d.memberId} (${d.verdict}, ${d.score.toFixed(2)}, ${d.direction} the consensus)`).join('; ')}`);
  }
  lines.push(`Failures: ${result.failures.length === 0 ? 'none' : result.failures.map((f) => `${f.memberId} ${f.reason.kind}`).join(', ')}`);
  if (result.status === 'stopped') lines.push(`Stopped: ${result.stopReason?.kind} — the verdict is NO_GO`);
  lines.push(`Verdict: ${result.verdict}   (${result.usage.calls} calls, ~${result.usage.inputTokens + result.usage.outputTokens} tokens estimated, ${result.durationMs.toFixed(1)} ms)`);
  return lines.join('\n');
}

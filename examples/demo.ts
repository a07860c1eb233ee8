/**
 * The main job on the offline default: a real debate over examples/boards/, no keys, no network.
 * Usage: npm run demo [-- <board.yaml> [question]]
 */
import { readFile } from 'node:fs/promises';
import { createOfflineAdapter, DebateEngine, formatBoardIssue, parseBoard, type DebateEvent } from '@conclave/council';
import { createOfflineMeetingMember, draftAdr, formatBriefIssue, parseBrief, runMeeting } from '@conclave/meeting';
import { emissionGate, verifyDecision } from '@conclave/verifier';
import { decisionRecordFromDebate } from './decision-record.js';
import { renderDebate } from './render-debate.js';
import { renderVerification } from './render-verification.js';

const file = process.argv[2] ?? 'examples/boards/product-launch.yaml';
const question = process.argv[3] ?? 'Tasca Pay, instant payouts for freelancers, in Brazil this quarter';

const loaded = parseBoard(await readFile(file, 'utf8'), { file });
if (loaded.isErr()) {
  console.error(`${file}: the board has ${loaded.error.length} problem(s):`);
  for (const issue of loaded.error) console.error(formatBoardIssue(issue));
  process.exit(2);
}

console.log('conclave demo: OFFLINE adapters (deterministic members computed from the board\'s facts; no model, no key, no network)\n');
const onEvent = (event: DebateEvent) => {
  if (event.type === 'phase_started') console.log(`▶ phase ${event.phaseIndex + 1}: ${event.phase}${event.contrarian ? ' (contrarian, speaks last)' : ''} — ${event.members.length} member(s) in parallel`);
};
const result = await DebateEngine.run(loaded.value, { question, adapters: { offline: createOfflineAdapter() }, onEvent });
console.log(renderDebate(loaded.value, result));

// The maker (the council) is checked by the read-only verifier, then gated by the N-lens panel
// as a T3 decision would be.
const record = decisionRecordFromDebate(loaded.value, result, { tier: 'T3' });
const gate = emissionGate(record);
if (gate.route === 'panel') {
  console.log(renderVerification(verifyDecision(record), gate.verdict));
  console.log(`\nEmission gate (T3): ${gate.approved ? 'APPROVED: the decision may be acted on' : 'BLOCKED: do not act on this decision'}`);
}

// The consensus meeting: no assigned skeptic, convergence computed by code, an ADR drafted as
// proposed (recording it needs an explicit approval, which a demo does not give).
const briefFile = 'examples/briefs/data-platform.yaml';
const brief = parseBrief(await readFile(briefFile, 'utf8'), { file: briefFile });
if (brief.isErr()) {
  for (const issue of brief.error) console.error(formatBriefIssue(issue));
  process.exit(2);
}
const meeting = await runMeeting(brief.value, { adapters: () => createOfflineMeetingMember() });
console.log(`\nMeeting (offline members): "${brief.value.question}"`);
const meetingRounds = meeting.record.rounds.filter((round) => round.round > 0);
const adversarial = meetingRounds.filter((round) => round.adversarial).length;
console.log(`  outcome: ${meeting.outcome}, stopped: ${meeting.stopReason.kind}; isolated prep round + ${meetingRounds.length} meeting rounds (${adversarial} adversarial)`);
const lastCuration = meetingRounds.at(-1)?.curation;
if (lastCuration?.by === 'facilitator') console.log(`  facilitator, last round: ${lastCuration.summary}`);
if (meeting.synthesis) {
  const { decision, dissent } = meeting.synthesis;
  console.log(`  decision: ${decision.title} (${decision.status}), confidence ${meeting.synthesis.confidence.toFixed(2)}`);
  console.log(`  minority report: ${dissent.present ? dissent.dissenters.map((d) => `${d.name} (${d.role}) prefers ${d.preferredOption}`).join('; ') : dissent.statement}`);
  console.log(`  ADR draft: "${draftAdr(meeting.synthesis).title}", Status: proposed (needs an explicit approval to be numbered and accepted)`);
}


/**
 * The main job on the offline default: a real debate over examples/boards/, no keys, no network.
 * Usage: npm run demo [-- <board.yaml> [question]]
 */
import { readFile } from 'node:fs/promises';
import { createOfflineAdapter, DebateEngine, formatBoardIssue, parseBoard, type DebateEvent } from '@conclave/council';
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


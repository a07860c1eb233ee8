/**
 * The main job on the offline default: a real debate over examples/boards/, no keys, no network.
 * Usage: npm run demo [-- <board.yaml> [question]]
 */
import { readFile } from 'node:fs/promises';
import { createOfflineAdapter, DebateEngine, formatBoardIssue, parseBoard, type DebateEvent } from '@conclave/council';
import { renderDebate } from './render-debate.js';

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


import { readFile } from 'node:fs/promises';
import { formatIssue } from '@conclave/core';
import { createOfflineAdapter, DebateEngine, parseBoard, withAxes } from '@conclave/council';

// The axes this code reads. A board file whose rubric has others is refused before any call is paid for.
const AXES = ['correctness', 'safety'] as const;
const file = process.argv[2] ?? 'examples/boards/code-review.yaml';

const board = parseBoard(await readFile(file, 'utf8'), { file }).andThen((loaded) => withAxes(loaded, AXES, { file }));
if (board.isErr()) {
  for (const issue of board.error) console.error(formatIssue(issue));
  process.exit(1);
}

const result = await DebateEngine.run(board.value, {
  question: 'merge the retry patch',
  adapters: { offline: createOfflineAdapter() },
  // The event's scores are typed too: `event.scores.safty` would not compile.
  onEvent: (event) => {
    if (event.type === 'member_finished') console.log(`${event.memberId} finished: safety ${event.scores.safety}`);
  },
});
// `vote.scores` has exactly the board's axes: `vote.scores.corectness` is a compile error.
for (const vote of result.votes) console.log(`${vote.memberId}: correctness ${vote.scores.correctness}, safety ${vote.scores.safety}`);
console.log(result.verdict);

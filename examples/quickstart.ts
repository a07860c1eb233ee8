import { createOfflineAdapter, DebateEngine, defineBoard } from '@conclave/council';

const board = defineBoard({
  id: 'pricing',
  question: 'Should we {{question}}?',
  facts: [{ axis: 'revenue', value: 8, note: 'Churn model predicts +12% ARR' }],
  phases: [
    { name: 'analysis', members: ['cfo', 'pm', 'cto'].map((id) => ({ id, persona: `The ${id}`, model: 'offline:analyst' })) },
    { name: 'challenge', contrarian: true, members: [{ id: 'skeptic', persona: 'Finds the flaw', model: 'offline:contrarian' }] },
  ],
});

const result = await DebateEngine.run(board, { question: 'raise prices 10%', adapters: { offline: createOfflineAdapter() } });
console.log(result.verdict, result.consensus.status === 'scored' ? result.consensus.score.toFixed(2) : 'no quorum');
for (const c of result.transcript) console.log(`${c.memberId}: ${c.score.toFixed(2)} ${c.statement}`);
for (const f of result.failures) console.log(`${f.memberId} failed: ${f.reason.kind}`);

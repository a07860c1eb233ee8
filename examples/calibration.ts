import {
  calibrate,
  calibratedVerdict,
  EMPTY_TRACK_RECORD,
  recordDecision,
  recordOutcome,
  type TrackRecord,
} from '@conclave/scoring/calibration';

// A track record: each past decision's member verdicts, and later what GO would have deserved.
let record: TrackRecord = EMPTY_TRACK_RECORD;
const history: [string, 'GO' | 'NO_GO', Record<string, 'GO' | 'NO_GO'>][] = [
  ['launch-a', 'GO', { cfo: 'GO', pm: 'GO', 'gpt-1': 'NO_GO', 'gpt-2': 'NO_GO' }],
  ['launch-b', 'NO_GO', { cfo: 'NO_GO', pm: 'GO', 'gpt-1': 'GO', 'gpt-2': 'GO' }],
  ['launch-c', 'GO', { cfo: 'GO', pm: 'NO_GO', 'gpt-1': 'NO_GO', 'gpt-2': 'NO_GO' }],
  ['launch-d', 'NO_GO', { cfo: 'NO_GO', pm: 'NO_GO', 'gpt-1': 'GO', 'gpt-2': 'GO' }],
];
for (const [id, outcome, verdicts] of history) {
  const members = Object.entries(verdicts).map(([memberId, verdict]) => ({
    memberId,
    verdict,
    family: memberId.startsWith('gpt') ? 'openai' : 'anthropic',
  }));
  record = recordOutcome(recordDecision(record, id, members), id, outcome);
}

// Learn reliabilities (shrunk toward the prior: four decisions are thin evidence) and decide.
const calibration = calibrate(record);
const decision = calibratedVerdict(
  [
    { memberId: 'cfo', verdict: 'GO', family: 'anthropic' },
    { memberId: 'pm', verdict: 'GO', family: 'anthropic' },
    { memberId: 'gpt-1', verdict: 'NO_GO', family: 'openai' },
    { memberId: 'gpt-2', verdict: 'NO_GO', family: 'openai' },
  ],
  calibration,
  { costOfFalseGo: 2 }, // a wrong GO costs twice a missed one: GO needs P(GO is right) > 2/3
);
if (decision.status === 'decided') {
  console.log(`${decision.verdict} P(GO right)=${decision.probabilityGo.toFixed(2)}`);
  for (const m of decision.members)
    console.log(`${m.memberId}: reliability ${m.reliability.toFixed(2)} over ${m.evidence}, weight ${m.effectiveWeight.toFixed(2)}`);
}

/**
 * What the calibrated rule is given on a simulated board: the member votes of a decision, and a
 * calibration learned from a simulated track record of labelled decisions (never the true
 * accuracies).
 */
import {
  boardPrior,
  calibrate,
  EMPTY_TRACK_RECORD,
  recordDecision,
  recordOutcome,
  type CalibratedVote,
  type Calibration,
  type TrackRecord,
} from '@conclave/scoring/calibration';
import { simulate, type Decision, type Jury } from './jury.js';

/** Labelled decisions in the track record each board learns from. */
export const TRACK_RECORD = 200;

/** The member votes a decision gives the calibrated rule (a judge that failed casts none). */
export function votesOf(jury: Jury, believesGo: Decision['believesGo']): CalibratedVote[] {
  const votes: CalibratedVote[] = [];
  jury.judges.forEach((judge, i) => {
    const belief = believesGo[i];
    if (belief !== undefined)
      votes.push({ memberId: judge.id, verdict: belief ? 'GO' : 'NO_GO', ...(judge.family === undefined ? {} : { family: judge.family }) });
  });
  return votes;
}

/** The calibration learned from one simulated track record of `TRACK_RECORD` labelled decisions. */
export function learn(jury: Jury, random: () => number): Calibration {
  let record: TrackRecord = EMPTY_TRACK_RECORD;
  for (let d = 0; d < TRACK_RECORD; d += 1) {
    const decision = simulate(jury, random);
    const votes = votesOf(jury, decision.believesGo);
    // A decision every judge failed leaves nothing to learn from.
    if (votes.length > 0) record = recordOutcome(recordDecision(record, `d${d}`, votes), `d${d}`, decision.truthGo ? 'GO' : 'NO_GO');
  }
  return calibrate(record, { prior: boardPrior(record) });
}

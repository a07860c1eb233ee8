import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrate, type Calibration } from './calibrate.js';
import { calibratedVerdict, type CalibratedRuleOptions, type CalibratedVote } from './calibrated-verdict.js';
import { MAX_FAMILY_MEMBERS } from './family-likelihood.js';
import { EMPTY_TRACK_RECORD, recordDecision, recordOutcome, type TrackRecord } from './track-record.js';
import { isDeepFrozen } from './weighing-memo.js';

const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
/** Voters with no record (the prior's reliability); with them ids repeat less often, so more boards meet their quorum. */
const voterOnlyIds = ['h', 'i', 'j', 'k', 'l', 'm'];
const verdict = fc.constantFrom<'GO' | 'PIVOT' | 'NO_GO'>('GO', 'PIVOT', 'NO_GO');
const anyVerdict = fc.oneof({ weight: 9, arbitrary: verdict }, { weight: 1, arbitrary: fc.constant('MAYBE') });
const family = fc.constantFrom('anthropic', 'openai', undefined);
const model = fc.constantFrom('anthropic:claude', 'openai:gpt', 'offline', undefined);
const confidence = fc.oneof(fc.constant(undefined), fc.double({ min: -0.2, max: 1.2, noNaN: true }));

/** A track record of up to 30 labelled decisions by the same ids, some keyed by model. */
const trackRecord: fc.Arbitrary<TrackRecord> = fc
  .array(
    fc.tuple(
      fc.uniqueArray(fc.tuple(fc.constantFrom(...ids), verdict, family, model), { selector: ([id]) => id, minLength: 1 }),
      fc.boolean(),
    ),
    {
      maxLength: 30,
    },
  )
  .map((decisions) =>
    decisions.reduce(
      (record, [members, wentWell], i) =>
        recordOutcome(
          recordDecision(
            record,
            `d${i}`,
            members.map(([memberId, v, f, m]) => ({
              memberId,
              verdict: v,
              ...(f === undefined ? {} : { family: f }),
              ...(m === undefined ? {} : { model: m }),
            })),
          ),
          `d${i}`,
          wentWell ? 'GO' : 'NO_GO',
        ),
      EMPTY_TRACK_RECORD,
    ),
  );

/** Votes as a caller may give them: ids repeated, verdicts and confidences out of range, families given or read from the model. */
const votes = fc.array(
  fc
    .record({ memberId: fc.constantFrom(...ids, ...voterOnlyIds, ''), family, model, confidence })
    .map(({ memberId, family: f, model: m, confidence: c }) => ({
      memberId,
      ...(f === undefined ? {} : { family: f }),
      ...(m === undefined ? {} : { model: m }),
      ...(c === undefined ? {} : { confidence: c }),
    })),
  { minLength: 3, maxLength: 9 },
);

type Field = 'memberId' | 'family' | 'model' | 'confidence';

/** Which vote changes, in which field, to what (undefined removes the field). */
const change = fc.tuple(
  fc.nat(),
  fc.constantFrom<Field>('memberId', 'family', 'model', 'confidence'),
  fc.oneof(fc.constantFrom(...ids, 'anthropic', 'openai:gpt', undefined), confidence),
);

/**
 * Rounds of voting, each on the board or its variant, under the first options or the second:
 * every pair that differs in one thing follows a round the memo kept, so a kept weighing that
 * answered for the wrong one shows.
 */
const SCHEDULE: readonly (readonly [variant: boolean, second: boolean])[] = [
  [false, false],
  [false, false],
  [true, false],
  [false, false],
  [false, true],
  [true, true],
  [false, true],
  [false, false],
];
const rounds = fc.array(fc.array(anyVerdict, { minLength: 9, maxLength: 9 }), { minLength: SCHEDULE.length, maxLength: SCHEDULE.length });

/** `vote` with `field` set to `value`, or left out (a vote without its id is one the rule must not count). */
function withField(vote: Omit<CalibratedVote, 'verdict'>, field: Field, value: unknown): Omit<CalibratedVote, 'verdict'> {
  const { [field]: _dropped, ...rest } = vote;
  return (value === undefined ? rest : { ...rest, [field]: value }) as Omit<CalibratedVote, 'verdict'>;
}

const option = {
  minValidVotes: fc.integer({ min: 1, max: 3 }),
  priorGo: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
  costOfFalseGo: fc.double({ min: 0.1, max: 10, noNaN: true }),
  costOfMissedGo: fc.double({ min: 0.1, max: 10, noNaN: true }),
  falseGoRate: fc.double({ min: 0, max: 1, noNaN: true }),
};

/** Options, and the same options with one of them set, changed or left out. */
const options: fc.Arbitrary<[CalibratedRuleOptions, CalibratedRuleOptions]> = fc
  .tuple(
    fc.record(option, { requiredKeys: [] }),
    fc.oneof(
      ...Object.entries(option).map(([key, value]) => fc.record({ key: fc.constant(key), value: fc.option(value, { nil: undefined }) })),
    ),
  )
  .map(([first, { key, value }]) => {
    const { [key as keyof CalibratedRuleOptions]: _dropped, ...rest } = first;
    return [first, value === undefined ? rest : { ...rest, [key]: value }];
  });

/** A copy of `calibration` frozen through and through, as the engine's default one is. */
function deepFrozenCopy(calibration: Calibration): Calibration {
  return Object.freeze({
    ...calibration,
    prior: Object.freeze({ ...calibration.prior }),
    members: Object.freeze(calibration.members.map((m) => Object.freeze({ ...m }))),
    families: Object.freeze(calibration.families.map((f) => Object.freeze({ ...f }))),
  });
}

/** The decision, or the message of what it threw. */
function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return { threw: (error as Error).constructor.name, message: (error as Error).message };
  }
}

describe('the calibrated rule reusing a weighing', () => {
  it('decides exactly as a fresh weighing does, vote after vote, on the same members and on members that differ in one field', () => {
    fc.assert(
      fc.property(
        trackRecord,
        fc.boolean(),
        votes,
        change,
        rounds,
        options,
        (record, byModel, members, [at, field, value], cast, [first, second]) => {
          const fresh = calibrate(record, { by: byModel ? 'model' : 'member' });
          const frozen = deepFrozenCopy(fresh);
          expect(isDeepFrozen(fresh)).toBe(false);
          expect(isDeepFrozen(frozen)).toBe(true);
          // The same board with one vote changed in one field: a kept weighing of one must never answer for the other.
          const variant = members.map((m, i) => (i === at % Math.max(1, members.length) ? withField(m, field, value) : m));
          for (const [round, [useVariant, useSecond]] of SCHEDULE.entries()) {
            const verdicts = cast[round] as string[];
            const opts = useSecond ? second : first;
            const board = (useVariant ? variant : members).map((m, i) => ({ ...m, verdict: verdicts[i] }) as CalibratedVote);
            expect(outcome(() => calibratedVerdict(board, frozen, opts))).toStrictEqual(
              outcome(() => calibratedVerdict(board, fresh, opts)),
            );
          }
        },
      ),
    );
  });

  it('throws the same refusal again for a family too large to count as one term, and still weighs other boards', () => {
    const calibration = deepFrozenCopy(calibrate(EMPTY_TRACK_RECORD));
    const oneFamily = Array.from({ length: MAX_FAMILY_MEMBERS + 1 }, (_, i): CalibratedVote => ({
      memberId: `m${i}`,
      verdict: 'GO',
      model: 'offline:m',
    }));
    const refusal = `calibratedVerdict: a family is counted as one term for at most ${MAX_FAMILY_MEMBERS} weighted members, got ${MAX_FAMILY_MEMBERS + 1}; split the family`;
    for (let i = 0; i < 2; i += 1) expect(() => calibratedVerdict(oneFamily, calibration)).toThrow(new RangeError(refusal));
    const independent = oneFamily.map((vote) => ({ ...vote, family: vote.memberId }));
    expect(calibratedVerdict(independent, calibration)).toMatchObject({ status: 'decided', verdict: 'GO' });
    expect(() => calibratedVerdict(oneFamily, calibration)).toThrow(new RangeError(refusal));
  });

  it('never reuses a weighing under a calibration that can change: one changed in place is read afresh', () => {
    const record = recordOutcome(
      recordDecision(EMPTY_TRACK_RECORD, 'd0', [
        { memberId: 'a', verdict: 'GO' },
        { memberId: 'b', verdict: 'NO_GO' },
      ]),
      'd0',
      'GO',
    );
    const calibration = calibrate(record);
    const cast: CalibratedVote[] = [
      { memberId: 'a', verdict: 'GO' },
      { memberId: 'b', verdict: 'NO_GO' },
    ];
    const before = calibratedVerdict(cast, calibration, { minValidVotes: 1 });
    (calibration.members as unknown as { key: string; reliability: number }[]).forEach((m) => (m.reliability = m.key === 'a' ? 0.1 : 0.9));
    const after = calibratedVerdict(cast, calibration, { minValidVotes: 1 });
    expect(after).not.toStrictEqual(before);
    expect(after).toStrictEqual(calibratedVerdict(cast, structuredClone(calibration), { minValidVotes: 1 }));
  });
});

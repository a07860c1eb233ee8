/**
 * Turns how a run settled into its record: a rejection or a run that never settled is a finding
 * of its own; a resolved result goes to the engine's oracle, and a result the oracle cannot even
 * read (a getter that throws on the engine's own output) is a broken promise too.
 */
import type { Finding, TrialRecord } from './findings.js';
import type { Settled } from './settle-within.js';

/** The record of a run from how it settled, judged by `judge` when it resolved. */
export function trialRecord<T>(
  base: Omit<TrialRecord, 'findings' | 'ending'>,
  settled: Settled<T>,
  settleMs: number,
  judge: (value: T) => Finding[],
  ending: (value: T) => string,
): TrialRecord {
  if (settled.status === 'rejected')
    return { ...base, findings: [{ kind: 'rejection', message: `run rejected: ${settled.message}` }], ending: 'rejected' };
  if (settled.status === 'unsettled')
    return {
      ...base,
      findings: [{ kind: 'unsettled', message: `run neither resolved nor rejected within ${settleMs} ms` }],
      ending: 'unsettled',
    };
  try {
    return { ...base, findings: judge(settled.value), ending: ending(settled.value) };
  } catch (thrown) {
    return {
      ...base,
      findings: [
        {
          kind: 'fail_open',
          message: `the result could not be read: ${thrown instanceof Error ? thrown.message : 'a non-error was thrown'}`,
        },
      ],
      ending: 'unreadable',
    };
  }
}

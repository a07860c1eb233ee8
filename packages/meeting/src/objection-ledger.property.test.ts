import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_LEDGER, objectionKey, recordObjections, type ObjectionLedger } from './objection-ledger.js';
import type { Objection } from './stance.js';

const objection = fc.record(
  {
    text: fc.constantFrom('Lock-in risk', 'lock-in  RISK', 'Cost overrun', 'Migration time', 'Skills gap'),
    severity: fc.constantFrom('substantive' as const, 'minor' as const),
    against: fc.constantFrom('aws', 'gcp'),
  },
  { requiredKeys: ['text', 'severity'] },
);
const batch = fc.array(fc.record({ memberId: fc.constantFrom('a', 'b', 'c'), objection }), { maxLength: 6 });

describe('objection ledger', () => {
  it('never changes or reuses an id, and keeps one entry per objection', () => {
    fc.assert(
      fc.property(fc.array(batch, { maxLength: 6 }), (batches) => {
        let ledger: ObjectionLedger = EMPTY_LEDGER;
        batches.forEach((raised, round) => {
          const before = ledger.entries;
          ledger = recordObjections(ledger, round, raised).ledger;
          before.forEach((entry, i) => {
            expect(ledger.entries[i]?.id).toBe(entry.id);
            expect(ledger.entries[i]?.text).toBe(entry.text);
          });
        });
        expect(new Set(ledger.entries.map((e) => e.id)).size).toBe(ledger.entries.length);
        expect(new Set(ledger.entries.map(objectionKey)).size).toBe(ledger.entries.length);
        expect(ledger.entries.map((e) => e.id)).toEqual(ledger.entries.map((_, i) => `O${i + 1}`));
      }),
    );
  });

  it('adds nothing new when a round repeats what was already raised', () => {
    fc.assert(
      fc.property(batch, (raised) => {
        const once = recordObjections(EMPTY_LEDGER, 0, raised).ledger;
        const twice = recordObjections(once, 1, raised);
        expect(twice.newSubstantive).toEqual([]);
        expect(twice.newMinor).toEqual([]);
        expect(twice.ledger.entries.map((e) => [e.id, e.severity])).toEqual(once.entries.map((e) => [e.id, e.severity]));
      }),
    );
  });

  it('counts a minor objection escalated to substantive as new substantive, keeping its id', () => {
    const minor: Objection = { text: 'Lock-in risk', severity: 'minor', against: 'aws' };
    const first = recordObjections(EMPTY_LEDGER, 0, [{ memberId: 'a', objection: minor }]);
    expect(first.newMinor.map((e) => e.id)).toEqual(['O1']);
    const second = recordObjections(first.ledger, 1, [{ memberId: 'b', objection: { ...minor, severity: 'substantive' } }]);
    expect(second.newSubstantive.map((e) => [e.id, e.severity])).toEqual([['O1', 'substantive']]);
    expect(second.ledger.entries[0]?.raisedByAll).toEqual(['a', 'b']);
  });
});

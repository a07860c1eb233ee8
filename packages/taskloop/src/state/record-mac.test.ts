import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signRecord, verifyRecord } from './record-mac.js';

const key = randomBytes(32);
const record = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== 'mac'),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 6 },
);

describe('signRecord / verifyRecord', () => {
  it('a signed record verifies after a JSON round trip (pretty or not) and gives back the record without its mac', () => {
    fc.assert(
      fc.property(record, (value) => {
        const signed = signRecord(key, 'evidence', value);
        for (const text of [JSON.stringify(signed), JSON.stringify(signed, null, 2)]) {
          const verified = verifyRecord(key, 'evidence', text);
          expect(verified.ok).toBe(true);
          if (verified.ok) expect(JSON.stringify(verified.record)).toBe(JSON.stringify(JSON.parse(JSON.stringify(value))));
        }
      }),
    );
  });

  it('any change to a field, another key, another kind or no mac at all fails', () => {
    fc.assert(
      fc.property(
        record,
        fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== 'mac'),
        (value, field) => {
          const signed = signRecord(key, 'evidence', value) as Record<string, unknown>;
          const changed = { ...signed, [field]: JSON.stringify(signed[field] ?? null) + 'x' };
          expect(verifyRecord(key, 'evidence', JSON.stringify(changed))).toEqual({ ok: false, why: 'forged' });
          expect(verifyRecord(randomBytes(32), 'evidence', JSON.stringify(signed))).toEqual({ ok: false, why: 'forged' });
          expect(verifyRecord(key, 'run', JSON.stringify(signed))).toEqual({ ok: false, why: 'forged' });
          const { mac: _mac, ...unsigned } = signed;
          expect(verifyRecord(key, 'evidence', JSON.stringify(unsigned))).toEqual({ ok: false, why: 'unsigned' });
        },
      ),
    );
    expect(verifyRecord(key, 'run', '{"runId": ')).toEqual({ ok: false, why: 'not_json' });
    expect(verifyRecord(key, 'run', '[1]')).toEqual({ ok: false, why: 'not_json' });
  });
});

import * as z from 'zod';
import { signRecord } from '../state/record-mac.js';

/**
 * `.conclave/ledger.json`: the orchestrator's own account of what it wrote to plan.md.
 * `current` is a plan text it wrote (kept whole, so a tampered plan can be shown as a diff even
 * after a restart) and its sha256; `pending` is the plan write it was about to make: its sha256
 * and the checkbox offsets it ticks in `current` (so its text is known without storing it twice).
 * The record is written, durably, BEFORE plan.md, so a kill at any point leaves plan.md equal to
 * `current` (the write never happened) or to `pending` (it did): a crash is never mistaken for
 * tampering. After plan.md, the record is written again with the new text as `current` and no
 * `pending`, so outside that short window a builder putting back the previous plan.md is caught.
 * `current` is null only while the very first write is in flight.
 */
export const ledgerRecordSchema = z.strictObject({
  version: z.literal(1),
  current: z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/), text: z.string() }).nullable(),
  /** A flip records only its ticks; a structural write (subtasks appended by a split) records its whole text. */
  pending: z
    .strictObject({
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      ticks: z.array(z.number().int().nonnegative()).optional(),
      text: z.string().optional(),
    })
    .optional(),
});

export type LedgerRecord = z.infer<typeof ledgerRecordSchema>;

/**
 * The record as written: one line of JSON, since nobody is meant to edit it by hand. With the
 * run's key it carries an HMAC (`mac`), so a builder that rewrites plan.md and this record to
 * match is caught when the run resumes (ADR 0025).
 */
export function serializeLedgerRecord(record: LedgerRecord, key?: Buffer): string {
  return `${JSON.stringify(key === undefined ? record : signRecord(key, 'ledger', record))}\n`;
}

/** The text `pending` describes: `current` with a `x` inside each ticked `[ ]`. Undefined when the offsets do not fit. */
export function pendingText(current: string, ticks: readonly number[]): string | undefined {
  let text = current;
  for (const offset of ticks) {
    if (text[offset] !== '[' || text[offset + 1] !== ' ' || text[offset + 2] !== ']') return undefined;
    text = `${text.slice(0, offset + 1)}x${text.slice(offset + 2)}`;
  }
  return text;
}

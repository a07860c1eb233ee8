import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { CONCLAVE_DIR } from './ledger-paths.js';
import { sha256 } from './sha256.js';
import { describeUnverified, signRecord, verifyRecord } from '../state/record-mac.js';

const sha = z.string().regex(/^[0-9a-f]{64}$/);
const offsets = z.array(z.number().int().nonnegative());

/**
 * `.conclave/ledger.json`: the orchestrator's own account of what it wrote to plan.md.
 *
 * `current` names the plan text it wrote last without holding it: a base plan (`base`, the sha256
 * of a file `.conclave/ledger-base-<sha>.md` written whole when the run starts and on every split)
 * with the checkboxes ticked since (`ticks`, offsets into it), and the resulting text's sha256. A
 * flip so rewrites a record of a few bytes per tick, not a copy of the plan (ADR 0047): a
 * 5,000-task plan used to be written three times per flip. `pending` is the plan write the
 * orchestrator was about to make: its sha256 and the offsets it ticks in `current`, or, for a
 * split, no ticks: the new text is the base file named by its own sha256, written first.
 *
 * The record is written, durably, BEFORE plan.md, so a kill at any point leaves plan.md equal to
 * `current` (the write never happened) or to `pending` (it did): a crash is never mistaken for
 * tampering. After plan.md, the record is written again with the new text as `current` and no
 * `pending`, so outside that short window a builder putting back the previous plan.md is caught.
 * `current` is null only while the very first write is in flight.
 */
const ledgerRecordSchema = z.strictObject({
  version: z.literal(2),
  current: z.strictObject({ sha256: sha, base: sha, ticks: offsets }).nullable(),
  pending: z.strictObject({ sha256: sha, ticks: offsets.optional() }).optional(),
});

export type LedgerRecord = z.infer<typeof ledgerRecordSchema>;

/** How a record names a plan text: a base plan and the boxes ticked in it. */
export type PlanRef = NonNullable<LedgerRecord['current']>;

/**
 * The record as the first releases wrote it, with `current`'s whole text inline. Still read, so a
 * run started by one of them resumes; `openLedger` rewrites it in the current form.
 */
const legacyLedgerRecordSchema = z.strictObject({
  version: z.literal(1),
  current: z.strictObject({ sha256: sha, text: z.string() }).nullable(),
  pending: z.strictObject({ sha256: sha, ticks: offsets.optional(), text: z.string().optional() }).optional(),
});

export type LegacyLedgerRecord = z.infer<typeof legacyLedgerRecordSchema>;

/**
 * The record as written: one line of JSON, since nobody is meant to edit it by hand. With the
 * run's key it carries an HMAC (`mac`), so a builder that rewrites plan.md and this record to
 * match is caught when the run resumes (ADR 0025).
 */
export function serializeLedgerRecord(record: LedgerRecord | LegacyLedgerRecord, key?: Buffer): string {
  return `${JSON.stringify(key === undefined ? record : signRecord(key, 'ledger', record))}\n`;
}

/** The file that holds the base plan `baseSha256` names, relative to the workspace. */
export function ledgerBaseFile(baseSha256: string): string {
  return join(CONCLAVE_DIR, `ledger-base-${baseSha256}.md`);
}

/**
 * `current` with an `x` inside each ticked `[ ]`, in one pass over the text whatever the number
 * of ticks (a resumed run applies thousands). Undefined when an offset does not hold `[ ]`, or
 * holds one that is ticked twice.
 */
export function pendingText(current: string, ticks: readonly number[]): string | undefined {
  const sorted = [...ticks].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const offset of sorted) {
    if (offset < from || current[offset] !== '[' || current[offset + 1] !== ' ' || current[offset + 2] !== ']') return undefined;
    parts.push(current.slice(from, offset + 1), 'x');
    from = offset + 2;
  }
  parts.push(current.slice(from));
  return parts.join('');
}

/** A plan text the record vouches for, and how a current-form record names it (absent: only a legacy record holds it). */
export interface RecordedPlan {
  readonly sha256: string;
  readonly text: string;
  readonly ref: PlanRef | undefined;
}

/** The write `pending` describes: its text is known unless it is the run's very first write (then plan.md shows whether it landed). */
export interface PendingPlan {
  readonly sha256: string;
  readonly ref: PlanRef | undefined;
}

/** A record read back: what it says was written last, what was about to be, and the text the orchestrator meant last (`pending` applied to `current`). */
export type ReadLedgerRecord =
  | {
      readonly ok: true;
      readonly current: RecordedPlan | null;
      readonly pending: PendingPlan | undefined;
      readonly intended: RecordedPlan | undefined;
    }
  | { readonly ok: false; readonly kind: 'ledger_corrupt' | 'ledger_unauthenticated'; readonly message: string; readonly fix: string };

/** The fix for a ledger.json that is not the orchestrator's: its own last record is in the run's last commit. */
const UNAUTHENTICATED_FIX = `put back the orchestrator's last signed records and plan (git checkout HEAD -- ${CONCLAVE_DIR}/), or remove ${CONCLAVE_DIR}/ and start the run again`;

/**
 * Reads ledger.json's text: checks its signature when there is a key (before anything else is
 * read from it: a record the builder wrote decides nothing), its shape, and every hash, reading
 * the base plans it names from `workspace`. A record whose texts do not match their hashes is
 * `ledger_corrupt`.
 */
export function readLedgerRecord(workspace: string, text: string, key: Buffer | undefined): ReadLedgerRecord {
  const corrupt = (why: string) => ({
    ok: false as const,
    kind: 'ledger_corrupt' as const,
    message: `${join(CONCLAVE_DIR, 'ledger.json')} ${why}`,
    fix: `the orchestrator's record cannot be trusted: remove ${CONCLAVE_DIR}/ and start the run again`,
  });
  let data: unknown;
  if (key !== undefined) {
    const verified = verifyRecord(key, 'ledger', text);
    if (!verified.ok)
      return {
        ok: false,
        kind: 'ledger_unauthenticated',
        message: `${join(CONCLAVE_DIR, 'ledger.json')} ${describeUnverified(verified.why)}: it was not written by the orchestrator`,
        fix: UNAUTHENTICATED_FIX,
      };
    data = verified.record;
  } else {
    try {
      data = JSON.parse(text);
    } catch {
      return corrupt('is not valid JSON');
    }
  }
  const legacy = legacyLedgerRecordSchema.safeParse(data);
  if (legacy.success) return readLegacy(legacy.data, corrupt);
  const parsed = ledgerRecordSchema.safeParse(data);
  if (!parsed.success) return corrupt(`is not a ledger record (${parsed.error.issues[0]?.message ?? 'unexpected shape'})`);
  const { current, pending } = parsed.data;
  const baseText = (baseSha: string): string | undefined => {
    const base = readText(join(workspace, ledgerBaseFile(baseSha)));
    return base !== undefined && sha256(base) === baseSha ? base : undefined;
  };
  if (current === null) {
    if (pending?.ticks !== undefined) return corrupt('records ticks in a plan it never wrote');
    return { ok: true, current: null, pending: pending && { sha256: pending.sha256, ref: ownBase(pending.sha256) }, intended: undefined };
  }
  const base = baseText(current.base);
  if (base === undefined) return corrupt(`names a base plan (${ledgerBaseFile(current.base)}) that is missing or changed`);
  const currentText = pendingText(base, current.ticks);
  if (currentText === undefined || sha256(currentText) !== current.sha256) return corrupt('does not match its own hash');
  const recorded: RecordedPlan = { sha256: current.sha256, text: currentText, ref: current };
  if (pending === undefined) return { ok: true, current: recorded, pending: undefined, intended: recorded };
  const ref: PlanRef =
    pending.ticks === undefined
      ? ownBase(pending.sha256)
      : { sha256: pending.sha256, base: current.base, ticks: [...current.ticks, ...pending.ticks] };
  const next = pending.ticks === undefined ? baseText(pending.sha256) : pendingText(currentText, pending.ticks);
  if (next === undefined || sha256(next) !== pending.sha256) return corrupt('records a pending write that does not match its own hash');
  return { ok: true, current: recorded, pending: { sha256: pending.sha256, ref }, intended: { sha256: pending.sha256, text: next, ref } };
}

/** The reference to a text that is its own base plan. */
export function ownBase(textSha256: string): PlanRef {
  return { sha256: textSha256, base: textSha256, ticks: [] };
}

function readLegacy(record: LegacyLedgerRecord, corrupt: (why: string) => ReadLedgerRecord): ReadLedgerRecord {
  const { current, pending } = record;
  const pendingPlan = pending && { sha256: pending.sha256, ref: undefined };
  if (current === null) return { ok: true, current: null, pending: pendingPlan, intended: undefined };
  if (sha256(current.text) !== current.sha256) return corrupt('does not match its own hash');
  const recorded: RecordedPlan = { sha256: current.sha256, text: current.text, ref: undefined };
  if (pending === undefined) return { ok: true, current: recorded, pending: undefined, intended: recorded };
  const next = pending.text ?? pendingText(current.text, pending.ticks ?? []);
  if (next === undefined || sha256(next) !== pending.sha256) return corrupt('records a pending write that does not match its own hash');
  return { ok: true, current: recorded, pending: pendingPlan, intended: { sha256: pending.sha256, text: next, ref: undefined } };
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

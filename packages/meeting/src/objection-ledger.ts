import type { Objection, ObjectionSeverity } from './stance.js';

/** One objection on the ledger; `id` never changes once assigned. */
export interface LedgerEntry {
  readonly id: string;
  readonly text: string;
  readonly severity: ObjectionSeverity;
  readonly against?: string;
  /** Member id of whoever raised it first. */
  readonly raisedBy: string;
  /** Round it was first raised in (0 is the prep round). */
  readonly round: number;
  /** Every member id that has raised it. */
  readonly raisedByAll: readonly string[];
}

/** The objections raised so far, in order of first appearance. */
export interface ObjectionLedger {
  readonly entries: readonly LedgerEntry[];
}

/** What one batch of objections did to the ledger. */
export interface LedgerUpdate {
  readonly ledger: ObjectionLedger;
  /** Entries that are new, or minor ones escalated to substantive, in this batch. */
  readonly newSubstantive: readonly LedgerEntry[];
  readonly newMinor: readonly LedgerEntry[];
}

/** An empty ledger. */
export const EMPTY_LEDGER: ObjectionLedger = Object.freeze({ entries: Object.freeze([]) });

/** The identity of an objection: its target and its text with case and spacing normalised. */
export function objectionKey(objection: Pick<Objection, 'text' | 'against'>): string {
  return `${objection.against ?? ''}\u0000${objection.text.trim().toLowerCase().replace(/\s+/g, ' ')}`;
}

/**
 * Records objections raised by members in a round. A repeat of a known objection adds nothing
 * (it only records who else raised it), so restating a point never blocks convergence; a minor
 * objection raised again as substantive is escalated and counts as a new substantive objection,
 * because the room now has a blocker it did not have. Ids are `O1`, `O2`, ... in order of first
 * appearance and never change.
 */
export function recordObjections(
  ledger: ObjectionLedger,
  round: number,
  raised: readonly { readonly memberId: string; readonly objection: Objection }[],
): LedgerUpdate {
  const entries = [...ledger.entries];
  const index = new Map(entries.map((entry, i) => [objectionKey(entry), i]));
  const newSubstantive = new Map<string, number>();
  const newMinor = new Map<string, number>();
  for (const { memberId, objection } of raised) {
    const key = objectionKey(objection);
    const at = index.get(key);
    if (at === undefined) {
      const entry: LedgerEntry = {
        id: `O${entries.length + 1}`,
        text: objection.text.trim(),
        severity: objection.severity,
        ...(objection.against === undefined ? {} : { against: objection.against }),
        raisedBy: memberId,
        round,
        raisedByAll: [memberId],
      };
      index.set(key, entries.length);
      (objection.severity === 'substantive' ? newSubstantive : newMinor).set(entry.id, entries.length);
      entries.push(entry);
      continue;
    }
    const existing = entries[at] as LedgerEntry;
    const escalated = existing.severity === 'minor' && objection.severity === 'substantive';
    entries[at] = {
      ...existing,
      severity: escalated ? 'substantive' : existing.severity,
      raisedByAll: existing.raisedByAll.includes(memberId) ? existing.raisedByAll : [...existing.raisedByAll, memberId],
    };
    if (escalated) {
      newMinor.delete(existing.id);
      newSubstantive.set(existing.id, at);
    }
  }
  const pick = (ids: Map<string, number>) => [...ids.values()].map((i) => entries[i] as LedgerEntry);
  return { ledger: { entries }, newSubstantive: pick(newSubstantive), newMinor: pick(newMinor) };
}

/** Substantive objections against one option: the tensions the facilitator puts on the table. */
export function substantiveAgainst(ledger: ObjectionLedger, optionId: string): readonly LedgerEntry[] {
  return ledger.entries.filter((entry) => entry.severity === 'substantive' && entry.against === optionId);
}

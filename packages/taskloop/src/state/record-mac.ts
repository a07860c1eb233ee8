import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The kinds of record the orchestrator signs. The kind is part of the signed text, so a signed
 * record of one kind (an evidence bundle) can never pass for another (a run record).
 */
export type RecordKind = 'run' | 'ledger' | 'evidence' | 'split' | `cli/${string}`;

/** The field a signed record carries its HMAC in. */
export const MAC_FIELD = 'mac';

function macOf(key: Buffer, kind: RecordKind, body: unknown): string {
  return createHmac('sha256', key).update(`conclave/${kind}/v1\n`).update(JSON.stringify(body)).digest('hex');
}

/**
 * `record` with an HMAC-SHA256 over its JSON text (`mac`, last). JSON is used as the canonical
 * form because a parse and a stringify give back the same text (key order, numbers), so the
 * verifier recomputes it from the parsed file without keeping the bytes.
 */
export function signRecord<T extends object>(key: Buffer, kind: RecordKind, record: T): T & { readonly mac: string } {
  return { ...record, [MAC_FIELD]: macOf(key, kind, record) };
}

/** What `verifyRecord` found: the record without its `mac`, or why it is not the orchestrator's. */
export type VerifiedRecord =
  | { readonly ok: true; readonly record: Record<string, unknown> }
  | { readonly ok: false; readonly why: 'not_json' | 'unsigned' | 'forged' };

/** Parses a signed record's text and checks its HMAC; a missing, malformed or wrong signature is not the orchestrator's record. */
export function verifyRecord(key: Buffer, kind: RecordKind, text: string): VerifiedRecord {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, why: 'not_json' };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, why: 'not_json' };
  const { [MAC_FIELD]: mac, ...body } = data as Record<string, unknown>;
  if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return { ok: false, why: 'unsigned' };
  const expected = Buffer.from(macOf(key, kind, body), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(mac, 'hex'))) return { ok: false, why: 'forged' };
  return { ok: true, record: body };
}

/** One phrase for a failed verification, for messages. */
export function describeUnverified(why: 'not_json' | 'unsigned' | 'forged'): string {
  return why === 'not_json'
    ? 'is not a JSON record'
    : why === 'unsigned'
      ? 'carries no signature of this run'
      : 'carries a signature that does not match its content';
}

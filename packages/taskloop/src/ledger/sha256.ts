import { createHash } from 'node:crypto';

/** The hex sha256 of text (as UTF-8) or bytes: how the spec snapshot and the plan ledger name content. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

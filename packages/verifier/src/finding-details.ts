import type { JsonValue } from './claim.js';
import { thrownMessage } from './thrown-message.js';

/** Longest JSON text a custom oracle's `details` may take. */
export const MAX_DETAILS_JSON_LENGTH = 65_536;

/**
 * A custom oracle's `details` copied as JSON data, or why they cannot be: an oracle is foreign
 * code, and what it returns ends up in the report every lens and caller reads (and serialises).
 * The verifier may not import `@conclave/core` (it is read-only by architecture), so instead of
 * core's `toPlainData` walk it uses the platform's JSON round trip, which is exactly the contract
 * (`details` is a `JsonValue`): getters run once, a throw, a cycle or a bigint is a refusal, and the
 * text is bounded. Never throws.
 */
export function copyDetails(
  details: unknown,
): { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly reason: string } {
  let text: string | undefined;
  try {
    text = JSON.stringify(details);
  } catch (thrown) {
    return { ok: false, reason: `its details are not JSON data: ${thrownMessage(thrown)}` };
  }
  if (text === undefined) return { ok: false, reason: 'its details are not JSON data' };
  if (text.length > MAX_DETAILS_JSON_LENGTH)
    return { ok: false, reason: `its details take ${text.length} characters of JSON, more than ${MAX_DETAILS_JSON_LENGTH}` };
  return { ok: true, value: JSON.parse(text) as JsonValue };
}

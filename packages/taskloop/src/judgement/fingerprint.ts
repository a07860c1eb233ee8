import { createHash } from 'node:crypto';
import type { AlignmentState, BigPictureState, BuildState } from './verifier-schemas.js';

/** What a failure fingerprint is made of: the verifiers' states and the failed gates' reasons. */
export interface FingerprintInput {
  readonly build?: BuildState;
  readonly alignment?: AlignmentState;
  readonly bigPicture?: BigPictureState;
  /** The one-line reasons of the gates that failed, e.g. "exit code 1". */
  readonly gateReasons?: readonly string[];
}

export interface FingerprintOptions {
  /** How many normalised messages (after sorting) the hash covers (default 5). */
  readonly topN?: number;
}

export interface FailureFingerprint {
  /** Hex sha256 of the messages; undefined when there is no message to fingerprint. */
  readonly fingerprint: string | undefined;
  /** The normalised messages hashed, sorted, each prefixed by where it came from. */
  readonly messages: readonly string[];
}

export const DEFAULT_FINGERPRINT_TOP_N = 5;

/**
 * Normalises a message so the same failure reads the same on every attempt: lowercase, positions
 * after a path dropped (`src/a.ts:12:5` and `src/a.ts(12,5)` become `src/a.ts`), hex ids and
 * numbers standing alone replaced by `#` (codes glued to letters, like `ts2322`, are kept), and
 * whitespace collapsed.
 */
export function normaliseMessage(message: string): string {
  return (
    message
      .toLowerCase()
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;]*m/g, '')
      // A path's position: file.ext:12, file.ext:12:5, file.ext(12,5), file.ext:line 12.
      .replace(/(\.[a-z0-9]+)(?::\d+(?::\d+)?|\(\d+(?:,\d+)?\)|:line \d+)/g, '$1')
      .replace(/\b0x[0-9a-f]+\b/g, '#')
      .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/g, '#')
      .replace(/(?<![a-z0-9_])\d+(?:\.\d+)*/g, '#')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * A stable fingerprint of a failing state: the sha256 of its top messages (build errors, unmet
 * acceptance criteria, big-picture risks, failed gate reasons), normalised, de-duplicated and
 * sorted, so neither the order the messages came in nor line numbers or ids that move between
 * attempts change it. The top N are the first N after sorting.
 */
export function failureFingerprint(input: FingerprintInput, options: FingerprintOptions = {}): FailureFingerprint {
  const topN = options.topN ?? DEFAULT_FINGERPRINT_TOP_N;
  const raw = [
    ...(input.build?.errors ?? []).map((m) => `build: ${m}`),
    ...(input.alignment?.coverage ?? []).filter((c) => !c.met).map((c) => `unmet: ${c.criterion}`),
    ...(input.bigPicture?.risks ?? []).map((m) => `risk: ${m}`),
    ...(input.gateReasons ?? []).map((m) => `gate: ${m}`),
  ];
  const messages = [...new Set(raw.map(normaliseMessage))]
    .filter((m) => !/^[a-z]+: ?$/.test(m))
    .sort()
    .slice(0, Math.max(0, topN));
  if (messages.length === 0) return { fingerprint: undefined, messages };
  return { fingerprint: createHash('sha256').update(JSON.stringify(messages)).digest('hex'), messages };
}

/**
 * Counts consecutive repeats of the same failure fingerprint. Immutable: `observe` returns a new
 * tracker and leaves this one as it was, so a tracker can live in pure loop state.
 */
export class FingerprintTracker {
  /** The last fingerprint observed; undefined after a passing (or message-less) attempt. */
  readonly last: string | undefined;
  /** How many attempts in a row had `last`: 1 the first time it is seen, 0 when `last` is undefined. */
  readonly repeats: number;
  /** Every fingerprint observed, in order (undefined for an attempt without one). */
  readonly history: readonly (string | undefined)[];

  constructor(last?: string, repeats = 0, history: readonly (string | undefined)[] = []) {
    this.last = last;
    this.repeats = last === undefined ? 0 : repeats;
    this.history = Object.freeze([...history]);
    Object.freeze(this);
  }

  /** The tracker after one more attempt's fingerprint; undefined (nothing failing) resets the count. */
  observe(fingerprint: string | undefined): FingerprintTracker {
    const repeats = fingerprint === undefined ? 0 : fingerprint === this.last ? this.repeats + 1 : 1;
    return new FingerprintTracker(fingerprint, repeats, [...this.history, fingerprint]);
  }
}

import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after.js';

const NOW = () => Date.parse('2026-11-22T12:00:00Z');

describe('retryAfterMs', () => {
  it('reads seconds, fractional seconds and milliseconds', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), NOW)).toBe(3_000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }), NOW)).toBe(500);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '120', 'retry-after': '3' }), NOW)).toBe(120);
  });

  it('reads an HTTP date relative to now, never below zero', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 12:00:30 GMT' }), NOW)).toBe(30_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 11:59:00 GMT' }), NOW)).toBe(0);
  });

  it('ignores absent and unreadable values', () => {
    expect(retryAfterMs(undefined, NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers(), NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '-5', 'retry-after': '2' }), NOW)).toBe(2_000);
  });

  it('returns a non-negative finite number or undefined for any header text', () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), fc.option(fc.string(), { nil: undefined }), (seconds, ms) => {
        const headers = new Headers();
        try {
          if (seconds !== undefined) headers.set('retry-after', seconds);
          if (ms !== undefined) headers.set('retry-after-ms', ms);
        } catch {
          return; // not a valid header value at all
        }
        const value = retryAfterMs(headers, NOW);
        if (value !== undefined) {
          expect(Number.isFinite(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});

describe('retryAfterMs: limits and odd values', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);
  const now = () => Date.parse('2026-01-01T00:00:00Z');

  it('prefers retry-after-ms, then reads retry-after as seconds or an HTTP date', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '250.5', 'retry-after': '9' }))).toBe(250.5);
    expect(retryAfterMs(headers({ 'retry-after': '2' }))).toBe(2_000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3_000);
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(0);
  });

  it('ignores what it cannot read, and waits longer than a day', () => {
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '-3' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after-ms': 'NaN', 'retry-after': '1' }))).toBe(1_000);
    expect(retryAfterMs(headers({ 'retry-after': '1000000' }))).toBeUndefined();
  });
});

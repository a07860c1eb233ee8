import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryAfterFromHeaders } from './errors.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('retryAfterFromHeaders', () => {
  it('reads seconds, fractional seconds and milliseconds', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '3' }), NOW)).toBe(3_000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '0.5' }), NOW)).toBe(500);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '120', 'retry-after': '3' }), NOW)).toBe(120);
  });

  it('reads an HTTP date relative to now, never below zero', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 12:00:30 GMT' }), NOW)).toBe(30_000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 11:59:00 GMT' }), NOW)).toBe(0);
  });

  it('ignores absent and unreadable values', () => {
    expect(retryAfterFromHeaders(undefined, NOW)).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers(), NOW)).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'soon' }), NOW)).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '-5', 'retry-after': '2' }), NOW)).toBe(2_000);
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
        const value = retryAfterFromHeaders(headers, NOW);
        if (value !== undefined) {
          expect(Number.isFinite(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});

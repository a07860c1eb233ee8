import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureFingerprint, FingerprintTracker, normaliseMessage, type FingerprintInput } from './fingerprint.js';
import type { BuildState } from './verifier-schemas.js';

const build = (errors: readonly string[]): BuildState => ({
  attempted: true,
  exitCode: 1,
  errors: [...errors],
  warnings: [],
  durationMs: 1,
  commands: ['tsc'],
  logSample: '',
  inferred: false,
});
const fp = (input: FingerprintInput) => failureFingerprint(input).fingerprint;

describe('normaliseMessage', () => {
  it.each([
    ['src/a.ts:12:5 error TS2322', 'src/a.ts:14:5 error TS2322'],
    ['src/a.ts(12,5): error TS2322', 'src/a.ts(99,1): error TS2322'],
    ['ERROR  in   src/a.ts', 'error in src/a.ts'],
    ['expected 3 arguments, but got 2', 'Expected 4 arguments, but got 1'],
    ['object at 0x7ffe1234 freed twice', 'object at 0xdeadbeef freed twice'],
    ['commit 3f2a9c1d8e is missing', 'commit 0a1b2c3d4e5f is missing'],
    ['took 1.5s, 120ms', 'took 3.25s, 7ms'],
  ])('%j ≡ %j', (a, b) => {
    expect(normaliseMessage(a)).toBe(normaliseMessage(b));
  });

  it.each([
    ['src/a.ts:12:5 error TS2322', 'src/b.ts:12:5 error TS2322'],
    ['error TS2322', 'error TS2345'],
    ['missing import', 'missing export'],
  ])('%j ≢ %j', (a, b) => {
    expect(normaliseMessage(a)).not.toBe(normaliseMessage(b));
  });
});

describe('failureFingerprint', () => {
  it('is the same for the same failure at moved positions, in any order', () => {
    const a = fp({ build: build(['src/a.ts:12:5 error TS2322', 'src/c.ts:1:1 error TS1005']), gateReasons: ['exit code 1'] });
    const b = fp({ build: build(['src/c.ts:3:9 error TS1005', 'src/a.ts:14:5 error TS2322']), gateReasons: ['exit code 2'] });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toBe(b);
  });

  it('differs for different failures, and by where a message came from', () => {
    expect(fp({ build: build(['error TS2322']) })).not.toBe(fp({ build: build(['error TS2345']) }));
    expect(fp({ build: build(['data loss']) })).not.toBe(
      fp({ bigPicture: { score: 0.2, supportsParent: null, supportsNext: [], risks: ['data loss'] } }),
    );
  });

  it('covers unmet criteria, risks and gate reasons, not met criteria', () => {
    const result = failureFingerprint({
      alignment: {
        score: 0.5,
        coverage: [
          { criterion: 'Adds --flag', met: false, why: '' },
          { criterion: 'Docs', met: true, why: '' },
        ],
        constraintIssues: [],
      },
      bigPicture: { score: 0.5, supportsParent: false, supportsNext: [], risks: ['Breaks the hook'] },
      gateReasons: ['missing: src/a.ts'],
    });
    expect(result.messages).toEqual(['gate: missing: src/a.ts', 'risk: breaks the hook', 'unmet: adds --flag']);
  });

  it('takes the top N after sorting and de-duplicating', () => {
    const errors = ['e', 'd', 'c', 'b', 'a', 'a', 'f'].map((x) => `error ${x}`);
    expect(failureFingerprint({ build: build(errors) }).messages).toEqual([
      'build: error a',
      'build: error b',
      'build: error c',
      'build: error d',
      'build: error e',
    ]);
    expect(failureFingerprint({ build: build(errors) }, { topN: 2 }).messages).toHaveLength(2);
  });

  it('is undefined when there is nothing to fingerprint', () => {
    expect(failureFingerprint({})).toEqual({ fingerprint: undefined, messages: [] });
    expect(failureFingerprint({ build: build(['   ']) }).fingerprint).toBeUndefined();
  });

  it('property: any permutation of the messages gives the same fingerprint', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.string(), { maxLength: 12 })
          .chain((errors) =>
            fc.tuple(fc.constant(errors), fc.shuffledSubarray(errors, { minLength: errors.length, maxLength: errors.length })),
          ),
        fc.array(fc.string(), { maxLength: 5 }),
        ([errors, shuffled], gates) => {
          expect(fp({ build: build(shuffled), gateReasons: [...gates].reverse() })).toBe(fp({ build: build(errors), gateReasons: gates }));
        },
      ),
    );
  });
});

describe('FingerprintTracker', () => {
  it('counts consecutive repeats and resets on a change or a pass', () => {
    const empty = new FingerprintTracker();
    const one = empty.observe('a');
    const two = one.observe('a');
    const three = two.observe('a');
    expect([empty.repeats, one.repeats, two.repeats, three.repeats]).toEqual([0, 1, 2, 3]);
    expect(three.observe('b').repeats).toBe(1);
    expect(three.observe(undefined)).toMatchObject({ last: undefined, repeats: 0 });
    expect(three.observe(undefined).observe('a').repeats).toBe(1);
    expect(three.history).toEqual(['a', 'a', 'a']);
  });

  it('is immutable: observing leaves the old tracker as it was', () => {
    const one = new FingerprintTracker().observe('a');
    one.observe('a');
    expect(one.repeats).toBe(1);
    expect(one.history).toEqual(['a']);
    expect(Object.isFrozen(one)).toBe(true);
    expect(Object.isFrozen(one.history)).toBe(true);
  });
});

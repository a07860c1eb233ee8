import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logOddsUnits } from './calibrated-verdict.js';
import { bandUnits, familyBands, familyLevel, MAX_FAMILY_MEMBERS, type WeighedVoter } from './family-likelihood.js';

/** Two to eight members better than chance, each with the weight its reliability earns. */
const family = fc
  .array(fc.double({ min: 0.51, max: 0.99, noNaN: true }), { minLength: 2, maxLength: 8 })
  .map((reliabilities) =>
    reliabilities.map((reliability): WeighedVoter => ({ reliability, units: logOddsUnits(Math.log(reliability / (1 - reliability))) })),
  );
const rho = fc.double({ min: 0, max: 0.99, noNaN: true });

describe('a family counted as one likelihood-ratio term', () => {
  it('never falls as a vote turns to GO: bands cover every level in order, and their terms rise', () => {
    fc.assert(
      fc.property(family, rho, fc.nat(), fc.nat(), (members, r, pattern, pick) => {
        const bands = familyBands(members, r);
        for (let i = 1; i < bands.length; i += 1) {
          expect((bands[i] as { from: number }).from).toBeGreaterThan((bands[i - 1] as { to: number }).to);
          expect((bands[i] as { units: number }).units).toBeGreaterThan((bands[i - 1] as { units: number }).units);
        }
        const indexes = [...members.keys()];
        const saysGo = (i: number) => ((pattern >> i) & 1) === 1;
        const j = pick % members.length;
        const before = bandUnits(bands, familyLevel(members, indexes, saysGo));
        const after = bandUnits(
          bands,
          familyLevel(members, indexes, (i) => i === j || saysGo(i)),
        );
        expect(after).toBeGreaterThanOrEqual(before);
      }),
    );
  });

  it('is the members’ own log odds summed when they err independently (ρ = 0)', () => {
    fc.assert(
      fc.property(family, fc.nat(), (members, pattern) => {
        const indexes = [...members.keys()];
        const level = familyLevel(members, indexes, (i) => ((pattern >> i) & 1) === 1);
        // Each level is its own band; the term is its level up to rounding (a unit per member).
        expect(Math.abs(bandUnits(familyBands(members, 0), level) - level)).toBeLessThanOrEqual(members.length + 1);
      }),
    );
  });

  it('says less for a unanimous family the more its members copy one another', () => {
    const members: WeighedVoter[] = [0.8, 0.8, 0.8, 0.8].map((reliability) => ({ reliability, units: logOddsUnits(Math.log(4)) }));
    const unanimous = familyLevel(members, [0, 1, 2, 3], () => true);
    const terms = [0, 0.3, 0.6, 0.9].map((r) => bandUnits(familyBands(members, r), unanimous));
    expect(terms[0]).toBe(unanimous);
    for (let i = 1; i < terms.length; i += 1) expect(terms[i]).toBeLessThan(terms[i - 1] as number);
    // Never less than one member's say: the family is at least as good as any one of them.
    expect(terms[3]).toBeGreaterThan(logOddsUnits(Math.log(4)) - 1);
  });

  it(`refuses a family of more than ${MAX_FAMILY_MEMBERS} weighted members`, () => {
    const many = Array.from({ length: MAX_FAMILY_MEMBERS + 1 }, () => ({ reliability: 0.7, units: 847_297_860 }));
    expect(() => familyBands(many, 0.5)).toThrow(/at most 16 weighted members/);
  });
});

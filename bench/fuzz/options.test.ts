import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, parseArgs } from './options.js';

describe('the fault campaign command line', () => {
  it('has fixed defaults: the seed, 100,000 runs, 150 s', () => {
    const parsed = parseArgs([]);
    expect(parsed.ok && parsed.options).toMatchObject({ seed: DEFAULT_SEED, runs: 100_000, seconds: 150, offset: 0 });
  });

  it('reads a replay command, with spaces or =', () => {
    const parsed = parseArgs(['--seed', '42', '--offset=1234', '--runs', '1', '--families', 'fault']);
    expect(parsed.ok && parsed.options).toMatchObject({ seed: 42, offset: 1234, runs: 1, families: ['fault', 'honest'] });
  });

  it('refuses what it cannot read, with the usage', () => {
    for (const argv of [['--runs', '0'], ['--seed', 'x'], ['--bogus', '1'], ['--families', 'evil'], ['--seconds']]) {
      const parsed = parseArgs(argv);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toContain('usage: npm run fuzz');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, parseArgs } from './options.js';

describe('the kill campaign command line', () => {
  it('has bounded, seeded defaults and reads a replay', () => {
    expect(parseArgs([])).toEqual({ ok: true, options: { seed: DEFAULT_SEED, trials: 20, seconds: 120, offset: 0, maxKills: 3 } });
    expect(parseArgs(['--seed', '5', '--offset', '7', '--trials', '1'])).toMatchObject({
      ok: true,
      options: { seed: 5, offset: 7, trials: 1 },
    });
  });

  it('takes --json alone (stdout) or with a file', () => {
    expect(parseArgs(['--json'])).toMatchObject({ ok: true, json: true });
    expect(parseArgs(['--json', '--trials', '2'])).toMatchObject({ ok: true, json: true, options: { trials: 2 } });
    expect(parseArgs(['--json', 'out.json'])).toMatchObject({ ok: true, json: 'out.json' });
  });

  it('refuses what it cannot read', () => {
    for (const argv of [['--trials', '0'], ['--kills', '1.5'], ['--seconds', 'x'], ['--colour', 'red'], ['seed']])
      expect(parseArgs(argv).ok).toBe(false);
  });
});

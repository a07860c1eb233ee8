import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { releaseChangelog } from './release-changelog.js';

const HEAD = '# Changelog\n\nAll notable changes.\n\n';

describe('releaseChangelog', () => {
  it('moves the Unreleased entries under the version and date, and keeps an empty Unreleased on top', () => {
    const before = `${HEAD}## Unreleased\n\n### Added\n- a thing\n\n### Fixed\n- a bug\n\n## [0.1.0] - 2026-11-01\n\n### Added\n- the start\n`;
    expect(releaseChangelog(before, '0.2.0', '2026-12-01')).toBe(
      `${HEAD}## Unreleased\n\n## [0.2.0] - 2026-12-01\n\n### Added\n- a thing\n\n### Fixed\n- a bug\n\n## [0.1.0] - 2026-11-01\n\n### Added\n- the start\n`,
    );
  });

  it('refuses what cannot be released, naming the fix', () => {
    const ok = `${HEAD}## Unreleased\n\n- x\n`;
    expect(() => releaseChangelog(`${HEAD}## Unreleased\n\n\n`, '0.2.0', '2026-12-01')).toThrow('nothing to release');
    expect(() => releaseChangelog(`${HEAD}- x\n`, '0.2.0', '2026-12-01')).toThrow('exactly one "## Unreleased"');
    expect(() => releaseChangelog(`${ok}\n## Unreleased\n`, '0.2.0', '2026-12-01')).toThrow('it has 2');
    expect(() => releaseChangelog(`${ok}\n## [0.2.0] - 2026-11-30\n`, '0.2.0', '2026-12-01')).toThrow('already in CHANGELOG.md');
    expect(() => releaseChangelog(ok, 'v0.2', '2026-12-01')).toThrow('is not a version');
    expect(() => releaseChangelog(ok, '0.2.0', '1 Dec')).toThrow('is not a date');
  });

  it('keeps every line of the file, and a second release of the same version is refused', () => {
    const line = fc.stringMatching(/^(- |### )?[a-z][a-z ]{0,19}$/);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), fc.array(line, { maxLength: 4 }), (entries, older) => {
        const before = `${HEAD}## Unreleased\n\n${entries.join('\n')}\n\n## [0.1.0] - 2026-11-01\n\n${older.join('\n')}\n`;
        const after = releaseChangelog(before, '0.2.0', '2026-12-01');
        expect(
          after
            .split('\n')
            .filter((text) => text.trim() !== '')
            .sort(),
        ).toEqual([...before.split('\n').filter((text) => text.trim() !== ''), '## [0.2.0] - 2026-12-01'].sort());
        expect(after.indexOf('## Unreleased')).toBeLessThan(after.indexOf('## [0.2.0]'));
        expect(() => releaseChangelog(after, '0.2.0', '2026-12-02')).toThrow();
      }),
    );
  });
});

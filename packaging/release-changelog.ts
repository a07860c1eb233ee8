import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './workspaces.js';

const UNRELEASED = '## Unreleased';

/**
 * Cuts a release in a Keep a Changelog file: the entries under `## Unreleased` move, as they
 * are, under a new `## [version] - date` heading right below it, and `## Unreleased` stays on top,
 * empty. Refuses (throws, naming the fix) a file without exactly one `## Unreleased`, an empty
 * one, a version already released, or a malformed version or date.
 */
export function releaseChangelog(text: string, version: string, date: string): string {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) throw new Error(`"${version}" is not a version; give one such as 0.2.0`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`"${date}" is not a date; give one as YYYY-MM-DD`);
  const lines = text.split('\n');
  const headings = lines.flatMap((line, index) => (line.trimEnd() === UNRELEASED ? [index] : []));
  if (headings.length !== 1)
    throw new Error(`CHANGELOG.md must have exactly one "${UNRELEASED}" heading (it has ${headings.length}); fix the file first`);
  if (lines.some((line) => line.startsWith(`## [${version}]`)))
    throw new Error(`${version} is already in CHANGELOG.md; bump the version (npx changeset) first`);
  const start = (headings[0] as number) + 1;
  const next = lines.findIndex((line, index) => index >= start && line.startsWith('## '));
  const end = next === -1 ? lines.length : next;
  const entries = lines.slice(start, end);
  if (entries.every((line) => line.trim() === '')) throw new Error(`"${UNRELEASED}" is empty: there is nothing to release`);
  const body = entries.join('\n').replace(/^\n+|\n+$/g, '');
  return [...lines.slice(0, start), '', `## [${version}] - ${date}`, '', body, '', ...lines.slice(end)].join('\n');
}

/** `node --import tsx packaging/release-changelog.ts [version]`: the version defaults to the packages' own (they share one). */
function main(): void {
  const file = join(repoRoot, 'CHANGELOG.md');
  try {
    const version =
      process.argv[2] ?? (JSON.parse(readFileSync(join(repoRoot, 'packages/core/package.json'), 'utf8')) as { version: string }).version;
    const released = releaseChangelog(readFileSync(file, 'utf8'), version, new Date().toISOString().slice(0, 10));
    writeFileSync(`${file}.tmp`, released);
    renameSync(`${file}.tmp`, file);
    console.log(`CHANGELOG.md: the Unreleased entries are now ${version}`);
  } catch (error) {
    console.error(`release-changelog: ${(error as Error).message}`);
    process.exitCode = 2;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();

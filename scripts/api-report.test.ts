import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { API_REPORT_DIR, buildApiReports } from './api-report.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

it('the committed API report (api/*.api.md) matches every package entry’s exports; run `npm run api:report` and commit the diff when a change is meant', async () => {
  const reports = await buildApiReports(root);
  const committed = (await readdir(join(root, API_REPORT_DIR))).filter((file) => file.endsWith('.api.md')).sort();
  expect(committed, 'the report files: run `npm run api:report`').toEqual([...reports.keys()].sort());
  for (const [file, text] of reports) {
    expect(
      await readFile(join(root, API_REPORT_DIR, file), 'utf8'),
      `${API_REPORT_DIR}/${file} is out of date: run \`npm run api:report\``,
    ).toBe(text);
  }
});

/** Each exported name with the entries (`@conclave/core`, `@conclave/core/data`, …) a report lists it under. */
function homesOf(report: string): Map<string, string[]> {
  const homes = new Map<string, string[]>();
  let entry = '';
  for (const line of report.split('\n')) {
    const heading = /^## `([^`]+)`/.exec(line);
    if (heading !== null) entry = heading[1] as string;
    const name = /^- `\S+ ([\w$]+)/.exec(line)?.[1];
    if (name !== undefined && !(homes.get(name) ?? []).includes(entry)) homes.set(name, [...(homes.get(name) ?? []), entry]);
  }
  return homes;
}

it('gives every exported name one home: no package exports a name from two of its entries (ADR 0041)', async () => {
  const files = (await readdir(join(root, API_REPORT_DIR))).filter((file) => file.endsWith('.api.md'));
  const twice = (
    await Promise.all(
      files.map(async (file) =>
        [...homesOf(await readFile(join(root, API_REPORT_DIR, file), 'utf8'))]
          .filter(([, entries]) => entries.length > 1)
          .map(([name, entries]) => `${name}: ${entries.join(', ')}`),
      ),
    )
  ).flat();
  expect(twice).toEqual([]);
});

it('reads a name listed under two entries as two homes, so the check above can fail', () => {
  const report = '## `@x/a` (1 names)\n\n- `function f(): void`\n\n## `@x/a/sub` (2 names)\n\n- `type T`\n- `function f(): void`\n';
  expect(homesOf(report)).toEqual(
    new Map([
      ['f', ['@x/a', '@x/a/sub']],
      ['T', ['@x/a/sub']],
    ]),
  );
});

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

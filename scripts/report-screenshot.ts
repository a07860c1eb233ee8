/**
 * Renders the demo-like composite run record (a debate through the gates, a verification, a
 * meeting and a guarded task run, all real and offline) and saves a screenshot of its report as
 * docs/report.png, for docs/report.md.
 * Usage: node --conditions=conclave-source --import tsx scripts/report-screenshot.ts [out.png]
 * Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium); loads nothing from the network.
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderReport } from '@conclave/report';
import { launchChromium, openReport } from '../packages/report/src/test-support/browser.js';
import { demoRecord } from '../packages/report/src/test-support/records.js';

const out = process.argv[2] ?? 'docs/report.png';
const markup = renderReport(await demoRecord());
const htmlFile = join(tmpdir(), 'conclave-report-demo.html');
await writeFile(htmlFile, markup);

const browser = await launchChromium();
try {
  const opened = await openReport(browser, markup, { width: 1280, height: 1600 });
  await opened.page.screenshot({ path: out, fullPage: false });
  await opened.close();
  if (opened.requests.length > 0) {
    console.error(`the report asked for ${opened.requests.join(', ')}: it must load nothing`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
}
console.log(`report: ${htmlFile} (${markup.length} bytes)\nscreenshot: ${out}`);

/**
 * Runs `conclave demo` (offline, in a temporary folder) and saves a screenshot of the
 * demo-report.html it writes as docs/report.png (desktop) and docs/report-mobile.png (a phone's
 * first screen): the picture the README shows is the demo's own report.
 * Usage: node --conditions=conclave-source --import tsx scripts/report-screenshot.ts [out.png]
 * Uses the browser the report tests use (find-browser.ts: CONCLAVE_CHROMIUM, else the npm-shipped
 * Chromium, else one on PATH); loads nothing from the network.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../packages/cli/src/main.js';
import { launchChromium, openReport } from '../packages/report/src/test-support/browser.js';

const out = process.argv[2] ?? 'docs/report.png';
const mobileOut = out.replace(/(\.png)?$/, '-mobile.png');
const cwd = await mkdtemp(join(tmpdir(), 'conclave-report-screenshot-'));
try {
  // The demo as a user runs it, but offline whatever keys are set: the picture must not depend on them.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, USER: 'demo' };
  const errors: string[] = [];
  const code = await main(['demo', '--provider', 'offline'], {
    stdout: () => undefined,
    stderr: (text) => void errors.push(text),
    env,
    cwd,
    isTTY: false,
  });
  if (code !== 0) throw new Error(`conclave demo exited ${code}:\n${errors.join('')}`);
  const markup = await readFile(join(cwd, 'demo-report.html'), 'utf8');

  const browser = await launchChromium();
  try {
    // The desktop picture, and a phone's first screen beside it (390 × 844 CSS pixels, as the browser tests use).
    for (const [path, viewport] of [
      [out, { width: 1280, height: 1600 }],
      [mobileOut, { width: 390, height: 844 }],
    ] as const) {
      const opened = await openReport(browser, markup, viewport);
      await opened.page.screenshot({ path, fullPage: false });
      await opened.close();
      if (opened.requests.length > 0) throw new Error(`the report asked for ${opened.requests.join(', ')}: it must load nothing`);
    }
  } finally {
    await browser.close();
  }
  console.log(`demo report: ${markup.length} bytes\nscreenshots: ${out}, ${mobileOut}`);
} finally {
  await rm(cwd, { recursive: true, force: true });
}

import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, type FoundBrowser } from './find-browser.js';

/** Headless, and quiet: nothing in the browser itself may reach the network either. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches `found`, else what `findBrowser` finds (`CONCLAVE_CHROMIUM`, the npm-shipped Chromium, a system one). */
export async function launchChromium(found?: FoundBrowser): Promise<Browser> {
  const browser = found ?? (await findBrowser());
  // Playwright's `env` replaces the inherited environment rather than adding to it.
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return chromium.launch({ executablePath: browser.executablePath, args: CHROMIUM_ARGS, headless: true, env: { ...env, ...browser.env } });
}

/** A page showing a report with JavaScript off, and every request the page tried that was not a data: URL. */
export interface OpenedReport {
  readonly page: Page;
  /** URLs the page asked for (other than data: URLs); each was aborted. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

/**
 * Opens a report the way a reader would, but with JavaScript disabled and every request routed:
 * a data: URL is let through, anything else is recorded and aborted, so a test can fail on it.
 */
export async function openReport(browser: Browser, markup: string, viewport = { width: 1200, height: 900 }): Promise<OpenedReport> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport, offline: true });
  // Both the router and the page's request events record, so nothing slips past either; a Set
  // counts each URL once.
  const requests = new Set<string>();
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('data:')) return route.continue();
    requests.add(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('about:')) requests.add(url);
  });
  await page.setContent(markup, { waitUntil: 'load' });
  return {
    page,
    get requests() {
      return [...requests];
    },
    close: () => context.close(),
  };
}

/**
 * A full-page screenshot, tried up to three times. Headless Chromium sometimes answers a capture
 * soon after a page loads with "Unable to capture screenshot" (measured here with the npm-shipped
 * build: up to one page in five under load; a retry half a second later succeeded every time).
 * The picture is for a person to look at; the assertions are what the tests prove.
 */
export async function screenshotPage(page: Page, path: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.screenshot({ path, fullPage: true });
      return;
    } catch (error) {
      if (attempt === 3 || !String(error).includes('Unable to capture screenshot')) throw error;
      await sleep(500 * attempt);
    }
  }
}

import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium unless `CHROMIUM_PATH` names another. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Headless, and quiet: nothing in the browser itself may reach the network either. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
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

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type * as Axe from 'axe-core';
import type { Browser } from 'playwright-core';

/** One axe-core rule that failed, with where. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  /** CSS selectors of the failing elements. */
  readonly targets: readonly string[];
}

const require = createRequire(import.meta.url);

/**
 * Runs axe-core (the npm package, read from disk: nothing is fetched) over a report at one
 * viewport and returns every violation. axe needs JavaScript for its own scheduling, so this page
 * has it on, unlike the reading tests; the report itself holds no script and its CSP forbids one,
 * and axe is injected through the DevTools protocol, which the CSP does not govern.
 */
export async function axeViolations(
  browser: Browser,
  markup: string,
  viewport: { readonly width: number; readonly height: number },
): Promise<AxeViolation[]> {
  const source = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  const context = await browser.newContext({ viewport, offline: true });
  try {
    const page = await context.newPage();
    await page.setContent(markup, { waitUntil: 'load' });
    await page.evaluate(source);
    return await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: typeof Axe }).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        targets: v.nodes.map((node) => node.target.join(' ')),
      }));
    });
  } finally {
    await context.close();
  }
}

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from './render.js';
import { axeViolations } from './test-support/axe.js';
import { launchChromium, openReport, screenshotPage, type OpenedReport } from './test-support/browser.js';
import { findBrowser } from './test-support/find-browser.js';
import type { CompositeRunRecord } from './run-record.js';
import { fixtureRecords, type FixtureRecords } from './test-support/records.js';

// A real browser (the Chromium npm ci installed, or CONCLAVE_CHROMIUM, or one on PATH) with
// JavaScript off and every request routed: the reports must read fully without either.
// Looked for before the tests are collected, so a machine without one fails this file with the
// one line that says what to install, instead of showing six skipped tests.
const found = await findBrowser();
let browser: Browser;
let records: FixtureRecords;

/** Screenshots of the last run, for a person to look at: in the repository, ignored by git. */
const shots = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));

beforeAll(async () => {
  [browser, records] = await Promise.all([launchChromium(found), fixtureRecords(), mkdir(shots, { recursive: true })]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function open(kind: keyof FixtureRecords, check: (opened: OpenedReport) => Promise<void>): Promise<void> {
  const opened = await openReport(browser, renderReport(records[kind]));
  try {
    await check(opened);
    await screenshotPage(opened.page, join(shots, `${kind}.png`));
    expect(opened.requests, 'requests that left the page').toEqual([]);
  } finally {
    await opened.close();
  }
}

describe('reports in a real browser, JavaScript off, no network', () => {
  it('the route check catches a request (so an empty list means something)', async () => {
    const opened = await openReport(
      browser,
      '<!doctype html><html lang="en"><title>t</title><img alt="x" src="http://192.0.2.1/pixel.png"><img alt="y" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">',
    );
    try {
      await opened.page.waitForLoadState('load');
      expect(opened.requests).toEqual(['http://192.0.2.1/pixel.png']);
    } finally {
      await opened.close();
    }
  });

  it('debate: the heading, the consensus, the dissent, the timeline, the veto mark and the blocked emission are visible', async () => {
    await open('debate', async ({ page }) => {
      await expect.poll(() => page.locator('h1').textContent()).toContain('<script>alert("pwned")</script>');
      expect(await page.locator('script').count()).toBe(0);
      for (const name of ['Debate summary', 'Timeline', 'Consensus', 'Dissent', 'Failures', 'Panel: lenses, quorum and veto']) {
        expect(await page.getByRole('heading', { name, exact: true }).isVisible(), name).toBe(true);
      }
      expect(await page.locator('section.consensus .callout.ok').getByText('quorum met').isVisible()).toBe(true);
      expect(await page.getByRole('img', { name: /Debate timeline: 2 phase\(s\)/ }).isVisible()).toBe(true);
      const domain = page.getByRole('row', { name: /DOMAIN/ });
      expect(await domain.getByText('VETO').isVisible()).toBe(true);
      expect(
        await page.getByRole('region', { name: 'Emission decision' }).getByText('BLOCKED: do not act on this decision').isVisible(),
      ).toBe(true);
      expect(
        await page.getByRole('article', { name: 'Council debate' }).getByText('BLOCKED: do not act on this decision').isVisible(),
      ).toBe(true);
      expect(await page.getByRole('table', { name: 'Members that produced no vote, and why' }).getByText('unbound_model').isVisible()).toBe(
        true,
      );
    });
  }, 60_000);

  it('meeting: the slate, the stances table, convergence, the minority report and the ADR draft are visible', async () => {
    await open('meeting', async ({ page }) => {
      expect(await page.getByRole('table', { name: "Each member's preferred option by round" }).isVisible()).toBe(true);
      expect(await page.getByRole('columnheader', { name: 'Prep (isolated)' }).isVisible()).toBe(true);
      expect(
        await page.getByRole('table', { name: 'The convergence rule, round by round' }).getByText('✔ converged').first().isVisible(),
      ).toBe(true);
      expect(await page.getByRole('heading', { name: 'Minority report' }).isVisible()).toBe(true);
      expect(await page.getByRole('table', { name: 'Dissenters and why' }).isVisible()).toBe(true);
      expect(
        await page
          .getByRole('figure', { name: /^ADR draft \(markdown\): / })
          .getByText('Status: proposed')
          .isVisible(),
      ).toBe(true);
    });
  }, 60_000);

  it("task: the plan, a failed gate's exit code and output, the guardian's verdicts and the timeline are visible", async () => {
    await open('task', async ({ page }) => {
      expect(await page.getByRole('heading', { name: 'Plan', exact: true }).isVisible()).toBe(true);
      const gates = page.getByRole('table', { name: 'Gates of attempt 1 (task parse)' });
      const check = gates.getByRole('row', { name: /^check node check\.js/ });
      expect(await check.locator('.exit-code').textContent()).toBe('1');
      expect(await check.locator('.exit-code').isVisible()).toBe(true);
      expect(await page.getByRole('figure', { name: 'stderr of gate check, attempt 1' }).locator('pre').textContent()).toContain(
        'parse.txt is not ok: BROKEN parse',
      );
      expect(await page.getByRole('table', { name: 'Guardian verdicts, one per progress report' }).getByText('uncertain').isVisible()).toBe(
        true,
      );
      expect(await page.getByRole('table', { name: 'Every step of the run, in order' }).isVisible()).toBe(true);
    });
  }, 60_000);

  it('verification: the claims, the lenses and the approved emission are visible', async () => {
    await open('verification', async ({ page }) => {
      expect(await page.getByRole('table', { name: 'Claims, each decided by a deterministic oracle' }).getByRole('row').count()).toBe(
        records.verification.verification.claims.length + 1,
      );
      expect(
        await page
          .getByRole('region', { name: 'Emission decision' })
          .getByText('GO and APPROVED: the decision may be acted on')
          .isVisible(),
      ).toBe(true);
      expect(
        await page.getByRole('article', { name: 'Verification' }).getByText('GO and APPROVED: the decision may be acted on').isVisible(),
      ).toBe(true);
    });
  }, 60_000);

  it('composite: the table of contents links to every part, and each part is rendered', async () => {
    await open('composite', async ({ page }) => {
      const toc = page.getByRole('navigation', { name: 'Contents' });
      expect(await toc.getByRole('link').count()).toBe(4);
      for (const part of records.composite.parts.map((_, i) => `part-${i + 1}`))
        expect(await page.locator(`#${part}`).isVisible()).toBe(true);
      expect(await page.getByRole('main').getByRole('heading', { level: 3, name: 'Consensus', exact: true }).isVisible()).toBe(true);
      expect(await page.getByRole('main').getByRole('heading', { level: 3, name: 'Minority report' }).count()).toBe(0);
      expect(await page.getByRole('main').getByRole('heading', { level: 4, name: 'Minority report' }).isVisible()).toBe(true);
    });
  }, 60_000);
});

/** A desktop screen and a phone's (an iPhone 12 to 15 in portrait, CSS pixels). */
const SCREENS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

const KINDS = ['debate', 'verification', 'meeting', 'task', 'composite'] as const;

describe.each(SCREENS)('every report at $name size ($width × $height)', (screen) => {
  it.each(KINDS)(
    '%s: the first screen says what was decided and whether anyone may act, for every part; nothing overflows sideways; axe finds nothing serious',
    async (kind) => {
      const record = records[kind];
      const markup = renderReport(record);
      const opened = await openReport(browser, markup, { width: screen.width, height: screen.height });
      try {
        const { page } = opened;
        const parts = record.kind === 'composite' ? record.parts : [record];
        const cards = page.locator('article.card');
        expect(await cards.count()).toBe(parts.length);
        for (let i = 0; i < parts.length; i++) {
          const card = cards.nth(i);
          // Both answers lie wholly on the first screen, above any detail.
          for (const answer of [card.locator('dd').first(), card.locator('dd.act')]) {
            const box = await answer.boundingBox();
            expect(box, `card ${i + 1}`).not.toBeNull();
            expect((box?.y ?? Infinity) + (box?.height ?? 0), `card ${i + 1} of ${kind} ends below the first screen`).toBeLessThanOrEqual(
              screen.height,
            );
          }
        }
        const firstDetail = await page.locator('main > section.part, main > section:not(.outcome)').first().boundingBox();
        const lastCard = await cards.last().boundingBox();
        expect((lastCard?.y ?? Infinity) < (firstDetail?.y ?? -Infinity)).toBe(true);

        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(widths.scroll, 'page width').toBeLessThanOrEqual(widths.client);

        // A chart is drawn at its natural size or smaller: its 12 px labels must not shrink below 11 px.
        const labelSizes = await page.locator('svg.timeline text.svg-label, svg.timeline text.svg-group').evaluateAll((texts) =>
          texts.map((text) => {
            const svg = text.closest('svg');
            const scale = svg === null ? 0 : svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            return parseFloat(getComputedStyle(text).fontSize) * scale;
          }),
        );
        if (kind === 'debate' || kind === 'composite') expect(labelSizes.length).toBeGreaterThan(0);
        for (const size of labelSizes) expect(size, 'timeline label size in px').toBeGreaterThanOrEqual(11);

        await screenshotPage(page, join(shots, `${kind}-${screen.name}.png`));
        expect(opened.requests).toEqual([]);
      } finally {
        await opened.close();
      }
      const serious = (await axeViolations(browser, markup, screen)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious).toEqual([]);
    },
    60_000,
  );
});

describe('a phone and words that do not break', () => {
  it('ids, a question, a spec and a branch of 120 letters without a space still fit 390 px; only tables and output scroll, inside their own boxes', async () => {
    const long = 'W'.repeat(120);
    const debate = {
      ...records.debate,
      board: { id: long, path: `/${long}/board.yaml` },
      result: { ...records.debate.result, question: `Should we ${long}?` },
    };
    const meeting = { ...records.meeting, brief: { ...records.meeting.brief, id: long, path: long } };
    const task = {
      ...records.task,
      spec: { ...records.task.spec, id: long, title: long },
      result: { ...records.task.result, branch: `conclave/${long}`, runId: long },
    };
    const composite: CompositeRunRecord = { ...records.composite, title: long, parts: [debate, records.verification, meeting, task] };
    const opened = await openReport(browser, renderReport(composite), { width: 390, height: 844 });
    try {
      const layout = await opened.page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const outside = Array.from(document.querySelectorAll<HTMLElement>('body *')).filter(
          (element) => element.getBoundingClientRect().right > width + 1 && element.closest('.table-wrap, pre') === null,
        );
        return {
          scroll: document.documentElement.scrollWidth,
          width,
          outside: outside.slice(0, 5).map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
        };
      });
      expect(layout.outside).toEqual([]);
      expect(layout.scroll).toBeLessThanOrEqual(layout.width);
      await screenshotPage(opened.page, join(shots, 'long-words-mobile.png'));
    } finally {
      await opened.close();
    }
  }, 60_000);
});

import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserNotFoundError, findBrowser } from './find-browser.js';
import type { NpmChromium } from './npm-chromium.js';

// The lookup order decides which browser the report's tests prove anything with, and a missing
// browser must fail loudly; none of this needs a real browser, so none is unpacked here.
let dir: string;
let fakeChromium: string;
const shipped: NpmChromium = { executablePath: '/npm/chromium', version: '0.0.0', env: { FONTCONFIG_FILE: '/npm/fonts.conf' } };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conclave-find-browser-'));
  fakeChromium = join(dir, 'chromium');
  await writeFile(fakeChromium, '#!/bin/sh\n');
  await chmod(fakeChromium, 0o755);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('findBrowser', () => {
  it('CONCLAVE_CHROMIUM wins over the npm-shipped Chromium and PATH', async () => {
    let askedNpm = false;
    const found = await findBrowser({
      env: { CONCLAVE_CHROMIUM: fakeChromium, PATH: dir },
      npm: () => ((askedNpm = true), Promise.resolve(shipped)),
    });
    expect(found).toEqual({ executablePath: fakeChromium, source: 'env', env: {} });
    expect(askedNpm).toBe(false);
  });

  it('a CONCLAVE_CHROMIUM that is not an executable file is an error, not a fall-back', async () => {
    const found = findBrowser({ env: { CONCLAVE_CHROMIUM: join(dir, 'missing') }, npm: () => Promise.resolve(shipped) });
    await expect(found).rejects.toThrow(BrowserNotFoundError);
    await expect(found).rejects.toThrow(/^CONCLAVE_CHROMIUM=\S+ is not an executable file/);
  });

  it('the npm-shipped Chromium comes before one on PATH, with its own environment', async () => {
    const found = await findBrowser({ env: { PATH: dir }, npm: () => Promise.resolve(shipped) });
    expect(found).toEqual({ executablePath: '/npm/chromium', source: 'npm', env: { FONTCONFIG_FILE: '/npm/fonts.conf' } });
  });

  it('without the npm one (macOS, another CPU), a chromium on PATH is used', async () => {
    const found = await findBrowser({ env: { PATH: `/nonexistent:${dir}` }, platform: 'linux', npm: () => Promise.resolve(undefined) });
    expect(found).toEqual({ executablePath: fakeChromium, source: 'system', env: {} });
  });

  it('no browser anywhere: one line that says what to install', async () => {
    const error: unknown = await findBrowser({
      env: { PATH: join(dir, 'empty') },
      platform: 'linux',
      npm: () => Promise.resolve(undefined),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrowserNotFoundError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/npm ci/);
    expect(message).toMatch(/CONCLAVE_CHROMIUM/);
  });
});

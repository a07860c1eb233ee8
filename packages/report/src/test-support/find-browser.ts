import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { npmChromium, type NpmChromium } from './npm-chromium.js';

/** Names a Chrome or Chromium executable; wins over everything else. */
export const BROWSER_ENV = 'CONCLAVE_CHROMIUM';
/** The name this setting had before the browser came from npm; still read, after `BROWSER_ENV`. */
const LEGACY_BROWSER_ENV = 'CHROMIUM_PATH';

/** What a browser test should launch, and where it came from (for a reader of a failure). */
export interface FoundBrowser {
  readonly executablePath: string;
  readonly source: 'env' | 'npm' | 'system';
  /** Extra environment for the browser's process only. */
  readonly env: Readonly<Record<string, string>>;
}

/** No browser anywhere it was looked for; the message is one line that says what to install. */
export class BrowserNotFoundError extends Error {
  override readonly name = 'BrowserNotFoundError';
}

export interface FindBrowserOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly platform?: NodeJS.Platform;
  /** The npm-shipped Chromium; replaced in tests, which must not unpack 200 MB. */
  readonly npm?: () => Promise<NpmChromium | undefined>;
}

/** The names a system browser has on PATH, Debian's first. */
const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
/** macOS installs apps outside PATH; there the npm Chromium (Linux-only) does not apply. */
const MAC_APPS = ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'];

/**
 * The browser for the report's browser tests: `CONCLAVE_CHROMIUM` if set, else the Chromium that
 * `npm ci` installed (Linux x64), else a Chrome or Chromium on PATH (or in /Applications on macOS).
 * Rejects with a `BrowserNotFoundError` rather than letting the tests skip: a suite that
 * passes because it checked nothing is the failure this lookup exists to prevent.
 */
export async function findBrowser(options: FindBrowserOptions = {}): Promise<FoundBrowser> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;

  for (const name of [BROWSER_ENV, LEGACY_BROWSER_ENV]) {
    const explicit = env[name];
    if (explicit === undefined || explicit === '') continue;
    // An explicit choice that does not work is an error, never a reason to quietly use another browser.
    if (!(await isExecutableFile(explicit)))
      throw new BrowserNotFoundError(
        `${name}=${explicit} is not an executable file: point it at a Chrome or Chromium binary, or unset it to use the one npm ci installs.`,
      );
    return { executablePath: explicit, source: 'env', env: {} };
  }

  const shipped = await (options.npm ?? npmChromium)();
  if (shipped !== undefined) return { executablePath: shipped.executablePath, source: 'npm', env: shipped.env };

  const path = (env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '');
  const candidates = [...path.flatMap((dir) => SYSTEM_NAMES.map((name) => join(dir, name))), ...(platform === 'darwin' ? MAC_APPS : [])];
  for (const candidate of candidates) {
    if (await isExecutableFile(candidate)) return { executablePath: candidate, source: 'system', env: {} };
  }

  throw new BrowserNotFoundError(
    `No Chromium for the report's browser tests: run npm ci on Linux x64 (it installs @sparticuz/chromium), or install Chrome or Chromium (on PATH as ${SYSTEM_NAMES.join(', ')}), or set ${BROWSER_ENV} to its executable.`,
  );
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

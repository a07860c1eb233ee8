import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createBrotliDecompress } from 'node:zlib';

const run = promisify(execFile);

/** A Chromium that came inside an npm tarball, unpacked, and what its process needs to run. */
export interface NpmChromium {
  readonly executablePath: string;
  /** The npm package's version, which is also the cache folder's name. */
  readonly version: string;
  /** Set for the browser's process only: fonts, and the shipped libraries where the system lacks them. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The headless Chromium that `@sparticuz/chromium` ships brotli-compressed inside its npm tarball
 * (Linux x64 only), so `npm ci` is all a new user needs: no browser download, no apt.
 *
 * Unpacked by us rather than by the package's `executablePath()`, which writes `/tmp/chromium`
 * in place: an interrupted first run there leaves a truncated binary that every later run trusts,
 * and another project's version of the package shares the same path. Here each file is written
 * under a temporary name and renamed, into `node_modules/.cache/conclave-chromium/<version>/`,
 * which `npm ci` empties along with everything else it replaces. About 4 s the first time.
 *
 * Undefined when the package is not installed or cannot run on this platform.
 */
export async function npmChromium(): Promise<NpmChromium | undefined> {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  } catch {
    return undefined;
  }
  const packageDir = await packageRoot(entry);
  const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const shipped = join(packageDir, 'bin');
  const cache = join(packageDir, '..', '..', '.cache', 'conclave-chromium', version);

  const executablePath = join(cache, 'chromium');
  await unpackOnce(executablePath, (to) => inflate(join(shipped, 'chromium.br'), to, 0o755));

  // A machine with only Node has no fonts, and then no text has a size: every "is visible"
  // check fails. The package's Open Sans is added to the system's fonts, never in their place,
  // so where fonts exist the reports look as they do in the user's own browser.
  const fonts = join(cache, 'fonts');
  await unpackOnce(fonts, (to) => untar(join(shipped, 'fonts.tar.br'), to));
  const fontConfig = join(cache, 'fonts.conf');
  await unpackOnce(fontConfig, (to) => writeFile(to, fontConfigFor(fonts, join(cache, 'fontconfig-cache'))));
  const env: Record<string, string> = { FONTCONFIG_FILE: fontConfig };

  // The binary links only libc, NSS, NSPR and expat. Debian has them wherever a browser was ever
  // installed; a slim image may not, and the package ships them (built for Amazon Linux 2023,
  // whose glibc is older than bookworm's) for that case.
  if (await missesLibraries(executablePath)) {
    const libraries = join(cache, 'al2023');
    await unpackOnce(libraries, (to) => untar(join(shipped, 'al2023.tar.br'), to));
    env['LD_LIBRARY_PATH'] = [join(libraries, 'lib'), process.env['LD_LIBRARY_PATH']].filter(Boolean).join(':');
  }
  return { executablePath, version, env };
}

/** The folder of the package whose entry file is `entry`: its exports hide package.json, and the entry's depth varies by release. */
async function packageRoot(entry: string): Promise<string> {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(await readFile(manifest, 'utf8')) as { name?: string }).name === '@sparticuz/chromium')
      return dir;
  }
  throw new Error(`no package.json of @sparticuz/chromium above ${entry}`);
}

/** Makes `path` with `make` under a temporary name, then renames it: a half-made file is never at `path`. */
async function unpackOnce(path: string, make: (to: string) => Promise<void>): Promise<void> {
  if (existsSync(path)) return;
  const temporary = `${path}.${process.pid}.partial`;
  await mkdir(dirname(path), { recursive: true });
  await rm(temporary, { recursive: true, force: true });
  try {
    await make(temporary);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    // Another process (a second test run) finished the same folder first: its copy is as good.
    if (!existsSync(path)) throw error;
  }
}

function inflate(compressed: string, to: string, mode = 0o644): Promise<void> {
  return pipeline(createReadStream(compressed), createBrotliDecompress(), createWriteStream(to, { mode }));
}

/** Node has no tar reader; tar is in every Linux base image this binary can run on. */
async function untar(compressed: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const archive = `${to}.tar`;
  try {
    await inflate(compressed, archive);
    await run('tar', ['-xf', archive, '-C', to]);
  } finally {
    await rm(archive, { force: true });
  }
}

async function missesLibraries(executable: string): Promise<boolean> {
  try {
    const { stdout } = await run('ldd', [executable]);
    return stdout.includes('not found');
  } catch {
    // No ldd to ask: try the system's libraries, and let a failed launch say what is missing.
    return false;
  }
}

function fontConfigFor(fonts: string, cacheDir: string): string {
  const xml = (text: string): string => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    '<fontconfig>',
    '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
    `  <dir>${xml(fonts)}</dir>`,
    `  <cachedir>${xml(cacheDir)}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
}

import { readFileSync } from 'node:fs';

/** What the CLI tells about itself: `--version`, and where its guide is. */
export interface PackageInfo {
  readonly version: string;
  /** The package's homepage (its guide), when package.json names one. */
  readonly homepage?: string;
}

/**
 * @conclave/cli's own package.json, read at run time so `--version` never drifts from it. It is
 * one folder above both src/ (run from source) and dist/ (installed), so one relative URL serves
 * both; a JSON import would put package.json outside tsc's rootDir.
 */
export function packageInfo(): PackageInfo {
  const json = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown; homepage?: unknown };
  if (typeof json.version !== 'string') throw new Error('@conclave/cli: package.json has no version');
  return { version: json.version, ...(typeof json.homepage === 'string' && json.homepage !== '' ? { homepage: json.homepage } : {}) };
}

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CliError } from './errors.js';
import { resolvePath } from './inputs.js';

/** Writes a file (creating its folder), or throws a CliError naming it. Returns the absolute path. */
export async function writeOutput(cwd: string, file: string, text: string): Promise<string> {
  const path = resolvePath(cwd, file);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, 'utf8');
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`, [], undefined, 'choose a writable path');
  }
  return path;
}

/** A run record as the JSON file `conclave report` reads. */
export function recordText(record: unknown): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

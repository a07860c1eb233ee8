import { mkdir, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError } from './errors.js';
import { resolvePath } from './inputs.js';

/**
 * Writes a file (creating its folder), or throws a CliError naming it. Returns the absolute path.
 * A regular file is written to a hidden file beside it first and renamed into place, so a run
 * record or an ADR draft is whole or not there: a full disk or a kill mid-write never leaves half
 * of one. A symlink is followed to its file; a device or pipe (`/dev/stdout`) is written as is.
 */
export async function writeOutput(cwd: string, file: string, text: string): Promise<string> {
  const path = resolvePath(cwd, file);
  let partial: string | undefined;
  try {
    await mkdir(dirname(path), { recursive: true });
    const target = await realpath(path).catch(() => path);
    if ((await stat(target).catch(() => undefined))?.isFile() === false) {
      await writeFile(target, text, 'utf8');
      return path;
    }
    partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
    await writeFile(partial, text, 'utf8');
    await rename(partial, target);
  } catch (error) {
    if (partial !== undefined) await unlink(partial).catch(() => undefined);
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`, [], undefined, 'choose a writable path');
  }
  return path;
}

/** A run record as the JSON file `conclave report` reads. */
export function recordText(record: unknown): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

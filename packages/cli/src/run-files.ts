import { statSync } from 'node:fs';
import { mkdir, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { resolvePath } from './inputs.js';

/**
 * Refuses an output file that is the command's own input (`conclave report run.json -o run.json`,
 * `debate board.yaml --out board.yaml`): writing it would replace the file the command reads.
 * Called before the command runs, so nothing is spent first.
 */
export function refuseOverwritingInput(cwd: string, out: string | undefined, input: string | undefined): void {
  if (out === undefined || input === undefined || !sameFile(resolvePath(cwd, out), resolvePath(cwd, input))) return;
  throw new CliError(
    `--out ${out} is the input file ${input}: writing there would replace it`,
    [],
    EXIT.usage,
    'choose another --out file',
  );
}

/** The same path, or two paths to one existing file (a link). */
function sameFile(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    const [first, second] = [statSync(a), statSync(b)];
    return first.dev === second.dev && first.ino === second.ino;
  } catch {
    return false;
  }
}

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
    throw new CliError(`cannot write ${file}: ${writeProblem(path, error)}`, [], undefined, 'choose a writable path');
  }
  return path;
}

/** Why a file could not be written; said plainly when a file stands where a folder must be (mkdir's EEXIST, ENOTDIR). */
function writeProblem(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
      try {
        if (!statSync(dir).isDirectory()) return `${dir} is a file, not a folder`;
      } catch {
        // Not there (yet): the file in the way is higher up.
      }
    }
  }
  return (error as Error).message;
}

/** A run record as the JSON file `conclave report` reads. */
export function recordText(record: unknown): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

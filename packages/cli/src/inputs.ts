import { open } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { type Issue } from '@conclave/core';
import { dataPathLocator, formatByteSize, MAX_INPUT_BYTES, parseJsonText, type DataPath } from '@conclave/core/data';
import { parseBoard, type Board } from '@conclave/council';
import { parseBrief, type Brief } from '@conclave/meeting';
import { parseTaskSpec, type TaskSpec } from '@conclave/taskloop';
import { CliError } from './errors.js';

/** A path as the user typed it (shown in messages) and as it resolves against the working folder. */
export function resolvePath(cwd: string, file: string): string {
  return isAbsolute(file) ? file : resolve(cwd, file);
}

/**
 * Reads a file, or throws a CliError naming it and what to do. A file over `MAX_INPUT_BYTES` is
 * refused by its size before a byte of it is read, so a huge file costs no memory or parse time.
 */
export async function readInput(cwd: string, file: string, what: string): Promise<string> {
  let size: number;
  let text: string;
  try {
    const handle = await open(resolvePath(cwd, file), 'r');
    try {
      size = (await handle.stat()).size;
      text = size > MAX_INPUT_BYTES ? '' : await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new CliError(`${file}: no such ${what} file`, [], undefined, `check the path (relative paths are read from ${cwd})`);
    if (code === 'EISDIR') throw new CliError(`${file}: is a folder, not a ${what} file`, [], undefined, `pass the ${what} file itself`);
    throw new CliError(`${file}: cannot read the ${what}: ${(error as Error).message}`, [], undefined, 'check that the file is readable');
  }
  if (size > MAX_INPUT_BYTES) {
    const message = `the ${what} file is ${formatByteSize(size)}, over the limit of ${formatByteSize(MAX_INPUT_BYTES)}`;
    throw new CliError(`${file}: the ${what} is too large`, [
      {
        code: 'too_large',
        file,
        line: 1,
        column: 1,
        message,
        fix: `pass the right file: a ${what} is well under 1 MiB (see "Limits" in conclave's CLI guide)`,
      },
    ]);
  }
  return text;
}

/** The documents the CLI reads from files, by the name its messages call them. */
interface Inputs {
  readonly board: Board;
  readonly brief: Brief;
  readonly spec: TaskSpec;
}

/** What every package's parser returns (a neverthrow `Result`), as far as the loader needs it. */
interface Parsed<T> {
  match<A>(ok: (value: T) => A, err: (issues: readonly Issue[]) => A): A;
}

const PARSERS: { readonly [K in keyof Inputs]: (text: string, file: string) => Parsed<Inputs[K]> } = {
  board: (text, file) => parseBoard(text, { file }),
  brief: (text, file) => parseBrief(text, { file }),
  spec: (text, file) => parseTaskSpec(text, file),
};

/**
 * A board, brief or spec from its file, or a CliError carrying every problem with its file,
 * line, column and fix: one loader for every document, so each reads and fails the same way.
 */
export async function loadInputFile<K extends keyof Inputs>(cwd: string, file: string, kind: K): Promise<Inputs[K]> {
  const parsed = PARSERS[kind](await readInput(cwd, file, kind), file);
  return parsed.match(
    (value) => value,
    (issues) => {
      throw new CliError(`${file}: the ${kind} has ${issues.length} problem${issues.length === 1 ? '' : 's'}`, issues);
    },
  );
}

/** A JSON document, and where its parts are in the file for problems found after parsing. */
export interface JsonInput {
  readonly data: unknown;
  /** The file, line and column of the value at `path`, or of the deepest part of it that exists. */
  readonly locate: (path: DataPath) => { file: string; line?: number; column?: number };
}

/** A JSON document; a syntax error is reported at its line and column. */
export async function loadJsonFile(cwd: string, file: string, what: string): Promise<JsonInput> {
  const text = await readInput(cwd, file, what);
  const data = parseJsonInput(text, file, what);
  const locator = dataPathLocator(text);
  return { data, locate: (path) => ({ file, ...locator(path) }) };
}

/** Parses JSON text, or throws a CliError with the line and column of the first syntax error. */
export function parseJsonInput(text: string, file: string, what: string): unknown {
  const parsed = parseJsonText(text);
  if (parsed.isOk()) return parsed.value;
  const { line, column, message, code } = parsed.error;
  if (code === 'too_deep')
    throw new CliError(`${file}: the ${what} is nested too deeply`, [
      { code: 'too_deep', file, line, column, message, fix: `pass the ${what} conclave wrote: none nests more than a dozen levels` },
    ]);
  throw new CliError(`${file}: the ${what} is not valid JSON`, [
    {
      code: 'syntax',
      file,
      line,
      column,
      message,
      fix: 'fix the JSON syntax at this position (quotes, commas, brackets); a trailing comma or a comment is not JSON',
    },
  ]);
}

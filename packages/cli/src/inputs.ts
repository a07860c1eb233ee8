import { open } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { dataPathLocator, formatByteSize, MAX_INPUT_BYTES, parseJsonText, type DataPath } from '@conclave/core';
import { formatBoardIssue, parseBoard, type Board } from '@conclave/council';
import { formatBriefIssue, parseBrief, type Brief } from '@conclave/meeting';
import { formatSpecIssue, formatSpecPath, parseSpec, type TaskSpec } from '@conclave/taskloop';
import { formatPath } from '@conclave/scoring';
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
    if (code === 'ENOENT') throw new CliError(`${file}: no such ${what} file`, [], undefined, `check the path (relative paths are read from ${cwd})`);
    if (code === 'EISDIR') throw new CliError(`${file}: is a folder, not a ${what} file`, [], undefined, `pass the ${what} file itself`);
    throw new CliError(`${file}: cannot read the ${what}: ${(error as Error).message}`, [], undefined, 'check that the file is readable');
  }
  if (size > MAX_INPUT_BYTES) {
    const message = `the ${what} file is ${formatByteSize(size)}, over the limit of ${formatByteSize(MAX_INPUT_BYTES)}`;
    throw new CliError(`${file}: the ${what} is too large`, [{ file, line: 1, column: 1, message, fix: `pass the right file: a ${what} is well under 1 MiB (see "Limits" in conclave's CLI guide)` }]);
  }
  return text;
}

/** A board from a YAML file; every problem with its file, line, column and fix. */
export async function loadBoardFile(cwd: string, file: string): Promise<Board> {
  const loaded = parseBoard(await readInput(cwd, file, 'board'), { file });
  if (loaded.isErr()) {
    const issues = loaded.error.map((issue) => ({ ...located(issue), path: formatPath(issue.path), message: issue.message, fix: issue.fix, text: formatBoardIssue(issue) }));
    throw new CliError(`${file}: the board has ${issues.length} problem${issues.length === 1 ? '' : 's'}`, issues);
  }
  return loaded.value;
}

/** A meeting brief from a YAML file. */
export async function loadBriefFile(cwd: string, file: string): Promise<Brief> {
  const loaded = parseBrief(await readInput(cwd, file, 'brief'), { file });
  if (loaded.isErr()) {
    const issues = loaded.error.map((issue) => ({ ...located(issue), path: formatPath(issue.path), message: issue.message, fix: issue.fix, text: formatBriefIssue(issue) }));
    throw new CliError(`${file}: the brief has ${issues.length} problem${issues.length === 1 ? '' : 's'}`, issues);
  }
  return loaded.value;
}

/** A task spec (markdown with YAML front-matter). */
export async function loadSpecFile(cwd: string, file: string): Promise<TaskSpec> {
  const loaded = parseSpec(await readInput(cwd, file, 'spec'), file);
  if (!loaded.ok) {
    const issues = loaded.issues.map((issue) => ({ ...located(issue), path: formatSpecPath(issue.path), message: issue.message, fix: issue.fix, text: formatSpecIssue(issue) }));
    throw new CliError(`${file}: the spec has ${issues.length} problem${issues.length === 1 ? '' : 's'}`, issues);
  }
  return loaded.spec;
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
  if (parsed.ok) return parsed.value;
  const { line, column, message, code } = parsed.error;
  if (code === 'too_deep') throw new CliError(`${file}: the ${what} is nested too deeply`, [{ file, line, column, message, fix: `pass the ${what} conclave wrote: none nests more than a dozen levels` }]);
  throw new CliError(`${file}: the ${what} is not valid JSON`, [{ file, line, column, message, fix: 'fix the JSON syntax at this position (quotes, commas, brackets); a trailing comma or a comment is not JSON' }]);
}

function located(issue: { readonly file?: string; readonly line?: number; readonly column?: number }): { file?: string; line?: number; column?: number } {
  return { ...(issue.file === undefined ? {} : { file: issue.file }), ...(issue.line === undefined ? {} : { line: issue.line }), ...(issue.column === undefined ? {} : { column: issue.column }) };
}

import { err, ok, type Result } from 'neverthrow';
import type { DataPath } from './data-path.js';
import { describePlainDataRefusal, toPlainData } from './plain-data.js';
import { MAX_INPUT_VALUES, MAX_LIST_ENTRIES, MAX_NESTING_DEPTH, MAX_STRING_LENGTH, type InputLimitCode } from './input-limits.js';

/** A piece of input beyond one of the limits: which, where (path) and what to do about it. */
export interface LimitIssue {
  readonly code: InputLimitCode;
  readonly path: DataPath;
  readonly message: string;
  readonly fix: string;
}

/**
 * Input a loader may read: a plain-data copy of `data` (`toPlainData`, the one boundary for
 * foreign values) within every input limit, or the issues. Data built in code with a getter or a
 * Proxy that throws, a function or a class instance is one `unreadable` issue, never a throw; the
 * loader then reads only the copy, so nothing it reads can run code.
 *
 * @example
 * const input = readBoundedInput(userObject);
 * if (input.isErr()) return err(input.error);
 */
export function readBoundedInput(data: unknown): Result<unknown, LimitIssue[]> {
  const copied = toPlainData(data);
  if (copied.isErr()) {
    if (copied.error.kind === 'too_large') {
      // Say which limit, where, as for a file: the raw walk reads each value once more, guarded.
      try {
        const issues = checkInputBounds(data);
        if (issues.length > 0) return err(issues);
      } catch {
        // Read differently the second time: the copy's refusal below says enough.
      }
    }
    return err([
      {
        code: copied.error.kind === 'too_large' ? 'too_large' : 'unreadable',
        path: [],
        message: `the data cannot be read as plain data: ${describePlainDataRefusal(copied.error)}`,
        fix: 'pass plain data: objects, arrays, strings, numbers, booleans and null (parsed YAML or JSON is always fine)',
      },
    ]);
  }
  const issues = checkInputBounds(copied.value);
  return issues.length > 0 ? err(issues) : ok(copied.value);
}

/** Past this many, more issues of the same kind say nothing new and would flood the terminal. */
const MAX_REPORTED = 20;

/**
 * Checks data (parsed YAML or JSON, or an object built in code) against the input limits: strings
 * and keys no longer than `MAX_STRING_LENGTH`, lists and maps no deeper than `MAX_NESTING_DEPTH`
 * and no longer than `MAX_LIST_ENTRIES`, at most `MAX_INPUT_VALUES` values in all. The walk keeps
 * its own stack, so data of any depth (or a cycle, which is infinitely deep) cannot overflow the
 * call stack; run it before any recursive validator sees the data.
 *
 * @example
 * const issues = checkInputBounds(JSON.parse(text)); // [] when every part is within the limits
 */
export function checkInputBounds(data: unknown): LimitIssue[] {
  const issues: LimitIssue[] = [];
  const stack: { value: unknown; path: DataPath; depth: number }[] = [{ value: data, path: [], depth: 0 }];
  let values = 0;
  while (stack.length > 0 && issues.length < MAX_REPORTED) {
    const { value, path, depth } = stack.pop() as (typeof stack)[number];
    values += 1;
    if (values > MAX_INPUT_VALUES) {
      issues.push({
        code: 'too_large',
        path,
        message: `the data holds more than ${MAX_INPUT_VALUES.toLocaleString('en-US')} values (each use of a YAML alias counts again)`,
        fix: 'remove repeated data, or aliases that point at lists holding more aliases',
      });
      break;
    }
    if (typeof value === 'string') {
      if (value.length > MAX_STRING_LENGTH) issues.push(tooLong(path, value.length, 'a string'));
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth + 1 > MAX_NESTING_DEPTH) {
      issues.push(tooDeepIssue(path));
      continue;
    }
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    const size = keys === undefined ? (value as unknown[]).length : keys.length;
    if (size > MAX_LIST_ENTRIES) {
      issues.push({
        code: 'too_many',
        path,
        message: `${size.toLocaleString('en-US')} ${keys === undefined ? 'entries in one list' : 'keys in one map'} are too many (limit ${MAX_LIST_ENTRIES.toLocaleString('en-US')})`,
        fix: 'shorten the list, or split the file',
      });
      continue;
    }
    // Children go on the stack last-first, so issues come out in the order a reader meets them.
    for (let i = size - 1; i >= 0; i -= 1) {
      if (keys === undefined) {
        stack.push({ value: (value as unknown[])[i], path: [...path, i], depth: depth + 1 });
        continue;
      }
      const key = keys[i] as string;
      if (key.length > MAX_STRING_LENGTH) {
        issues.push(tooLong(path, key.length, 'a key'));
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key], depth: depth + 1 });
    }
  }
  return issues.slice(0, MAX_REPORTED);
}

/** The issue for a list or map nested past `MAX_NESTING_DEPTH`, at `path`. */
export function tooDeepIssue(path: DataPath): LimitIssue {
  return {
    code: 'too_deep',
    path,
    message: `too deeply nested (limit ${MAX_NESTING_DEPTH} levels of lists and maps)`,
    fix: 'flatten the data: a board, brief or spec needs only a few levels',
  };
}

function tooLong(path: DataPath, length: number, what: string): LimitIssue {
  return {
    code: 'too_long',
    path,
    message: `${what} of ${length.toLocaleString('en-US')} characters is too long (limit ${MAX_STRING_LENGTH.toLocaleString('en-US')})`,
    fix: 'shorten it: a persona, a question or a note needs a few hundred words, not tens of thousands',
  };
}

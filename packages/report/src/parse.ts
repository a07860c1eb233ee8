import { err, ok, type Result } from 'neverthrow';
import type { z } from 'zod';
import { dataPathLocator, formatDataPath, parseJsonText, type DataPath } from '@conclave/core/data';
import {
  envelopeSchemas,
  RUN_RECORD_FORMAT,
  RUN_RECORD_KINDS,
  RUN_RECORD_VERSION,
  type RunRecord,
  type RunRecordKind,
} from './run-record.js';

/** One problem with a run-record file: where it is (line, column and path), what is wrong, and the fix. */
export interface RunRecordIssue {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  /** The field's path (`parts[1].result`); empty for the file as a whole. */
  readonly path: string;
  readonly message: string;
  readonly fix: string;
}

/** Why a text is not a readable run record: `message` (every problem, each as `file[:line:column] [path: ]message` and an indented `fix:` line) and the same as `issues`. */
export interface RunRecordParseError {
  readonly message: string;
  readonly issues: readonly RunRecordIssue[];
}

/** What `parseRunRecordText` returns: the record, or why it is not one (neverthrow's `Result`, as every conclave parser). */
export type ParseRunRecordResult = Result<RunRecord, RunRecordParseError>;

/** An issue as one block of text, compiler style. */
export function formatRunRecordIssue(issue: RunRecordIssue): string {
  const at = issue.line === undefined ? `${issue.file}:` : `${issue.file}:${issue.line}:${issue.column ?? 1}`;
  return `${at} ${issue.path === '' ? '' : `${issue.path}: `}${issue.message}\n    fix: ${issue.fix}`;
}

function failed(issues: readonly RunRecordIssue[]): ParseRunRecordResult {
  return err({ message: issues.map(formatRunRecordIssue).join('\n'), issues });
}

/** One problem with a record's envelope: where it is, what is wrong and how to fix it. */
export interface EnvelopeIssue {
  readonly path: string;
  /** The same path as keys and indexes, to find its line and column in the file. */
  readonly at: DataPath;
  readonly message: string;
  readonly fix: string;
}

/**
 * Reads a run record from JSON text. Never throws for bad input: a JSON syntax error is reported
 * as `file:line:column`, an envelope problem with its path and a fix, every problem at once.
 * Only the envelope is checked; the payloads are the owning packages' own result types.
 *
 * @example
 * const parsed = parseRunRecordText(await readFile(file, 'utf8'), file);
 * if (parsed.isErr()) { console.error(parsed.error.message); process.exitCode = 2; }
 */
export function parseRunRecordText(text: string, file: string): ParseRunRecordResult {
  if (text.replace(/^\uFEFF/, '').trim() === '') {
    return failed([
      {
        file,
        path: '',
        message: 'the file is empty',
        fix: `pass the JSON file conclave wrote for a run (it starts with {"format": "${RUN_RECORD_FORMAT}", ...})`,
      },
    ]);
  }
  const parsed = parseJsonText(text);
  if (parsed.isErr()) {
    const { line, column, message } = parsed.error;
    // Too deep is not a syntax slip: no run record conclave writes nests that far.
    if (parsed.error.code === 'too_deep')
      return failed([{ file, line, column, path: '', message, fix: 'pass the run record conclave wrote: it never nests this deep' }]);
    return failed([
      {
        file,
        line,
        column,
        path: '',
        message: `invalid JSON: ${message}`,
        fix: 'correct the JSON at this position (a run record is the JSON conclave wrote; edit it only with care)',
      },
    ]);
  }
  const value = parsed.value;
  const issues = checkEnvelope(value);
  if (issues.length > 0) {
    // Each problem at its field in the file (or the nearest enclosing object that exists).
    const locate = dataPathLocator(text);
    return failed(issues.map(({ at, ...issue }) => ({ file, ...locate(at), ...issue })));
  }
  return ok(value as RunRecord);
}

/** Every envelope problem of a parsed value, in document order; empty when it is a run record. */
export function checkEnvelope(value: unknown, at: DataPath = [], allowComposite = true): EnvelopeIssue[] {
  const path = formatDataPath(at);
  const field = (key: string) => ({ path: formatDataPath([...at, key]), at: [...at, key] });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [
      {
        path,
        at,
        message: `not a conclave run record: expected a JSON object, got ${describeValue(value)}`,
        fix: `pass the JSON file conclave wrote for a run (an object with "format": "${RUN_RECORD_FORMAT}")`,
      },
    ];
  }
  const record = value as Record<string, unknown>;
  if (record['format'] !== RUN_RECORD_FORMAT) {
    return [
      {
        ...field('format'),
        message: `not a conclave run record: expected format "${RUN_RECORD_FORMAT}", ${'format' in record ? `got ${describeValue(record['format'])}` : 'but the field is missing'}`,
        fix: `pass a file written by conclave (its "format" is "${RUN_RECORD_FORMAT}")`,
      },
    ];
  }
  if (record['version'] !== RUN_RECORD_VERSION) {
    return [
      {
        ...field('version'),
        message: `unsupported run-record version ${describeValue(record['version'])}: this report reads version ${RUN_RECORD_VERSION}`,
        fix: `render it with the conclave release that wrote it, or run again to write a version ${RUN_RECORD_VERSION} record`,
      },
    ];
  }
  const kinds: readonly RunRecordKind[] = allowComposite ? RUN_RECORD_KINDS : RUN_RECORD_KINDS.filter((kind) => kind !== 'composite');
  const kind = record['kind'];
  if (typeof kind !== 'string' || !(kinds as readonly string[]).includes(kind)) {
    return [
      {
        ...field('kind'),
        message: `${'kind' in record ? `unknown kind ${describeValue(kind)}` : 'the kind is missing'}: expected one of ${kinds.join(', ')}${!allowComposite && kind === 'composite' ? ' (a composite cannot be a part of another)' : ''}`,
        fix: `set "kind" to the kind of run the record holds (${kinds.join(', ')})`,
      },
    ];
  }
  const schema = envelopeSchemas[kind as RunRecordKind] as z.ZodType;
  const parsed = schema.safeParse(value);
  const issues: EnvelopeIssue[] = parsed.success ? [] : parsed.error.issues.map((issue) => fromZod(issue, at));
  if (kind === 'composite' && Array.isArray(record['parts'])) {
    const parts = record['parts'] as unknown[];
    if (parts.length === 0)
      issues.push({
        ...field('parts'),
        message: 'a composite record has no parts',
        fix: 'add the runs it is made of to "parts", or save the single run on its own',
      });
    parts.forEach((p, i) => issues.push(...checkEnvelope(p, [...at, 'parts', i], false)));
  }
  return issues;
}

function fromZod(issue: z.core.$ZodIssue, prefix: DataPath): EnvelopeIssue {
  const at = [...prefix, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))];
  const path = formatDataPath(at);
  const field = path === '' ? 'the record' : path;
  if (issue.code === 'invalid_type') {
    const missing = issue.message.includes('received undefined');
    const wanted = issue.expected === 'record' ? 'object' : issue.expected;
    return missing
      ? {
          path,
          at,
          message: `${field} is missing (expected ${article(wanted)})`,
          fix: `add ${field}: the run's ${wanted} as conclave wrote it`,
        }
      : { path, at, message: `${field} must be ${article(wanted)}: ${issue.message}`, fix: `set ${field} to ${article(wanted)}` };
  }
  return { path, at, message: issue.message, fix: `correct ${field} as the message describes` };
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return 'nothing';
}

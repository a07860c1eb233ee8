import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRunRecordText } from './parse.js';
import { RUN_RECORD_FORMAT, runRecordSchema } from './run-record.js';

const minimal = { format: RUN_RECORD_FORMAT, version: 1, createdAt: '2026-11-22T00:00:00.000Z', offline: true };
const meeting = { ...minimal, kind: 'meeting', brief: { id: 'b' }, result: { outcome: 'decided' } };

function failure(text: string): string {
  const parsed = parseRunRecordText(text, 'runs/demo.json');
  if (parsed.isOk()) throw new Error('expected a failure');
  return parsed.error.message;
}

describe('parseRunRecordText', () => {
  it('refuses a record nested 100,000 deep at its position, with a fix that is not about syntax and no stack overflow', () => {
    const deep = `{"format": "${RUN_RECORD_FORMAT}", "x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const result = parseRunRecordText(deep, 'deep.json');
    expect(result.isErr()).toBe(true);
    if (result.isErr()) {
      expect(result.error.issues).toEqual([
        expect.objectContaining({
          file: 'deep.json',
          line: 1,
          message: expect.stringContaining('too deeply nested') as unknown,
          fix: 'pass the run record conclave wrote: it never nests this deep',
        }),
      ]);
    }
  });

  it('reads a record and hands back the same data', () => {
    const parsed = parseRunRecordText(JSON.stringify(meeting), 'runs/demo.json');
    expect(parsed._unsafeUnwrap()).toEqual(meeting);
  });

  it('tolerates a byte-order mark', () => {
    expect(parseRunRecordText(`\uFEFF${JSON.stringify(meeting)}`, 'x.json').isOk()).toBe(true);
  });

  it('places a JSON syntax error at its line and column, naming the file', () => {
    const text = '{\n  "format": "conclave.run-record",\n  "version": 1,\n}\n';
    expect(failure(text)).toBe(
      'runs/demo.json:4:1 invalid JSON: a trailing comma before } is not allowed in JSON\n    fix: correct the JSON at this position (a run record is the JSON conclave wrote; edit it only with care)',
    );
  });

  it('gives the same problems as structured issues', () => {
    const parsed = parseRunRecordText('{\n  "a": 1,\n}', 'r.json');
    expect(parsed._unsafeUnwrapErr()).toEqual({
      message: expect.any(String) as string,
      issues: [
        {
          file: 'r.json',
          line: 3,
          column: 1,
          path: '',
          message: 'invalid JSON: a trailing comma before } is not allowed in JSON',
          fix: expect.any(String) as string,
        },
      ],
    });
    const envelope = parseRunRecordText(JSON.stringify({ ...minimal, kind: 'task', spec: {}, result: {}, plan: [] }), 'r.json');
    expect(envelope.isOk() ? [] : envelope.error.issues.map((issue) => issue.path)).toEqual(['attempts', 'timeline']);
  });

  it('places a truncated file at its end', () => {
    expect(failure('{"format": "conclave.run-record",\n "parts": [')).toMatch(
      /^runs\/demo\.json:2:12 invalid JSON: a close bracket is expected\n/,
    );
  });

  it('says an empty file is empty', () => {
    expect(failure('  \n')).toMatch(/^runs\/demo\.json: the file is empty\n {4}fix: /);
  });

  it('refuses JSON that is not a run record, naming the expected format, at the top-level value or the format field', () => {
    expect(failure('{"board": "pricing"}')).toBe(
      'runs/demo.json:1:1 format: not a conclave run record: expected format "conclave.run-record", but the field is missing\n    fix: pass a file written by conclave (its "format" is "conclave.run-record")',
    );
    expect(failure('{\n  "board": "pricing",\n  "format": "other"\n}')).toContain(
      'runs/demo.json:3:3 format: not a conclave run record: expected format "conclave.run-record", got "other"',
    );
    expect(failure('\n  [1, 2]')).toContain('runs/demo.json:2:3 not a conclave run record: expected a JSON object, got an array');
  });

  it('refuses another version with a fix', () => {
    expect(failure(JSON.stringify({ ...meeting, version: 2 }))).toMatch(
      /version: unsupported run-record version 2: this report reads version 1\n {4}fix: /,
    );
  });

  it('names an unknown kind and the kinds it knows', () => {
    expect(failure(JSON.stringify({ ...minimal, kind: 'chat' }))).toContain(
      'kind: unknown kind "chat": expected one of debate, verification, meeting, task, composite',
    );
  });

  it('reports every missing payload with its path and a fix', () => {
    const message = failure(JSON.stringify({ ...minimal, kind: 'task', spec: { id: 's' }, result: {}, plan: [] }));
    expect(message).toContain('runs/demo.json:1:1 attempts: attempts is missing (expected an array)\n    fix: add attempts');
    expect(message).toContain('runs/demo.json:1:1 timeline: timeline is missing');
  });

  it('reports a wrong type with its path, at the line and column of the field', () => {
    expect(failure(JSON.stringify({ ...meeting, offline: 'yes' }, null, 2))).toContain(
      'runs/demo.json:5:3 offline: offline must be a boolean',
    );
  });

  it("checks each part of a composite on its own, with the part's path", () => {
    const message = failure(
      JSON.stringify(
        {
          ...minimal,
          kind: 'composite',
          parts: [meeting, { ...minimal, kind: 'debate', board: { id: 'b' } }, { ...meeting, kind: 'composite' }],
        },
        null,
        1,
      ),
    );
    expect(message).toMatch(/runs\/demo\.json:\d+:3 parts\[1\]\.result: parts\[1\]\.result is missing \(expected an object\)/);
    expect(message).toMatch(/runs\/demo\.json:\d+:4 parts\[2\]\.kind: unknown kind "composite"/);
    expect(message).toContain('(a composite cannot be a part of another)');
  });

  it('accepts what runRecordSchema accepts, and refuses what it refuses', () => {
    const samples = [
      meeting,
      { ...meeting, version: 2 },
      { ...minimal, kind: 'composite', parts: [meeting] },
      { ...minimal, kind: 'composite', parts: [{ a: 1 }] },
      { ...meeting, result: [] },
    ];
    for (const sample of samples)
      expect(parseRunRecordText(JSON.stringify(sample), 'x').isOk()).toBe(runRecordSchema.safeParse(sample).success);
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.json().map((json) => json.slice(0, Math.floor(json.length / 2))),
        ),
        (text) => {
          const parsed = parseRunRecordText(text, 'f.json');
          expect(parsed.isOk() !== parsed.isErr()).toBe(true);
          if (parsed.isErr()) expect(parsed.error.message.startsWith('f.json')).toBe(true);
        },
      ),
    );
  });
});

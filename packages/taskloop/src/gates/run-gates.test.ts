import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GateDefinition, Level } from './gate-definition.js';
import type { GateRunContext } from './gate-run-context.js';
import { runGates, selectGates } from './run-gates.js';

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'taskloop-run-gates-')));
  await writeFile(join(workspace, 'a.ts'), 'export {};\n');
  await writeFile(
    join(workspace, 'log.js'),
    'require("node:fs").appendFileSync("order.txt", process.argv[2] + "\\n"); process.exit(Number(process.argv[3] ?? 0))',
  );
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const context = (overrides: Partial<GateRunContext> = {}): GateRunContext => ({
  workspace,
  level: 'balanced',
  taskId: 'T1',
  policy: { allow: ['node log.js'] },
  env: { PATH: dirname(process.execPath) },
  secretValues: [],
  defaultTimeoutMs: 20_000,
  maxOutputBytes: 10_000,
  ...overrides,
});

const gates: GateDefinition[] = [
  { type: 'shell', name: 'lint', run: 'node log.js lint', level: 'speed' },
  { type: 'file_exists', name: 'exists', paths: ['a.ts'] },
  { type: 'shell', name: 'typecheck', run: 'node log.js typecheck', level: 'strict' },
  { type: 'regex', name: 'no-todo', files: ['*.ts'], pattern: 'TODO', mode: 'must_not_match', level: 'balanced', tasks: ['T2'] },
];

describe('selectGates', () => {
  it.each<[Level, string, string[], string[]]>([
    ['speed', 'T1', ['lint'], ['exists', 'typecheck', 'no-todo']],
    ['balanced', 'T1', ['lint', 'exists'], ['typecheck', 'no-todo']],
    ['strict', 'T1', ['lint', 'exists', 'typecheck'], ['no-todo']],
    ['speed', 'T2', ['lint'], ['exists', 'typecheck', 'no-todo']],
    ['balanced', 'T2', ['lint', 'exists', 'no-todo'], ['typecheck']],
    ['strict', 'T2', ['lint', 'exists', 'typecheck', 'no-todo'], []],
  ])('at %s for %s runs %j', (level, taskId, run, skipped) => {
    const selection = selectGates(gates, level, taskId);
    expect(selection.run.map((g) => g.name)).toEqual(run);
    expect(selection.skipped.map((g) => g.name)).toEqual(skipped);
  });

  it('gives a reason for every skipped gate', () => {
    const { skipped } = selectGates(gates, 'balanced', 'T1');
    expect(skipped).toEqual([
      { name: 'typecheck', reason: 'runs at strict and above; this run is balanced' },
      { name: 'no-todo', reason: 'applies only to T2; this task is T1' },
    ]);
  });
});

describe('runGates', () => {
  it('runs the selected gates in order and passes when all pass', async () => {
    const report = await runGates(gates, context({ level: 'strict' }));
    expect(report.passed).toBe(true);
    expect(report.level).toBe('strict');
    expect(report.gates.map((g) => [g.name, g.passed])).toEqual([
      ['lint', true],
      ['exists', true],
      ['typecheck', true],
    ]);
    expect(report.skipped.map((s) => s.name)).toEqual(['no-todo']);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(join(workspace, 'order.txt'), 'utf8')).toBe('lint\ntypecheck\n');
  });

  it('fails when one gate fails, and still runs the rest', async () => {
    const report = await runGates([{ type: 'shell', name: 'bad', run: 'node log.js bad 1' }, ...gates], context());
    expect(report.passed).toBe(false);
    expect(report.gates.map((g) => [g.name, g.passed])).toEqual([
      ['bad', false],
      ['lint', true],
      ['exists', true],
    ]);
  });

  it('a refused shell gate fails the report', async () => {
    const report = await runGates(gates, context({ policy: undefined }));
    expect(report.passed).toBe(false);
    expect(report.gates[0]?.reason).toMatch(/^refused by the command policy/);
  });

  it('is vacuously passed when no gate applies', async () => {
    expect(await runGates([], context())).toEqual({ level: 'balanced', gates: [], passed: true, skipped: [] });
  });

  it('fails gates not yet run after an abort', async () => {
    const report = await runGates(gates, context({ signal: AbortSignal.abort() }));
    expect(report.passed).toBe(false);
    expect(report.gates.map((g) => g.reason)).toEqual(['aborted before it ran', 'aborted before it ran']);
  });
});

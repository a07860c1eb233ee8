import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin } from './test-support/run-bin.js';
import { examples, goBoard, removeTempDirs, runMain, tempDir } from './test-support/run-main.js';

afterAll(removeTempDirs);

const noStack = /\n\s+at /;

interface Track {
  readonly version: number;
  readonly entries: readonly { readonly outcome?: string }[];
}
interface RunRecordFile {
  decision: { id: string; consensus: { verdict: string; members: { verdict: string }[] } };
}
const parse = <T>(text: string): T => JSON.parse(text) as T;

/** A debate run record of the example board, written by the real binary. */
async function debateRecord(dir: string, name: string, question: string): Promise<void> {
  const run = await runBin(['debate', join(examples, 'boards/product-launch.yaml'), '-q', question, '--out', name], dir, { from: 'built' });
  expect(run.code).toBe(1); // the offline board says PIVOT
}

describe('conclave calibrate (the real binary)', () => {
  it('records debates, labels outcomes, shows the learned weights and decides with them, writing the track atomically', async () => {
    const dir = await tempDir();
    await debateRecord(dir, 'one.json', 'launch in Brazil');
    await debateRecord(dir, 'two.json', 'launch in Chile');
    const recorded = await runBin(['calibrate', 'record', 'one.json', '--track', 'track.json', '--outcome', 'NO_GO', '--json'], dir, {
      from: 'built',
    });
    expect(recorded.code).toBe(0);
    expect(parse<object>(recorded.stdout)).toMatchObject({ command: 'calibrate record', members: 6, outcome: 'NO_GO' });
    expect((await runBin(['calibrate', 'record', 'two.json', '--track', 'track.json'], dir, { from: 'built' })).code).toBe(0);
    const { id } = parse<RunRecordFile>(await readFile(join(dir, 'two.json'), 'utf8')).decision;
    expect((await runBin(['calibrate', 'outcome', id, 'NO_GO', '--track', 'track.json'], dir, { from: 'built' })).code).toBe(0);
    const track = parse<Track>(await readFile(join(dir, 'track.json'), 'utf8'));
    expect(track.version).toBe(1);
    expect(track.entries).toHaveLength(12);
    expect(track.entries.every((e) => e.outcome === 'NO_GO')).toBe(true);
    // No temporary file is left beside it.
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const show = await runBin(['calibrate', 'show', '--track', 'track.json', '--json'], dir, { from: 'built' });
    expect(show.code).toBe(0);
    const { members } = parse<{ calibration: { members: { key: string; evidence: number }[] } }>(show.stdout).calibration;
    expect(members.map((m) => m.evidence)).toEqual(members.map(() => 2));

    // Five of six members did not say GO, and they were right twice: the calibrated rule says NO_GO, exit 1.
    const decide = await runBin(['calibrate', 'decide', 'one.json', '--track', 'track.json', '--json'], dir, { from: 'built' });
    expect(decide.code).toBe(1);
    expect(parse<object>(decide.stdout)).toMatchObject({
      command: 'calibrate decide',
      defaultVerdict: 'PIVOT',
      calibrated: { verdict: 'NO_GO' },
    });
  }, 60_000);

  it('a member verdict is recomputed from its scores: a record that claims GO for PIVOT scores gets no GO', async () => {
    const dir = await tempDir();
    await debateRecord(dir, 'run.json', 'launch in Peru');
    const record = parse<RunRecordFile>(await readFile(join(dir, 'run.json'), 'utf8'));
    for (const m of record.decision.consensus.members) m.verdict = 'GO';
    record.decision.consensus.verdict = 'GO';
    await writeFile(join(dir, 'forged.json'), JSON.stringify(record));
    await writeFile(join(dir, 'track.json'), JSON.stringify({ version: 1, entries: [] }));
    const decide = await runBin(['calibrate', 'decide', 'forged.json', '--track', 'track.json', '--json'], dir, { from: 'built' });
    expect(decide.code).toBe(1);
    expect(parse<{ calibrated: { verdict: string } }>(decide.stdout).calibrated.verdict).toBe('NO_GO');
  }, 60_000);

  it('bad input exits 2 with the file and a fix, never a stack trace, and loses nothing', async () => {
    const dir = await tempDir();
    await debateRecord(dir, 'run.json', 'launch in Mexico');
    const cases: [string[], RegExp][] = [
      [
        ['calibrate', 'decide', 'run.json', '--track', 'missing.json'],
        /missing\.json: no such track record file[\s\S]*fix: record a decision first/,
      ],
      [['calibrate', 'record', 'run.json', '--track', 't.json', '--outcome', 'PIVOT'], /the outcome must be GO or NO_GO[\s\S]*fix:/],
      [
        ['calibrate', 'outcome', 'nope', 'GO', '--track', 'bad.json'],
        /bad\.json:2:\d+ entries\.0: verdict must be GO, PIVOT or NO_GO[\s\S]*fix:/,
      ],
      [['calibrate', 'decide', 'run.json', '--track', 'bad.json', '--false-go-rate', '2'], /--false-go-rate must be between 0 and 1/],
    ];
    const bad = '{ "version": 1, "entries": [\n  { "decisionId": "d", "memberId": "m", "verdict": "MAYBE" } ] }\n';
    await writeFile(join(dir, 'bad.json'), bad);
    for (const [args, message] of cases) {
      const run = await runBin(args, dir, { from: 'built' });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(noStack);
    }
    expect(await readFile(join(dir, 'bad.json'), 'utf8')).toBe(bad);
    expect((await readdir(dir)).includes('t.json')).toBe(false);
  }, 60_000);
});

describe('conclave calibrate decide: the exit-code contract, through the real binary', () => {
  it('exit 0 ⇔ a calibrated GO, which needs the quorum and a counted member who said GO, for any track record and cost', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'board.yaml'), goBoard);
    // Its members vote GO; the debate's own exit depends on the gate's evidence rules, not read here.
    await runBin(['debate', 'board.yaml', '-q', 'raise prices 10%', '--out', 'go.json'], dir, { from: 'built' });
    expect(
      parse<RunRecordFile>(await readFile(join(dir, 'go.json'), 'utf8')).decision.consensus.members.some((m) => m.verdict === 'GO'),
    ).toBe(true);
    await debateRecord(dir, 'pivot.json', 'launch in Brazil');
    const ids = ['cfo', 'pm', 'cto', 'skeptic', 'head-of-product', 'contrarian'];
    const entry = fc.record({
      memberId: fc.constantFrom(...ids),
      verdict: fc.constantFrom('GO', 'PIVOT', 'NO_GO'),
      outcome: fc.constantFrom('GO', 'NO_GO'),
    });
    let i = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { maxLength: 30 }),
        fc.constantFrom('go.json', 'pivot.json'),
        fc.oneof(fc.constant(undefined), fc.double({ min: 0.05, max: 20, noNaN: true })),
        async (entries, record, cost) => {
          const track = `track-${(i += 1)}.json`;
          await writeFile(
            join(dir, track),
            JSON.stringify({ version: 1, entries: entries.map((e, k) => ({ ...e, decisionId: `d${k % 7}` })) }),
          );
          const run = await runBin(
            [
              'calibrate',
              'decide',
              record,
              '--track',
              track,
              '--json',
              ...(cost === undefined ? [] : ['--cost-of-false-go', String(cost)]),
            ],
            dir,
            { from: 'built' },
          );
          expect([0, 1]).toContain(run.code);
          const { calibrated } = parse<{
            calibrated: { verdict: string; validVotes: number; members?: { verdict: string; weight: number }[] };
          }>(run.stdout);
          expect(run.code === 0).toBe(calibrated.verdict === 'GO');
          if (run.code === 0) {
            expect(calibrated.validVotes).toBeGreaterThanOrEqual(3);
            // A member whose vote counts (a weight above 0) said GO. Its effective weight may be 0:
            // in a family counted as one term, a GO and a NO_GO of equal weight net to nothing, and
            // then the prior and the stated cost decide (here a false GO costs a twentieth).
            expect(calibrated.members?.some((m) => m.verdict === 'GO' && m.weight > 0)).toBe(true);
          }
        },
      ),
      {
        numRuns: 12,
        examples: [
          // Found by CI: a GO whose only weighted GO voter's family term nets to 0 (effective weight 0).
          [
            [
              { memberId: 'cfo', verdict: 'NO_GO', outcome: 'GO' },
              { memberId: 'cfo', verdict: 'NO_GO', outcome: 'GO' },
              { memberId: 'cto', verdict: 'GO', outcome: 'NO_GO' },
              { memberId: 'cto', verdict: 'NO_GO', outcome: 'GO' },
            ],
            'go.json',
            0.05,
          ],
        ],
      },
    );
  }, 60_000);
});

describe('conclave debate --track (a board with the calibrated rule)', () => {
  it('decides by the track record, reports each weight with its reason and P(GO is right), and refuses a missing track', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'board.yaml'), `${goBoard}decision: { rule: calibrated, costOfFalseGo: 2 }\n`);
    // The CFO was right on ten labelled decisions, the PM wrong on all of them.
    const entries = Array.from({ length: 10 }, (_, d) => [
      { decisionId: `d${d}`, memberId: 'cfo', verdict: 'GO', outcome: 'GO' },
      { decisionId: `d${d}`, memberId: 'pm', verdict: 'NO_GO', outcome: 'GO' },
    ]).flat();
    await writeFile(join(dir, 'track.json'), JSON.stringify({ version: 1, entries }));
    const run = await runMain(['debate', 'board.yaml', '-q', 'raise prices', '--track', 'track.json', '--tier', 'T1', '--json'], {
      cwd: dir,
    });
    const out = parse<{
      rule: { rule: string; costOfFalseGo: number };
      probabilityGo: number;
      weights: { memberId: string; weight: number; reason: string }[];
      warnings: string[];
    }>(run.stdout);
    expect(out.rule).toMatchObject({ rule: 'calibrated', costOfFalseGo: 2 });
    expect(out.probabilityGo).toBeGreaterThan(0);
    expect(out.weights.find((w) => w.memberId === 'cfo')?.reason).toMatch(/reliability 0\.8\d over 10 labelled decisions/);
    expect(out.weights.find((w) => w.memberId === 'pm')?.weight).toBe(0);
    expect(out.warnings[0]).toMatch(/offline:analyst family holds/);
    const text = await runMain(['debate', 'board.yaml', '-q', 'raise prices', '--track', 'track.json', '--tier', 'T1'], { cwd: dir });
    expect(text.stdout).toMatch(/Rule: calibrated \(cost of a false GO 2 : 1\) → (GO|NO_GO); P\(GO is right\) 0\.\d\d/);
    const missing = await runMain(['debate', 'board.yaml', '-q', 'raise prices', '--track', 'nope.json'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: no such track record file/);
    expect(missing.stderr).not.toMatch(noStack);
  }, 60_000);
});

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { aggregateConsensus, VERDICTS, type Vote } from '@conclave/scoring';
import { decisionRecord } from '@conclave/testing';
import { PANEL_TIER, tierAtLeast, TIERS, verifyDecision, verifyPanel, type DecisionRecord, type Tier } from '@conclave/verifier';
import * as fc from 'fast-check';
import pLimit from 'p-limit';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin, type BinRun } from './test-support/run-bin.js';
import { examples, offlineAgent, removeTempDirs, sampleRepo, tempDir } from './test-support/run-main.js';

// The exit-code contract of docs/cli.md, as properties over generated inputs, checked through the
// real binary in child processes: a shell script acts on exit 0, so exit 0 must mean "act".

afterAll(removeTempDirs);

/** Child processes at once (two cores; each child is mostly start-up). */
const limit = pLimit(4);
const each = <T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]> =>
  Promise.all(items.map((item, i) => limit(() => fn(item, i))));

/** The one JSON document `--json` prints; its exitCode is the process's. */
function jsonOf(run: BinRun): Record<string, unknown> {
  const parsed = JSON.parse(run.stdout) as Record<string, unknown>;
  expect(parsed.exitCode).toBe(run.code);
  return parsed;
}

function noStackTrace(run: BinRun): void {
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

// ---------------------------------------------------------------------------------------------
// The oracle, computed here from the record as the CLI read it (after a JSON round trip).

/** The verdict the votes earn, recomputed from scratch; NO_GO when they cannot be read. */
function earnedVerdict(record: DecisionRecord): string {
  try {
    const consensus = aggregateConsensus(record.votes as readonly Vote[], { rubric: record.rubric, minValidVotes: record.minValidVotes });
    return consensus.status === 'scored' ? consensus.verdict : 'NO_GO';
  } catch {
    return 'NO_GO';
  }
}

/** Whether the record is a GO its votes earn. */
function isGo(record: DecisionRecord): boolean {
  try {
    return record.consensus.verdict === 'GO' && earnedVerdict(record) === 'GO';
  } catch {
    return false;
  }
}

/** The tier's check approves: the verifier below T3; at T3 and above a fresh panel, quorum 2, with no veto. */
function checksApprove(record: DecisionRecord, tier: Tier): boolean {
  if (!tierAtLeast(tier, PANEL_TIER)) return verifyDecision(record).approved;
  const panel = verifyPanel(record, { quorum: 2 });
  return panel.status === 'approved' && panel.vetoedBy.length === 0 && panel.approvals >= 2;
}

/** exit 0 is allowed exactly when this holds: verdict GO ∧ the tier's check approved ∧ no veto. */
function mayAct(data: unknown, tier: unknown): boolean {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
  if (!(TIERS as readonly unknown[]).includes(tier)) return false;
  const record = data as DecisionRecord;
  return isGo(record) && checksApprove(record, tier as Tier);
}

// ---------------------------------------------------------------------------------------------
// Inputs

/** Honest records of every verdict, sound or not, and records whose stated verdict was changed. */
const records: fc.Arbitrary<DecisionRecord> = fc.oneof(
  decisionRecord(),
  fc.constantFrom(...VERDICTS).chain((verdict) => decisionRecord({ verdict, sound: true })),
  fc
    .tuple(decisionRecord({ sound: true }), fc.constantFrom(...VERDICTS))
    .map(([record, stated]) => ({ ...record, consensus: { ...record.consensus, verdict: stated } }) as DecisionRecord),
);

/** What `verify` and `gate` read: a record at any tier, bare or inside a run record, or any JSON at all. */
const decisionFiles: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(records, fc.constantFrom(...TIERS)).map(([record, tier]) => ({ ...record, tier })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(records, fc.constantFrom(...TIERS))
      .map(([record, tier]) => ({ format: 'conclave.run-record', version: 1, kind: 'debate', decision: { ...record, tier } })),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** A record every check approves, with a GO its votes earn. */
const soundGo: DecisionRecord = fc.sample(decisionRecord({ verdict: 'GO', sound: true, tier: 'T1' }), 1)[0] as DecisionRecord;

/** The decision inside a file as `verify` and `gate` read it. */
function decisionIn(file: unknown): unknown {
  const object = file as { format?: unknown; decision?: unknown } | null;
  return object !== null && typeof object === 'object' && object.format === 'conclave.run-record' ? object.decision : file;
}

describe('the exit-code contract, through the real binary', () => {
  it("gate and verify: exit 0 ⇔ the votes earn GO, the record says GO, and the tier's check approved with no veto", async () => {
    const dir = await tempDir();
    let acted = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(decisionFiles, fc.option(fc.constantFrom(...TIERS), { nil: undefined })), { minLength: 6, maxLength: 6 }),
        async (batch) => {
          await each(batch, async ([file, tierFlag], i) => {
            const name = `record-${i}.json`;
            await writeFile(join(dir, name), JSON.stringify(file));
            const read = JSON.parse(JSON.stringify(file)) as unknown;
            const decision = decisionIn(read);
            const recordTier = (decision as { tier?: unknown } | null)?.tier;

            const gate = await runBin(['gate', name, '--json', ...(tierFlag === undefined ? [] : ['--tier', tierFlag])], dir, {
              from: 'built',
            });
            noStackTrace(gate);
            jsonOf(gate);
            expect([0, 1, 2]).toContain(gate.code); // a fresh panel per run never escalates
            const gateMayAct = mayAct(decision, tierFlag ?? recordTier);
            expect(gate.code === 0).toBe(gateMayAct);

            const verify = await runBin(['verify', name, '--json'], dir, { from: 'built' });
            noStackTrace(verify);
            jsonOf(verify);
            expect([0, 1, 2]).toContain(verify.code);
            const verifyMayAct =
              decision !== null &&
              typeof decision === 'object' &&
              !Array.isArray(decision) &&
              isGo(decision as DecisionRecord) &&
              verifyDecision(decision as DecisionRecord).approved;
            expect(verify.code === 0).toBe(verifyMayAct);
            runs += 1;
            if (gate.code === 0) acted += 1;
          });
        },
      ),
      // The first batch holds a sound GO at T1, so both sides of the contract are always reached.
      { numRuns: 5, examples: [[[[soundGo, 'T1'], ...fc.sample(fc.tuple(decisionFiles, fc.constant(undefined)), 5)]]] },
    );
    expect(runs).toBe(30);
    // The generator reaches both sides of the contract (sound GO records are common in it).
    expect(acted).toBeGreaterThan(0);
  }, 300_000);

  it("debate: exit 0 ⇔ the verdict is GO and the tier's gate approved; otherwise 1; the record says why", async () => {
    const dir = await tempDir();
    const axes = ['feasibility', 'revenue', 'cx', 'ttm', 'risk'] as const;
    const boards = fc.record({
      // Half the boards get strong facts, so GO (and exit 0) is reached as well as PIVOT and NO_GO.
      facts: fc.boolean().chain((strong) => fc.tuple(...axes.map(() => fc.integer({ min: strong ? 8 : 0, max: 10 })))),
      analysts: fc.integer({ min: 1, max: 4 }),
      contrarian: fc.boolean(),
      minValidVotes: fc.integer({ min: 1, max: 5 }),
      tier: fc.constantFrom(...TIERS),
      passed: fc.boolean(),
    });
    // A board that reaches an approved GO, first, so exit 0 is always among the cases.
    const goBoard = {
      facts: [9, 9, 9, 9, 9] as [number, number, number, number, number],
      analysts: 3,
      contrarian: true,
      minValidVotes: 3,
      tier: 'T3' as const,
      passed: true,
    };
    const codes = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.array(boards, { minLength: 4, maxLength: 4 }), async (batch) => {
        await each(batch, async (b, i) => {
          const yaml = [
            `id: generated-${i}`,
            'question: "Should we {{question}}?"',
            `quorum: { minValidVotes: ${b.minValidVotes} }`,
            'facts:',
            ...axes.map((axis, a) => `  - { axis: ${axis}, value: ${b.facts[a] ?? 0}, note: "generated" }`),
            'phases:',
            '  - name: analysis',
            '    members:',
            ...Array.from(
              { length: b.analysts },
              (_, m) => `      - { id: analyst-${m}, persona: Analyst ${m}, model: "offline:analyst" }`,
            ),
            ...(b.contrarian
              ? [
                  '  - name: challenge',
                  '    contrarian: true',
                  '    members: [{ id: skeptic, persona: Finds the flaw, model: "offline:contrarian" }]',
                ]
              : []),
            '',
          ].join('\n');
          await writeFile(join(dir, `board-${i}.yaml`), yaml);
          const out = `debate-${i}.json`;
          const run = await runBin(
            [
              'debate',
              `board-${i}.yaml`,
              '-q',
              'ship it',
              '--tier',
              b.tier,
              '--out',
              out,
              '--json',
              ...(b.passed ? ['--passed', 'e2e suite'] : []),
            ],
            dir,
            { from: 'built' },
          );
          noStackTrace(run);
          const json = jsonOf(run);
          const members = b.analysts + (b.contrarian ? 1 : 0);
          if (b.minValidVotes > members) {
            // A quorum the board can never reach does not load: a usage error, and no record.
            expect(run.code).toBe(2);
            expect(run.stderr).toContain('quorum.minValidVotes');
            return;
          }
          expect([0, 1]).toContain(run.code);
          codes.add(run.code);
          const record = JSON.parse(await readFile(join(dir, out), 'utf8')) as { result: { verdict: string }; decision: DecisionRecord };
          expect(json.verdict).toBe(record.result.verdict);
          const acts = record.result.verdict === 'GO' && mayAct(record.decision, b.tier);
          expect(run.code === 0).toBe(acts);
        });
      }),
      { numRuns: 4, examples: [[[goBoard, ...fc.sample(boards, 3)]]] },
    );
    expect([...codes].sort()).toEqual([0, 1]);
  }, 300_000);

  it('meet: exit 0 ⇔ a converged decision, 3 ⇔ a provisional one, 1 ⇔ none; the ADR stays proposed', async () => {
    const dir = await tempDir();
    const names = ['ana', 'bo', 'cy', 'dee', 'eli', 'fay', 'gus', 'hal', 'ivy', 'jo'];
    const briefs = fc.record({
      options: fc.integer({ min: 2, max: 4 }),
      roster: fc.uniqueArray(fc.constantFrom(...names), { minLength: 3, maxLength: 6 }),
      maxRounds: fc.integer({ min: 1, max: 4 }),
    });
    const codes = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.array(briefs, { minLength: 4, maxLength: 4 }), async (batch) => {
        await each(batch, async (b, i) => {
          const yaml = [
            'question: Which option should we take?',
            'options:',
            ...Array.from({ length: b.options }, (_, o) => `  - { id: option-${o}, title: Option ${o}, summary: The option number ${o}. }`),
            'roster:',
            ...b.roster.map(
              (id, m) =>
                `  - { id: ${id}, role: engineer ${id}, focusAreas: [cost], disposition: curious, model: "offline:member"${m === 0 ? ', facilitator: true' : ''} }`,
            ),
            '',
          ].join('\n');
          await writeFile(join(dir, `brief-${i}.yaml`), yaml);
          const out = `meeting-${i}.json`;
          const run = await runBin(['meet', `brief-${i}.yaml`, '--max-rounds', String(b.maxRounds), '--out', out, '--json'], dir, {
            from: 'built',
          });
          noStackTrace(run);
          jsonOf(run);
          codes.add(run.code);
          const record = JSON.parse(await readFile(join(dir, out), 'utf8')) as {
            result: { outcome: string; synthesis?: { decision: { status: string } } };
          };
          const { outcome, synthesis } = record.result;
          const expected = outcome === 'decided' && synthesis !== undefined ? (synthesis.decision.status === 'converged' ? 0 : 3) : 1;
          expect(run.code).toBe(expected);
          if (run.code !== 1) expect(run.stdout).not.toMatch(/Status: accepted/);
        });
      }),
      // The first batch holds a small meeting with rounds to spare, so a converged one (exit 0) comes up on every seed.
      {
        numRuns: 3,
        examples: [[[{ options: 2, roster: ['ana', 'bo', 'cy'], maxRounds: 4 }, ...fc.sample(briefs, { numRuns: 3, seed: 1 })]]],
      },
    );
    expect(codes.has(0)).toBe(true);
  }, 300_000);

  it('task run: exit 0 ⇔ every task of the plan is ticked after an attempt whose gates all passed', async () => {
    const template = await readFile(join(examples, 'tasks/add-farewell.md'), 'utf8');
    const builders = {
      'offline agent': offlineAgent,
      'claims done, does nothing': `'${process.execPath}' -e "console.log('All done, every test passes.')"`,
      crashes: `'${process.execPath}' -e "process.exit(3)"`,
      'ticks the plan itself': `'${process.execPath}' -e "const fs=require('fs');for(const f of fs.readdirSync('.conclave',{recursive:true}).map(String).filter(f=>f.endsWith('plan.md'))){const p='.conclave/'+f;fs.writeFileSync(p,fs.readFileSync(p,'utf8').replaceAll('[ ]','[x]'))}"`,
    } as const;
    const runs = fc.record({
      builder: fc.constantFrom(...(Object.keys(builders) as (keyof typeof builders)[])),
      level: fc.constantFrom('speed', 'balanced', 'strict'),
      maxRetries: fc.integer({ min: 0, max: 2 }),
    });
    const codes = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.array(runs, { minLength: 3, maxLength: 3 }), async (batch) => {
        await each(batch, async (r) => {
          const workspace = await sampleRepo();
          const cwd = await tempDir();
          const spec = template.replace(/^level: .*$/m, `level: ${r.level}`).replace(/maxRetries: \d+/, `maxRetries: ${r.maxRetries}`);
          await writeFile(join(cwd, 'spec.md'), spec);
          const run = await runBin(
            [
              'task',
              'run',
              join(cwd, 'spec.md'),
              '--workspace',
              workspace,
              '--builder',
              builders[r.builder],
              '--allow',
              'node --test',
              '--out',
              'task.json',
              '--json',
            ],
            cwd,
            { from: 'built' },
          );
          noStackTrace(run);
          const json = jsonOf(run);
          expect([0, 1, 3]).toContain(run.code);
          codes.add(run.code);
          const record = JSON.parse(await readFile(join(cwd, 'task.json'), 'utf8')) as {
            result: { outcome: string };
            plan: { id: string; checked: boolean; depth: number }[];
            attempts: { taskId: string; decision: string; gates: { passed: boolean }[] }[];
          };
          expect(json.outcome).toBe(record.result.outcome);
          const leaves = record.plan.filter(
            (item, k) => !(record.plan[k + 1] !== undefined && (record.plan[k + 1]?.depth ?? 0) > item.depth),
          );
          // At level speed a task with no speed gate passes when the builder ran properly (docs/taskloop.md, Levels).
          const gated = (a: { gates: { passed: boolean }[] }) =>
            (a.gates.length > 0 || r.level === 'speed') && a.gates.every((g) => g.passed);
          const proven = leaves.every(
            (leaf) => leaf.checked && record.attempts.some((a) => a.taskId === leaf.id && a.decision === 'passed' && gated(a)),
          );
          const allTicked = record.plan.every((item) => item.checked);
          if (run.code === 0) expect(proven && allTicked && record.result.outcome === 'completed').toBe(true);
          expect(run.code === 0).toBe(record.result.outcome === 'completed');
          // Where the test suite gates the work, a builder that does none never completes the run, whatever it says or writes.
          if (r.builder !== 'offline agent' && r.level !== 'speed') expect(run.code).not.toBe(0);
        });
      }),
      // The first batch: the honest agent, and an idle and a crashing builder where tests gate the work.
      {
        numRuns: 2,
        examples: [
          [
            [
              { builder: 'offline agent', level: 'balanced', maxRetries: 1 },
              { builder: 'claims done, does nothing', level: 'balanced', maxRetries: 0 },
              { builder: 'crashes', level: 'strict', maxRetries: 0 },
            ],
          ],
        ],
      },
    );
    expect([...codes].sort()).toEqual([0, 1]);
  }, 600_000);
});

import { mkdir, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ledgerBaseFile, ownBase, serializeLedgerRecord } from './ledger-record.js';
import { checkLedger, flip, initLedger, openLedger, restoreLedger, type PlanLedger } from './plan-ledger.js';
import { parsePlan } from './plan-parse.js';
import { planFromTasks } from './plan-render.js';
import { nextRunnable } from './plan-runnable.js';
import { sha256 } from './sha256.js';

const PLAN = planFromTasks(['Set up', { title: 'Build', children: ['Form', 'Validation'] }, 'Ship']);
const SPLIT_PLAN = planFromTasks([
  'Set up',
  { title: 'Build', children: ['Form', { title: 'Validation', children: ['Rules'] }] },
  { title: 'Ship', id: 'ship' },
]);

describe('plan ledger', () => {
  let workspace: string;
  const planPath = () => join(workspace, '.conclave', 'plan.md');
  const ledgerPath = () => join(workspace, '.conclave', 'ledger.json');
  const readPlan = () => readFile(planPath(), 'utf8');

  beforeEach(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'taskloop-ledger-'));
  });
  afterEach(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  async function init(text = PLAN): Promise<PlanLedger> {
    const result = await initLedger(workspace, text);
    if (!result.ok) throw new Error(JSON.stringify(result));
    return result.ledger;
  }

  it('initialises, flips leaves and completes a parent with its last subtask', async () => {
    const ledger = await init();
    expect(await readPlan()).toBe(PLAN);
    expect(await flip(ledger, '1')).toMatchObject({ ok: true, flipped: ['1'] });
    expect(await flip(ledger, '2.1')).toMatchObject({ ok: true, flipped: ['2.1'] });
    const last = await flip(ledger, '2.2');
    expect(last).toMatchObject({ ok: true, flipped: ['2.2', '2'] });
    expect(await readPlan()).toBe('# Plan\n\n- [x] Set up\n- [x] Build\n  - [x] Form\n  - [x] Validation\n- [ ] Ship\n');
    expect(ledger.plan.items.filter((i) => i.checked).map((i) => i.id)).toEqual(['1', '2', '2.1', '2.2']);
    // The record names the plan by its base plan and the boxes ticked since, not by a copy of it.
    const ticked = ['[ ] Set up', '[ ] Build', '[ ] Form', '[ ] Validation'].map((box) => PLAN.indexOf(box));
    expect(JSON.parse(await readFile(ledgerPath(), 'utf8'))).toEqual({
      version: 2,
      current: { sha256: sha256(await readPlan()), base: sha256(PLAN), ticks: [ticked[0], ticked[2], ticked[3], ticked[1]] },
    });
    expect(await readFile(join(workspace, ledgerBaseFile(sha256(PLAN))), 'utf8')).toBe(PLAN);
    expect((await readdir(join(workspace, '.conclave'))).sort()).toEqual([`ledger-base-${sha256(PLAN)}.md`, 'ledger.json', 'plan.md']);
    expect(await checkLedger(ledger)).toEqual({ ok: true });
  });

  it('refuses unknown, already checked and non-runnable items without writing', async () => {
    const ledger = await init();
    await flip(ledger, '1');
    const before = await readPlan();
    expect(await flip(ledger, 'nope')).toMatchObject({ ok: false, kind: 'unknown_item' });
    expect(await flip(ledger, '1')).toMatchObject({ ok: false, kind: 'already_checked' });
    expect(await flip(ledger, '2')).toMatchObject({
      ok: false,
      kind: 'not_runnable',
      message: 'task "2" still has open subtasks: 2.1, 2.2',
    });
    expect(await readPlan()).toBe(before);
  });

  it('refuses an invalid plan and a second init', async () => {
    expect(await initLedger(workspace, '- not a task\n')).toMatchObject({
      ok: false,
      kind: 'plan_invalid',
      issues: [{ code: 'not_a_task', line: 1 }],
    });
    await init();
    expect(await initLedger(workspace, PLAN)).toMatchObject({ ok: false, kind: 'ledger_exists' });
  });

  it('serialises concurrent flips in call order', async () => {
    const ledger = await init();
    const results = await Promise.all([flip(ledger, '1'), flip(ledger, '2.1'), flip(ledger, '2.1')]);
    expect(results.map((r) => (r.ok ? 'ok' : r.kind))).toEqual(['ok', 'ok', 'already_checked']);
  });

  describe('tampering', () => {
    const cases: [string, (text: string) => Promise<void>, 'modified' | 'deleted', RegExp][] = [
      [
        'a builder ticks a box',
        (text) => writeFile(planPath(), text.replace('- [ ] Ship', '- [x] Ship')),
        'modified',
        /-- \[ \] Ship\n\+- \[x\] Ship/,
      ],
      [
        'a builder rewords a task',
        (text) => writeFile(planPath(), text.replace('Form', 'Form and styling')),
        'modified',
        /- {2}- \[ \] Form\n\+ {2}- \[ \] Form and styling/,
      ],
      ['a builder deletes the file', () => unlink(planPath()), 'deleted', /-- \[ \] Set up/],
    ];
    for (const [name, tamper, detail, diff] of cases) {
      it(`detects that ${name}, with a diff, and writes nothing`, async () => {
        const ledger = await init();
        await tamper(PLAN);
        const tampered = await readFile(planPath(), 'utf8').catch(() => undefined);
        const record = await readFile(ledgerPath(), 'utf8');
        const check = await checkLedger(ledger);
        expect(check).toMatchObject({ ok: false, kind: 'ledger_tampered', detail });
        expect(!check.ok && check.kind === 'ledger_tampered' && check.diff).toMatch(diff);
        expect(await flip(ledger, '1')).toMatchObject({ ok: false, kind: 'ledger_tampered', detail });
        expect(await readFile(planPath(), 'utf8').catch(() => undefined)).toBe(tampered);
        expect(await readFile(ledgerPath(), 'utf8')).toBe(record);
        expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_tampered', detail });
        const restored = await restoreLedger(ledger);
        expect(restored.ok && restored.discardedDiff).toMatch(diff);
        expect(await readPlan()).toBe(PLAN);
        expect(await flip(ledger, '1')).toMatchObject({ ok: true });
      });
    }

    it('openLedger can put a tampered plan back', async () => {
      await init();
      await writeFile(planPath(), PLAN.replace('Ship', 'Ship it'));
      const opened = await openLedger(workspace, { restoreTampered: true });
      expect(opened).toMatchObject({ ok: true, recovered: 'restored' });
      expect(opened.ok && opened.restoredDiff).toMatch(/\+- \[ \] Ship it/);
      expect(await readPlan()).toBe(PLAN);
    });

    it('an identical rewrite is not tampering', async () => {
      const ledger = await init();
      await writeFile(planPath(), PLAN);
      expect(await checkLedger(ledger)).toEqual({ ok: true });
    });
  });

  describe('crash recovery', () => {
    it('reopens after a flip with the same state', async () => {
      const ledger = await init();
      await flip(ledger, '1');
      const opened = await openLedger(workspace);
      expect(opened.ok && opened.ledger.plan).toEqual(ledger.plan);
      expect(opened.ok && opened.recovered).toBeUndefined();
    });

    it('a kill after the pending record but before plan.md discards the intent', async () => {
      await init();
      const next = PLAN.replace('- [ ] Set up', '- [x] Set up');
      await writeFile(
        ledgerPath(),
        serializeLedgerRecord({
          version: 2,
          current: ownBase(sha256(PLAN)),
          pending: { sha256: sha256(next), ticks: [PLAN.indexOf('[ ] Set up')] },
        }),
      );
      const opened = await openLedger(workspace);
      expect(opened).toMatchObject({ ok: true, recovered: 'pending_discarded' });
      expect(opened.ok && opened.ledger.plan.items[0]?.checked).toBe(false);
      expect(JSON.parse(await readFile(ledgerPath(), 'utf8'))).toEqual({ version: 2, current: ownBase(sha256(PLAN)) });
      expect(opened.ok && (await flip(opened.ledger, '1')).ok).toBe(true);
    });

    it('a plan.md equal to the pending write is that write done, and is folded into the record', async () => {
      await init();
      const next = PLAN.replace('- [ ] Set up', '- [x] Set up');
      await writeFile(
        ledgerPath(),
        serializeLedgerRecord({
          version: 2,
          current: ownBase(sha256(PLAN)),
          pending: { sha256: sha256(next), ticks: [PLAN.indexOf('[ ] Set up')] },
        }),
      );
      await writeFile(planPath(), next);
      const opened = await openLedger(workspace);
      expect(opened).toMatchObject({ ok: true });
      expect(opened.ok && opened.recovered).toBeUndefined();
      expect(opened.ok && opened.ledger.plan.items[0]?.checked).toBe(true);
      expect(JSON.parse(await readFile(ledgerPath(), 'utf8'))).toEqual({
        version: 2,
        current: { sha256: sha256(next), base: sha256(PLAN), ticks: [PLAN.indexOf('[ ] Set up')] },
      });
    });

    it('a plan.md matching neither record is tampering, even with a pending write', async () => {
      await init();
      const next = PLAN.replace('- [ ] Set up', '- [x] Set up');
      await writeFile(
        ledgerPath(),
        serializeLedgerRecord({
          version: 2,
          current: ownBase(sha256(PLAN)),
          pending: { sha256: sha256(next), ticks: [PLAN.indexOf('[ ] Set up')] },
        }),
      );
      await writeFile(planPath(), PLAN.replace('- [ ] Ship', '- [x] Ship'));
      const opened = await openLedger(workspace);
      expect(opened).toMatchObject({ ok: false, kind: 'ledger_tampered' });
      // The diff is against the orchestrator's latest decision, the pending flip.
      expect(!opened.ok && opened.kind === 'ledger_tampered' && opened.diff).toMatch(/-- \[x\] Set up\n\+- \[ \] Set up/);
    });

    it('a builder undoing the last flip is caught after a restart', async () => {
      const ledger = await init();
      await flip(ledger, '1');
      await writeFile(planPath(), PLAN);
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_tampered' });
    });

    it('a builder ticking one runnable box is not taken for a crashed flip after a restart', async () => {
      const ledger = await init();
      await flip(ledger, '1');
      await writeFile(planPath(), (await readPlan()).replace('- [ ] Ship', '- [x] Ship'));
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_tampered' });
    });

    it('a plan.md written without a pending record is tampering (the protocol never does that)', async () => {
      await init();
      await writeFile(planPath(), PLAN.replace('- [ ] Set up', '- [x] Set up'));
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_tampered' });
    });

    it('a kill during the first write lets init run again', async () => {
      await mkdir(join(workspace, '.conclave'));
      await writeFile(ledgerPath(), serializeLedgerRecord({ version: 2, current: null, pending: { sha256: sha256(PLAN) } }));
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_missing' });
      expect(await initLedger(workspace, PLAN)).toMatchObject({ ok: true });
    });

    const corruptMessage = async () => {
      const opened = await openLedger(workspace);
      return opened.ok ? '' : 'message' in opened ? opened.message : '';
    };

    it('reports a missing or corrupt record', async () => {
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_missing' });
      await init();
      await writeFile(ledgerPath(), '{"version":1,"current":{"sha256":"' + '0'.repeat(64) + '","text":"x"}}');
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_corrupt' });
      await writeFile(
        ledgerPath(),
        serializeLedgerRecord({
          version: 1,
          current: { sha256: sha256(PLAN), text: PLAN },
          pending: { sha256: '1'.repeat(64), ticks: [0] },
        }),
      );
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_corrupt' });
      await writeFile(ledgerPath(), 'not json');
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_corrupt' });
      // The base plan the record names, changed or gone.
      await writeFile(ledgerPath(), serializeLedgerRecord({ version: 2, current: ownBase(sha256(PLAN)) }));
      expect(await openLedger(workspace)).toMatchObject({ ok: true });
      const base = join(workspace, ledgerBaseFile(sha256(PLAN)));
      await writeFile(base, PLAN.replace('Ship', 'Sink'));
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_corrupt' });
      expect(await corruptMessage()).toContain('base plan');
      await unlink(base);
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_corrupt' });
      expect(await corruptMessage()).toContain('base plan');
      // Ticks that do not land on an open box.
      await writeFile(base, PLAN);
      await writeFile(
        ledgerPath(),
        serializeLedgerRecord({ version: 2, current: { sha256: sha256(PLAN), base: sha256(PLAN), ticks: [0] } }),
      );
      expect(await openLedger(workspace)).toMatchObject({ ok: false, kind: 'ledger_corrupt' });
    });

    it('resumes a run whose record the first releases wrote (the whole text inline), and rewrites it in the current form', async () => {
      await init();
      const next = PLAN.replace('- [ ] Set up', '- [x] Set up');
      await unlink(join(workspace, ledgerBaseFile(sha256(PLAN))));
      await writeFile(
        ledgerPath(),
        serializeLedgerRecord({
          version: 1,
          current: { sha256: sha256(PLAN), text: PLAN },
          pending: { sha256: sha256(next), ticks: [PLAN.indexOf('[ ] Set up')] },
        }),
      );
      await writeFile(planPath(), next);
      const opened = await openLedger(workspace);
      expect(opened).toMatchObject({ ok: true });
      expect(opened.ok && opened.ledger.plan.items[0]?.checked).toBe(true);
      expect(JSON.parse(await readFile(ledgerPath(), 'utf8'))).toEqual({ version: 2, current: ownBase(sha256(next)) });
      expect(await readFile(join(workspace, ledgerBaseFile(sha256(next))), 'utf8')).toBe(next);
      expect(opened.ok && (await flip(opened.ledger, '3')).ok).toBe(true);
      expect((await openLedger(workspace)).ok).toBe(true);
      // A legacy record that did not reach plan.md: the intent is void, as in the current form.
      await rm(join(workspace, '.conclave'), { recursive: true });
      await init();
      await writeFile(
        ledgerPath(),
        serializeLedgerRecord({ version: 1, current: { sha256: sha256(PLAN), text: PLAN }, pending: { sha256: sha256(next), text: next } }),
      );
      expect(await openLedger(workspace)).toMatchObject({ ok: true, recovered: 'pending_discarded' });
      expect(JSON.parse(await readFile(ledgerPath(), 'utf8'))).toEqual({ version: 2, current: ownBase(sha256(PLAN)) });
    });
  });

  // How a split lands in the plan: subtasks appended under a task.
  it('nests new subtasks under a leaf, numbered from its id; every other task keeps id, text and box', async () => {
    const ledger = await init(SPLIT_PLAN);
    const result = await ledger.appendSubtasks('1', ['Install the toolchain', 'Configure  the\nlinter']);
    expect(result).toMatchObject({ ok: true, added: ['1.1', '1.2'] });
    expect(await readFile(planPath(), 'utf8')).toBe(
      '# Plan\n\n- [ ] Set up\n  - [ ] Install the toolchain\n  - [ ] Configure the linter\n- [ ] Build\n  - [ ] Form\n  - [ ] Validation\n    - [ ] Rules\n- [ ] Ship {#ship}\n',
    );
    expect(nextRunnable(ledger.plan)?.id).toBe('1.1');
    // Flipping the new subtasks completes the split task, as with any parent.
    expect(await ledger.flip('1.1')).toMatchObject({ ok: true, flipped: ['1.1'] });
    expect(await ledger.flip('1.2')).toMatchObject({ ok: true, flipped: ['1.2', '1'] });
  });

  it('appends after existing subtasks and their descendants, at the subtask column; explicit ids number from the id', async () => {
    const ledger = await init(SPLIT_PLAN);
    expect(await ledger.appendSubtasks('2', ['Error messages'])).toMatchObject({ ok: true, added: ['2.3'] });
    expect(await ledger.appendSubtasks('ship', ['Tag the release'])).toMatchObject({ ok: true, added: ['ship.1'] });
    const text = await readFile(planPath(), 'utf8');
    expect(text).toContain('    - [ ] Rules\n  - [ ] Error messages\n- [ ] Ship {#ship}\n  - [ ] Tag the release\n');
    const parsed = parsePlan(text);
    expect(parsed.ok && parsed.plan.items.find((i) => i.id === '2')?.childIds).toEqual(['2.1', '2.2', '2.3']);
  });

  it('refuses a checked task, an unknown one, empty titles and a tampered plan, writing nothing', async () => {
    const ledger = await init(SPLIT_PLAN);
    await ledger.flip('1');
    const before = await readFile(planPath(), 'utf8');
    expect(await ledger.appendSubtasks('1', ['x'])).toMatchObject({ ok: false, kind: 'cannot_append' });
    expect(await ledger.appendSubtasks('nope', ['x'])).toMatchObject({ ok: false, kind: 'unknown_item' });
    expect(await ledger.appendSubtasks('ship', [' '])).toMatchObject({ ok: false, kind: 'cannot_append' });
    expect(await readFile(planPath(), 'utf8')).toBe(before);
    await writeFile(planPath(), before.replace('- [ ] Ship', '- [x] Ship'));
    expect(await ledger.appendSubtasks('ship', ['x'])).toMatchObject({ ok: false, kind: 'ledger_tampered' });
  });

  it('a kill between the pending record and plan.md is recovered either way (the new text is a base plan, written first)', async () => {
    const ledger = await init(SPLIT_PLAN);
    const next = ledger.text.replace('- [ ] Ship {#ship}\n', '- [ ] Ship {#ship}\n  - [ ] Tag\n');
    const record = serializeLedgerRecord({ version: 2, current: ownBase(ledger.sha256), pending: { sha256: sha256(next) } });
    const nextBase = join(workspace, ledgerBaseFile(sha256(next)));
    const oldBase = join(workspace, ledgerBaseFile(ledger.sha256));
    // Killed after the record, before plan.md: the append never happened, and its base plan goes.
    await writeFile(nextBase, next);
    await writeFile(ledgerPath(), record);
    expect(await openLedger(workspace)).toMatchObject({ ok: true, recovered: 'pending_discarded' });
    expect(await readFile(nextBase, 'utf8').catch(() => 'gone')).toBe('gone');
    // Killed after plan.md, before the record caught up: the append stands, and the old base plan goes.
    await writeFile(nextBase, next);
    await writeFile(ledgerPath(), record);
    await writeFile(planPath(), next);
    const reopened = await openLedger(workspace);
    expect(reopened.ok && reopened.ledger.plan.items.map((i) => i.id)).toContain('ship.1');
    expect(JSON.parse(await readFile(ledgerPath(), 'utf8'))).toEqual({ version: 2, current: ownBase(sha256(next)) });
    expect(await readFile(oldBase, 'utf8').catch(() => 'gone')).toBe('gone');
  });

  it('a split leaves one base plan behind, the new text, and later flips tick in it', async () => {
    const ledger = await init(SPLIT_PLAN);
    await ledger.flip('1');
    expect(await ledger.appendSubtasks('ship', ['Tag the release'])).toMatchObject({ ok: true });
    const split = ledger.text;
    expect(await ledger.flip('ship.1')).toMatchObject({ ok: true, flipped: ['ship.1', 'ship'] });
    const bases = (await readdir(join(workspace, '.conclave'))).filter((name) => name.startsWith('ledger-base-'));
    expect(bases).toEqual([`ledger-base-${sha256(split)}.md`]);
    const reopened = await openLedger(workspace);
    expect(reopened.ok && reopened.ledger.text).toBe(ledger.text);
  });
});

import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLedgerRecord } from './ledger-record.js';
import { parsePlan, type PlanItem } from './plan-parse.js';
import { initLedger, openLedger, type PlanLedger } from './plan-ledger.js';
import { planFromTasks, type PlanTaskInput } from './plan-render.js';

/** The system under test: a ledger in a real temp workspace. */
interface Real {
  readonly workspace: string;
  ledger: PlanLedger;
}

/** The model: which tasks the orchestrator has checked, what it last wrote, and what is on disk. */
interface Model {
  items: readonly PlanItem[];
  readonly checked: Set<string>;
  lastWrite: string;
  /** undefined: the file was deleted. */
  disk: string | undefined;
}

const planPath = (real: Real) => join(real.workspace, '.conclave', 'plan.md');
const ledgerPath = (real: Real) => join(real.workspace, '.conclave', 'ledger.json');
const readOrNone = (path: string) => readFile(path, 'utf8').catch(() => undefined);
const tampered = (model: Model) => model.disk !== model.lastWrite;

/** Invariants after every command: the orchestrator's plan parses and its checked set is the model's. */
async function checkInvariants(model: Model, real: Real): Promise<void> {
  const parsed = parsePlan(model.lastWrite);
  expect(parsed.ok).toBe(true);
  if (parsed.ok)
    expect(
      parsed.plan.items
        .filter((i) => i.checked)
        .map((i) => i.id)
        .sort(),
    ).toEqual([...model.checked].sort());
  expect(real.ledger.text).toBe(model.lastWrite);
  expect(await readOrNone(planPath(real))).toBe(model.disk);
  // The record always knows the orchestrator's last write (pending folded onto current).
  const record = readLedgerRecord(real.workspace, (await readOrNone(ledgerPath(real))) ?? '', undefined);
  const recorded = record.ok ? record.intended?.text : record.message;
  expect(recorded).toBe(model.lastWrite);
}

class FlipCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const item = model.items[this.pick % model.items.length] as PlanItem;
    const recordBefore = await readOrNone(ledgerPath(real));
    const result = await real.ledger.flip(item.id);
    if (tampered(model)) {
      // Any tamper is reported before the flip writes anything.
      expect(result).toMatchObject({ ok: false, kind: 'ledger_tampered' });
      expect(await readOrNone(ledgerPath(real))).toBe(recordBefore);
    } else if (model.checked.has(item.id)) {
      expect(result).toMatchObject({ ok: false, kind: 'already_checked' });
    } else if (item.childIds.some((id) => !model.checked.has(id))) {
      expect(result).toMatchObject({ ok: false, kind: 'not_runnable' });
    } else {
      const expected = [item.id];
      model.checked.add(item.id);
      for (
        let parent = parentOf(model, item);
        parent !== undefined && !model.checked.has(parent.id) && parent.childIds.every((id) => model.checked.has(id));
        parent = parentOf(model, parent)
      ) {
        expected.push(parent.id);
        model.checked.add(parent.id);
      }
      expect(result).toMatchObject({ ok: true, flipped: expected });
      model.lastWrite = (await readOrNone(planPath(real))) as string;
      model.disk = model.lastWrite;
    }
    await checkInvariants(model, real);
  }
  toString(): string {
    return `Flip(${this.pick})`;
  }
}

/** The orchestrator splits a task: subtasks appended under it (refused for a checked task). */
class AppendCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly count: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const item = model.items[this.pick % model.items.length] as PlanItem;
    const recordBefore = await readOrNone(ledgerPath(real));
    const titles = Array.from({ length: this.count }, (_, i) => `Split ${i + 1} of ${item.id}`);
    const result = await real.ledger.appendSubtasks(item.id, titles);
    if (tampered(model)) {
      expect(result).toMatchObject({ ok: false, kind: 'ledger_tampered' });
      expect(await readOrNone(ledgerPath(real))).toBe(recordBefore);
    } else if (model.checked.has(item.id)) {
      expect(result).toMatchObject({ ok: false, kind: 'cannot_append' });
    } else {
      expect(result.ok).toBe(true);
      // Old tasks keep their ids and boxes; the new ones are open children of the split task.
      const before = new Map(model.items.map((i) => [i.id, model.checked.has(i.id)]));
      model.items = real.ledger.plan.items;
      for (const [id, checked] of before) expect(model.items.find((i) => i.id === id)?.checked).toBe(checked);
      const added = model.items.filter((i) => !before.has(i.id));
      expect(added.map((i) => [i.parentId, i.checked])).toEqual(titles.map(() => [item.id, false]));
      model.lastWrite = (await readOrNone(planPath(real))) as string;
      model.disk = model.lastWrite;
    }
    await checkInvariants(model, real);
  }
  toString(): string {
    return `Append(${this.pick}, ${this.count})`;
  }
}

type TamperKind = 'tick' | 'untick' | 'reword' | 'append' | 'delete' | 'same' | 'recreate';

class TamperCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: TamperKind,
    readonly at: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const text = model.disk;
    let next: string | undefined;
    if (text === undefined) next = this.kind === 'recreate' ? model.lastWrite : '- [ ] rewritten by a builder\n';
    else if (this.kind === 'delete') next = undefined;
    else if (this.kind === 'same' || this.kind === 'recreate') next = text;
    else if (this.kind === 'append') next = `${text}- [ ] an extra task\n`;
    else if (this.kind === 'reword') {
      const at = text.indexOf('Task', this.at % text.length);
      next = at === -1 ? `${text}\n` : `${text.slice(0, at)}Chore${text.slice(at + 4)}`;
    } else {
      const [from, to] = this.kind === 'tick' ? ['[ ]', '[x]'] : ['[x]', '[ ]'];
      const hits = [...text.matchAll(/\[[ x]\]/g)].filter((m) => m[0] === from).map((m) => m.index);
      const at = hits[this.at % Math.max(1, hits.length)];
      next = at === undefined ? `${text}\n` : `${text.slice(0, at)}${to}${text.slice(at + 3)}`;
    }
    if (next === undefined) await unlink(planPath(real));
    else await writeFile(planPath(real), next);
    model.disk = next;
    // A builder's edit never changes what the orchestrator considers done.
    await checkInvariants(model, real);
  }
  toString(): string {
    return `Tamper(${this.kind}, ${this.at})`;
  }
}

class ReopenCommand implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const opened = await openLedger(real.workspace);
    if (tampered(model)) {
      expect(opened).toMatchObject({ ok: false, kind: 'ledger_tampered' });
    } else {
      expect(opened.ok).toBe(true);
      if (opened.ok) {
        expect(opened.ledger.plan).toEqual(real.ledger.plan);
        real.ledger = opened.ledger;
      }
    }
    await checkInvariants(model, real);
  }
  toString(): string {
    return 'Reopen';
  }
}

class RestoreCommand implements fc.AsyncCommand<Model, Real> {
  check(model: Readonly<Model>): boolean {
    return model.disk !== model.lastWrite;
  }
  async run(model: Model, real: Real): Promise<void> {
    expect(await real.ledger.restore()).toMatchObject({ ok: true });
    model.disk = model.lastWrite;
    await checkInvariants(model, real);
  }
  toString(): string {
    return 'Restore';
  }
}

function parentOf(model: Model, item: PlanItem): PlanItem | undefined {
  return item.parentId === undefined ? undefined : model.items.find((candidate) => candidate.id === item.parentId);
}

const leaf = fc.record({ title: fc.constant('Task'), checked: fc.boolean() });
const middle = fc.record({ title: fc.constant('Task'), children: fc.array(leaf, { maxLength: 2 }) });
const top = fc.record({ title: fc.constant('Task'), children: fc.array(fc.oneof(leaf, middle), { maxLength: 3 }) });
const tasks: fc.Arbitrary<PlanTaskInput[]> = fc.array(fc.oneof(leaf, top), { minLength: 1, maxLength: 4 });

const commands = fc.commands(
  [
    fc.nat(40).map((pick) => new FlipCommand(pick)),
    fc.tuple(fc.nat(40), fc.integer({ min: 1, max: 3 })).map(([pick, count]) => new AppendCommand(pick, count)),
    fc
      .tuple(fc.constantFrom<TamperKind>('tick', 'untick', 'reword', 'append', 'delete', 'same', 'recreate'), fc.nat(40))
      .map(([kind, at]) => new TamperCommand(kind, at)),
    fc.constant(new ReopenCommand()),
    fc.constant(new RestoreCommand()),
  ],
  { maxCommands: 25 },
);

describe('plan ledger (model-based)', () => {
  it('only the orchestrator changes what is checked, and every tamper is caught before a write', async () => {
    await fc.assert(
      fc.asyncProperty(tasks, commands, async (input, cmds) => {
        const workspace = await mkdtemp(join(tmpdir(), 'taskloop-ledger-model-'));
        try {
          const text = planFromTasks(input);
          const init = await initLedger(workspace, text);
          if (!init.ok) throw new Error(JSON.stringify(init));
          const items = init.ledger.plan.items;
          const model: Model = { items, checked: new Set(items.filter((i) => i.checked).map((i) => i.id)), lastWrite: text, disk: text };
          const real: Real = { workspace, ledger: init.ledger };
          await fc.asyncModelRun(() => ({ model, real }), cmds);
        } finally {
          await rm(workspace, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});

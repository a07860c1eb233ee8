import { readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '@conclave/core/internal';
import { writeFileAtomic, type AtomicWriteOptions } from './atomic-write.js';
import {
  ownBase,
  ledgerBaseFile,
  pendingText,
  readLedgerRecord,
  serializeLedgerRecord,
  type PlanRef,
  type RecordedPlan,
} from './ledger-record.js';
import { CONCLAVE_DIR, conclavePath } from './ledger-paths.js';
import { lineDiff } from './line-diff.js';
import { parsePlanMarkdown, type Plan, type PlanIssue, type PlanItem } from './plan-parse.js';
import { sha256 } from './sha256.js';

/** plan.md no longer holds what the orchestrator last wrote: someone else edited or deleted it. */
export interface LedgerTampered {
  readonly ok: false;
  readonly kind: 'ledger_tampered';
  readonly detail: 'modified' | 'deleted';
  /** Unified line diff of the orchestrator's last write (`-`) against the file on disk (`+`). */
  readonly diff: string;
  readonly expectedSha256: string;
  /** Absent when the file is gone. */
  readonly actualSha256?: string;
  readonly message: string;
  readonly fix: string;
}

/** A file of the ledger could not be read or written. */
export interface LedgerIoError {
  readonly ok: false;
  readonly kind: 'io_error';
  readonly path: string;
  readonly message: string;
}

/** What `openLedger` found. */
export type OpenLedgerResult =
  | {
      readonly ok: true;
      readonly ledger: PlanLedger;
      /** `pending_discarded`: a kill hit between recording a flip and writing plan.md (the flip did not happen); `restored`: a tampered plan was put back (see `restoredDiff`). */
      readonly recovered?: 'pending_discarded' | 'restored';
      readonly restoredDiff?: string;
    }
  | LedgerTampered
  | LedgerIoError
  | {
      readonly ok: false;
      readonly kind: 'ledger_missing' | 'ledger_corrupt' | 'ledger_unauthenticated';
      readonly message: string;
      readonly fix: string;
    }
  | { readonly ok: false; readonly kind: 'plan_invalid'; readonly issues: readonly PlanIssue[] };

/** What `initLedger` did. */
export type InitLedgerResult =
  | { readonly ok: true; readonly ledger: PlanLedger }
  | LedgerIoError
  | { readonly ok: false; readonly kind: 'plan_invalid'; readonly issues: readonly PlanIssue[] }
  | { readonly ok: false; readonly kind: 'ledger_exists'; readonly message: string; readonly fix: string };

/** What `flip` did. */
export type FlipResult =
  | {
      readonly ok: true;
      /** The task flipped, then every parent that its flip completed, innermost first. */
      readonly flipped: readonly string[];
      readonly plan: Plan;
    }
  | LedgerTampered
  | LedgerIoError
  | {
      readonly ok: false;
      readonly kind: 'unknown_item' | 'already_checked' | 'not_runnable';
      readonly itemId: string;
      readonly message: string;
    };

/** What `appendSubtasks` did. */
export type AppendResult =
  | { readonly ok: true; readonly added: readonly string[]; readonly plan: Plan }
  | LedgerTampered
  | LedgerIoError
  | { readonly ok: false; readonly kind: 'unknown_item' | 'cannot_append'; readonly itemId: string; readonly message: string };

/** What `checkLedger` found. */
export type CheckLedgerResult = { readonly ok: true } | LedgerTampered | LedgerIoError;

/** What `restoreLedger` did. */
export type RestoreLedgerResult = { readonly ok: true; readonly discardedDiff: string } | LedgerIoError;

/** How the ledger writes. */
export interface LedgerWriteOptions {
  /**
   * fsync every flip's writes (and their folder), so a tick survives a power cut too (default
   * true). Without it each write is still atomic (temp file + rename), which is what a killed
   * process needs; the task loop turns it off because its git commit after every attempt is the
   * run's durable record, and git itself does not fsync by default either.
   */
  readonly durable?: boolean;
  /**
   * The run's key (ADR 0025): every ledger.json record is signed with it, and `openLedger`
   * refuses a record whose signature is missing or wrong (`ledger_unauthenticated`), so a
   * builder that forges plan.md and ledger.json to match does not survive a restart.
   */
  readonly key?: Buffer;
}

/** Options for `openLedger`. */
export interface OpenLedgerOptions extends LedgerWriteOptions {
  /** Put a tampered plan.md back to the orchestrator's last write instead of refusing to open. */
  readonly restoreTampered?: boolean;
}

const TAMPER_FIX =
  'only the orchestrator writes plan.md: put the file back (restoreLedger, or openLedger with restoreTampered) and make the change through the orchestrator';

/**
 * The plan ledger: `.conclave/plan.md`, whose ONLY writer is the orchestrator. Builders may read
 * it; any byte they change (ticking a box, rewording a task, deleting the file) is reported as
 * `ledger_tampered`, with a diff, at the next `flip` or `checkLedger`, before anything is written.
 *
 * Every write records itself in ledger.json (`pending`: the new plan's hash and the boxes it
 * ticks) before it touches plan.md and as `current` after, each write atomic (and fsynced unless
 * `durable: false`), so a
 * kill at any point leaves plan.md equal to the recorded `current` or `pending` and `openLedger`
 * tells a crash from a tamper. A flip does not re-parse the markdown: the ledger keeps the parsed plan and the exact bytes it last wrote, compares the
 * file on disk with those bytes, and edits the one checkbox in place, which keeps every offset
 * and id valid. Operations on one ledger run one at a time, in call order.
 */
export class PlanLedger {
  readonly workspace: string;
  #plan: Plan;
  #text: string;
  #bytes: Buffer;
  #sha: string;
  #ref: PlanRef;
  #index: ReadonlyMap<string, number>;
  readonly #sync: { readonly sync: boolean };
  readonly #key: Buffer | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  /** @internal Use `openLedger` or `initLedger`. */
  constructor(workspace: string, plan: Plan, text: string, ref: PlanRef, options: LedgerWriteOptions = {}) {
    this.#sync = { sync: options.durable !== false };
    this.#key = options.key;
    this.workspace = workspace;
    this.#plan = plan;
    this.#text = text;
    this.#bytes = Buffer.from(text, 'utf8');
    this.#sha = ref.sha256;
    this.#ref = ref;
    this.#index = new Map(plan.items.map((item, i) => [item.id, i]));
  }

  /** The plan as the orchestrator last wrote it. */
  get plan(): Plan {
    return this.#plan;
  }

  /** The exact text the orchestrator last wrote to plan.md. */
  get text(): string {
    return this.#text;
  }

  /** The sha256 of `text`. */
  get sha256(): string {
    return this.#sha;
  }

  /** Checks that plan.md still holds the orchestrator's last write, byte for byte. */
  check(): Promise<CheckLedgerResult> {
    return this.#serial(() => Promise.resolve(this.#verifyDisk()));
  }

  /**
   * Marks a task done. Refuses (as a value, nothing written) when plan.md was changed by anyone
   * else, when the id is unknown, when the task is already checked, or when it still has open
   * subtasks. Flipping the last open subtask of a parent flips the parent too (and so on up the
   * outline): a parent is a heading for its subtasks, complete exactly when they all are. A
   * parent in `verifyFirst` is work of its own (a task that was split): the cascade stops below
   * it, so it is ticked only by its own flip, after it is verified again.
   */
  flip(itemId: string, options: { readonly verifyFirst?: ReadonlySet<string> } = {}): Promise<FlipResult> {
    return this.#serial(async (): Promise<FlipResult> => {
      const disk = this.#verifyDisk();
      if (!disk.ok) return disk;
      const at = this.#index.get(itemId);
      const item = at === undefined ? undefined : this.#plan.items[at];
      if (item === undefined) return { ok: false, kind: 'unknown_item', itemId, message: `the plan has no task "${itemId}"` };
      if (item.checked) return { ok: false, kind: 'already_checked', itemId, message: `task "${itemId}" is already checked` };
      const open = item.childIds.filter((id) => !this.#item(id).checked);
      if (open.length > 0)
        return { ok: false, kind: 'not_runnable', itemId, message: `task "${itemId}" still has open subtasks: ${open.join(', ')}` };

      const flipped = [item.id];
      const checked = new Set(flipped);
      for (
        let parent = this.#parentOf(item);
        parent !== undefined && !parent.checked && options.verifyFirst?.has(parent.id) !== true;
        parent = this.#parentOf(parent)
      ) {
        if (!parent.childIds.every((id) => checked.has(id) || this.#item(id).checked)) break;
        flipped.push(parent.id);
        checked.add(parent.id);
      }
      // Only the one character inside each `[ ]` changes, so every other offset in the plan stays valid.
      const ticks = flipped.map((id) => this.#item(id).checkboxOffset);
      const text = pendingText(this.#text, ticks);
      if (text === undefined) throw new Error(`plan ledger invariant broken: no "[ ]" at the checkbox offsets of ${flipped.join(', ')}`);
      const plan: Plan = { items: this.#plan.items.map((entry) => (checked.has(entry.id) ? { ...entry, checked: true } : entry)) };
      const written = await this.#write(text, { ticks }, plan);
      if (!written.ok) return written;
      return { ok: true, flipped, plan };
    });
  }

  /**
   * Appends subtasks under an open task (how a split lands in the plan): nested one level under
   * it, after its existing subtasks, numbered from its id (`<id>.<n>`). Every existing task keeps
   * its id, text and box, which is checked by parsing the new text before anything is written; a
   * plan that cannot take the subtasks that way is refused as a value. The same tamper check and
   * crash-safe write protocol as a flip apply (the pending record carries the whole new text).
   */
  appendSubtasks(parentId: string, titles: readonly string[]): Promise<AppendResult> {
    return this.#serial(async (): Promise<AppendResult> => {
      const disk = this.#verifyDisk();
      if (!disk.ok) return disk;
      const refuse = (message: string): AppendResult => ({ ok: false, kind: 'cannot_append', itemId: parentId, message });
      const at = this.#index.get(parentId);
      const parent = at === undefined ? undefined : this.#plan.items[at];
      if (parent === undefined) return { ok: false, kind: 'unknown_item', itemId: parentId, message: `the plan has no task "${parentId}"` };
      if (parent.checked) return refuse(`task "${parentId}" is already checked: a completed task is not split`);
      const clean = titles.map((title) => title.replace(/\s+/g, ' ').trim());
      if (clean.length === 0 || clean.some((title) => title === '')) return refuse('give at least one non-empty subtask title');

      const text = withSubtasks(this.#text, this.#plan, parent, clean);
      const parsed = parsePlanMarkdown(text);
      if (parsed.isErr())
        return refuse(`the plan would not parse with the subtasks added: ${parsed.error[0]?.message ?? 'unknown problem'}`);
      // Every task keeps its id, text and box; the new ones are exactly the parent's new children.
      const before = this.#plan.items;
      const after = parsed.value.items;
      const added = after.filter((item) => !this.#index.has(item.id));
      const kept = before.every((item) => {
        const now = after.find((candidate) => candidate.id === item.id);
        return now !== undefined && now.text === item.text && now.checked === item.checked && now.depth === item.depth;
      });
      const newChildren = after.find((item) => item.id === parent.id)?.childIds.slice(parent.childIds.length) ?? [];
      if (
        !kept ||
        added.length !== clean.length ||
        added.some((item, i) => item.parentId !== parent.id || item.text !== clean[i] || newChildren[i] !== item.id)
      ) {
        return refuse(
          `task "${parentId}" cannot take subtasks without changing other tasks (its list is not in the form the orchestrator writes)`,
        );
      }
      const written = await this.#write(text, 'split', parsed.value);
      if (!written.ok) return written;
      return { ok: true, added: added.map((item) => item.id), plan: parsed.value };
    });
  }

  /** Writes the orchestrator's last plan back over whatever is on disk; returns what was discarded. */
  restore(): Promise<RestoreLedgerResult> {
    return this.#serial(async (): Promise<RestoreLedgerResult> => {
      const path = conclavePath(this.workspace, 'plan.md');
      const actual = readOptional(path);
      if (!actual.ok) return actual;
      const written = await writeFileAtomic(path, this.#bytes, this.#sync);
      if (!written.ok) return written;
      const discardedDiff = actual.bytes !== undefined && actual.bytes.equals(this.#bytes) ? '' : diffAgainst(this.#text, actual.bytes);
      return { ok: true, discardedDiff };
    });
  }

  #item(id: string): PlanItem {
    return this.#plan.items[this.#index.get(id) as number] as PlanItem;
  }

  #parentOf(item: PlanItem): PlanItem | undefined {
    return item.parentId === undefined ? undefined : this.#item(item.parentId);
  }

  #serial<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(operation, operation);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #verifyDisk(): CheckLedgerResult {
    const read = readOptional(conclavePath(this.workspace, 'plan.md'));
    if (!read.ok) return read;
    if (read.bytes?.equals(this.#bytes) === true) return { ok: true };
    return tampered(this.#text, this.#sha, read.bytes);
  }

  /**
   * The record (this write as `pending`) → plan.md → the record (this write as `current`), each
   * atomic. A split first writes its text as a new base plan, which the records then name. The
   * last step skips the folder fsync: losing it in a power cut only leaves the pending state
   * `openLedger` finishes. Once plan.md is written the write stands, even if the last record
   * write fails (the next write or `openLedger` catches up).
   */
  async #write(text: string, change: { readonly ticks: readonly number[] } | 'split', plan: Plan): Promise<{ ok: true } | LedgerIoError> {
    const sha = sha256(text);
    const ledgerPath = conclavePath(this.workspace, 'ledger.json');
    let next: PlanRef;
    if (change === 'split') {
      const based = await writeBase(this.workspace, sha, text, this.#sync);
      if (!based.ok) return based;
      next = ownBase(sha);
    } else {
      next = { sha256: sha, base: this.#ref.base, ticks: [...this.#ref.ticks, ...change.ticks] };
    }
    const pending = await writeFileAtomic(
      ledgerPath,
      serializeLedgerRecord(
        { version: 2, current: this.#ref, pending: change === 'split' ? { sha256: sha } : { sha256: sha, ticks: [...change.ticks] } },
        this.#key,
      ),
      this.#sync,
    );
    if (!pending.ok) return pending;
    const bytes = Buffer.from(text, 'utf8');
    const planned = await writeFileAtomic(conclavePath(this.workspace, 'plan.md'), bytes, this.#sync);
    if (!planned.ok) return planned;
    const previousBase = this.#ref.base;
    this.#plan = plan;
    this.#text = text;
    this.#bytes = bytes;
    this.#sha = sha;
    this.#ref = next;
    if (plan.items.length !== this.#index.size) this.#index = new Map(plan.items.map((item, i) => [item.id, i]));
    // Without this, a builder restoring the previous plan.md would look like a kill before the
    // write and be accepted on the next open.
    const recorded = await writeFileAtomic(ledgerPath, serializeLedgerRecord({ version: 2, current: next }, this.#key), {
      ...this.#sync,
      syncDir: false,
    });
    // The old base plan is named by nothing once the record no longer names it as `current`.
    if (recorded.ok && next.base !== previousBase) dropBase(this.workspace, previousBase);
    return { ok: true };
  }
}

/**
 * Opens the ledger of a run in `workspace` (to resume after a restart or a kill). plan.md must
 * hold what ledger.json says the orchestrator last wrote, or the write it was about to make
 * (then that write is promoted: the kill came between plan.md and the record). Anything else is
 * `ledger_tampered` with a diff, unless `restoreTampered` asks for the plan to be put back.
 */
export async function openLedger(workspace: string, options: OpenLedgerOptions = {}): Promise<OpenLedgerResult> {
  const ledgerPath = conclavePath(workspace, 'ledger.json');
  const planPath = conclavePath(workspace, 'plan.md');
  const recordRead = readOptional(ledgerPath);
  if (!recordRead.ok) return recordRead;
  if (recordRead.bytes === undefined) {
    return {
      ok: false,
      kind: 'ledger_missing',
      message: `${join(CONCLAVE_DIR, 'ledger.json')} does not exist: this workspace has no plan ledger`,
      fix: 'start the run with initLedger',
    };
  }
  const record = readLedgerRecord(workspace, recordRead.bytes.toString('utf8'), options.key);
  if (!record.ok) return record;
  const planRead = readOptional(planPath);
  if (!planRead.ok) return planRead;
  const actual = planRead.bytes;
  const actualSha = actual === undefined ? undefined : sha256(actual);
  const { current, pending, intended } = record;
  const sync = { sync: options.durable !== false };
  /** Records `plan` as the last write, naming it by its base plan (a legacy record's text gets one first). */
  const settle = async (plan: RecordedPlan) => {
    let ref = plan.ref;
    if (ref === undefined) {
      const based = await writeBase(workspace, plan.sha256, plan.text, sync);
      if (!based.ok) return based;
      ref = ownBase(plan.sha256);
    }
    const written = await writeFileAtomic(ledgerPath, serializeLedgerRecord({ version: 2, current: ref }, options.key), sync);
    if (!written.ok) return written;
    if (current?.ref !== undefined && current.ref.base !== ref.base) dropBase(workspace, current.ref.base);
    return { ok: true as const, ref };
  };

  let settled: Awaited<ReturnType<typeof settle>>;
  let text: string;
  let recovered: 'pending_discarded' | 'restored' | undefined;
  let restoredDiff: string | undefined;
  if (pending !== undefined && actual !== undefined && actualSha === pending.sha256) {
    // The last write reached plan.md (the normal state after a flip): fold it into `current`.
    text = actual.toString('utf8');
    settled = await settle({ sha256: pending.sha256, text, ref: pending.ref });
  } else if (current !== null && actualSha === current.sha256) {
    text = current.text;
    // Killed after recording the intent but before plan.md changed: the intent is void. A legacy
    // record is rewritten in the current form either way.
    settled = pending === undefined && current.ref !== undefined ? { ok: true, ref: current.ref } : await settle(current);
    if (pending !== undefined) {
      recovered = 'pending_discarded';
      // A split's new base plan was written before its record; nothing names it now.
      if (settled.ok && pending.ref !== undefined && pending.ref.base !== settled.ref.base) dropBase(workspace, pending.ref.base);
    }
  } else if (current === null || intended === undefined) {
    return {
      ok: false,
      kind: 'ledger_missing',
      message: 'the first plan write did not finish (the run was stopped while starting)',
      fix: 'start the run again with initLedger',
    };
  } else if (options.restoreTampered === true) {
    // Put back the orchestrator's latest decision (a pending flip was only recorded after its gates passed).
    const restored = await writeFileAtomic(planPath, intended.text);
    if (!restored.ok) return restored;
    settled = await settle(intended);
    text = intended.text;
    recovered = 'restored';
    restoredDiff = diffAgainst(intended.text, actual);
  } else {
    return tampered(intended.text, intended.sha256, actual);
  }
  if (!settled.ok) return settled;

  const parsed = parsePlanMarkdown(text);
  if (parsed.isErr()) return { ok: false, kind: 'plan_invalid', issues: parsed.error };
  const ledger = new PlanLedger(workspace, parsed.value, text, settled.ref, options);
  return { ok: true, ledger, ...(recovered === undefined ? {} : { recovered }), ...(restoredDiff === undefined ? {} : { restoredDiff }) };
}

/**
 * Starts the ledger of a run: validates `planText` with `parsePlanMarkdown` and writes it as
 * `.conclave/plan.md`, creating `.conclave/`. Refuses when the workspace already has a ledger
 * (resume it with `openLedger`); a start that was killed half-way may be run again.
 */
export async function initLedger(workspace: string, planText: string, options: LedgerWriteOptions = {}): Promise<InitLedgerResult> {
  const parsed = parsePlanMarkdown(planText);
  if (parsed.isErr()) return { ok: false, kind: 'plan_invalid', issues: parsed.error };
  const dir = join(workspace, CONCLAVE_DIR);
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    return { ok: false, kind: 'io_error', path: dir, message: errorMessage(error) };
  }
  const ledgerPath = conclavePath(workspace, 'ledger.json');
  const existing = readOptional(ledgerPath);
  if (!existing.ok) return existing;
  if (existing.bytes !== undefined) {
    const record = readLedgerRecord(workspace, existing.bytes.toString('utf8'), options.key);
    if (!record.ok || record.current !== null) {
      return {
        ok: false,
        kind: 'ledger_exists',
        message: `${join(CONCLAVE_DIR, 'ledger.json')} already exists: this workspace has a run in progress`,
        fix: `resume it with openLedger, or remove ${CONCLAVE_DIR}/ to start over`,
      };
    }
  }
  const sha = sha256(planText);
  const sync = { sync: options.durable !== false };
  const steps: (() => ReturnType<typeof writeFileAtomic>)[] = [
    () => writeBase(workspace, sha, planText, sync),
    () => writeFileAtomic(ledgerPath, serializeLedgerRecord({ version: 2, current: null, pending: { sha256: sha } }, options.key), sync),
    () => writeFileAtomic(conclavePath(workspace, 'plan.md'), planText, sync),
    () => writeFileAtomic(ledgerPath, serializeLedgerRecord({ version: 2, current: ownBase(sha) }, options.key), sync),
  ];
  for (const step of steps) {
    const written = await step();
    if (!written.ok) return written;
  }
  return { ok: true, ledger: new PlanLedger(workspace, parsed.value, planText, ownBase(sha), options) };
}

/** `ledger.flip(itemId)`: marks a task done (see `PlanLedger.flip`). */
export function flip(ledger: PlanLedger, itemId: string): Promise<FlipResult> {
  return ledger.flip(itemId);
}

/** `ledger.check()`: whether plan.md still holds the orchestrator's last write. */
export function checkLedger(ledger: PlanLedger): Promise<CheckLedgerResult> {
  return ledger.check();
}

/** `ledger.restore()`: puts the orchestrator's last write back over a tampered plan.md. */
export function restoreLedger(ledger: PlanLedger): Promise<RestoreLedgerResult> {
  return ledger.restore();
}

type ReadResult = { readonly ok: true; readonly bytes: Buffer | undefined } | LedgerIoError;

/**
 * Reads a ledger file; a missing file is `bytes: undefined`, not an error. Synchronously: it is
 * small, and read before every step of the loop (ADR 0021).
 */
/** The plan as a reader may show it, and whether the orchestrator's signed record vouches for it. */
export interface LedgerPlanView {
  /** plan.md when the record vouches for it; otherwise the orchestrator's last signed plan, or none. */
  readonly text: string | undefined;
  readonly verified: boolean;
  /** Why the plan on disk is not shown as it is, for a person. */
  readonly problem?: string;
}

/**
 * Reads the plan for a status view or a report, writing nothing: plan.md when the run's signed
 * ledger record holds its hash (the last write or the one about to be made); when plan.md was
 * changed by anyone else (a builder ticking its own boxes), the orchestrator's last signed plan,
 * with the problem named. Without the key, or with a record that does not verify, nothing is
 * vouched for: the ticks on disk are shown as unverified, never as the orchestrator's.
 */
export function readLedgerPlan(workspace: string, key: Buffer | undefined): LedgerPlanView {
  const planRead = readOptional(conclavePath(workspace, 'plan.md'));
  const onDisk = planRead.ok ? planRead.bytes : undefined;
  const recordRead = readOptional(conclavePath(workspace, 'ledger.json'));
  if (!recordRead.ok || recordRead.bytes === undefined)
    return {
      text: onDisk?.toString('utf8'),
      verified: false,
      problem: `${join(CONCLAVE_DIR, 'ledger.json')} is missing: the plan's ticks cannot be verified`,
    };
  if (key === undefined)
    return { text: onDisk?.toString('utf8'), verified: false, problem: "the run's key is missing: the plan's ticks cannot be verified" };
  const record = readLedgerRecord(workspace, recordRead.bytes.toString('utf8'), key);
  if (!record.ok)
    return { text: onDisk?.toString('utf8'), verified: false, problem: `${record.message}; the plan's ticks cannot be verified` };
  const actualSha = onDisk === undefined ? undefined : sha256(onDisk);
  const { current, pending } = record;
  if (onDisk !== undefined && (actualSha === current?.sha256 || actualSha === pending?.sha256))
    return { text: onDisk.toString('utf8'), verified: true };
  if (record.intended === undefined) return { text: undefined, verified: false, problem: 'the run has no signed plan yet' };
  return {
    text: record.intended.text,
    verified: false,
    problem: `${join(CONCLAVE_DIR, 'plan.md')} was changed by someone other than the orchestrator: showing its last signed plan`,
  };
}

function readOptional(path: string): ReadResult {
  try {
    return { ok: true, bytes: readFileSync(path) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, bytes: undefined };
    return { ok: false, kind: 'io_error', path, message: errorMessage(error) };
  }
}

/** Writes a base plan: the whole text a record names by its sha256 (a run's start and every split). */
function writeBase(workspace: string, textSha256: string, text: string, options: AtomicWriteOptions) {
  return writeFileAtomic(join(workspace, ledgerBaseFile(textSha256)), text, options);
}

/** Removes a base plan no record names any more; one left behind (a failed removal) is only a stray file. */
function dropBase(workspace: string, baseSha256: string): void {
  try {
    rmSync(join(workspace, ledgerBaseFile(baseSha256)), { force: true });
  } catch {
    // See above: nothing reads an unnamed base plan.
  }
}

function diffAgainst(expected: string, actual: Buffer | undefined): string {
  return lineDiff(expected, actual?.toString('utf8') ?? '', {
    expectedLabel: 'plan.md (orchestrator, last write)',
    actualLabel: actual === undefined ? 'plan.md (deleted)' : 'plan.md (on disk)',
  });
}

function tampered(expected: string, expectedSha256: string, actual: Buffer | undefined): LedgerTampered {
  const deleted = actual === undefined;
  return {
    ok: false,
    kind: 'ledger_tampered',
    detail: deleted ? 'deleted' : 'modified',
    diff: diffAgainst(expected, actual),
    expectedSha256,
    ...(deleted ? {} : { actualSha256: sha256(actual) }),
    message: deleted
      ? `${CONCLAVE_DIR}/plan.md was deleted by someone other than the orchestrator`
      : `${CONCLAVE_DIR}/plan.md was changed by someone other than the orchestrator`,
    fix: TAMPER_FIX,
  };
}

/**
 * The plan text with `titles` as new unchecked subtasks of `parent`: inserted after the last line
 * of the parent's block (its last descendant's line and any deeper-indented continuation), at
 * the column of the parent's checkbox, which is where its list item's content starts.
 */
function withSubtasks(text: string, plan: Plan, parent: PlanItem, titles: readonly string[]): string {
  const lines = text.split('\n');
  const lineStart = text.lastIndexOf('\n', parent.checkboxOffset - 1) + 1;
  const indent = ' '.repeat(parent.checkboxOffset - lineStart);
  const descendants = new Set<string>([parent.id]);
  for (const item of plan.items) if (item.parentId !== undefined && descendants.has(item.parentId)) descendants.add(item.id);
  const last = plan.items.filter((item) => descendants.has(item.id)).at(-1) ?? parent;
  // Lines are 1-based; extend over continuation lines indented deeper than the parent's marker.
  const markerIndent = /^\s*/.exec(lines[parent.line - 1] ?? '')?.[0].length ?? 0;
  let end = last.line;
  while (end < lines.length && /^\s+\S/.test(lines[end] ?? '') && (/^\s*/.exec(lines[end] ?? '')?.[0].length ?? 0) > markerIndent) end += 1;
  const added = titles.map((title) => `${indent}- [ ] ${title}`);
  return [...lines.slice(0, end), ...added, ...lines.slice(end)].join('\n');
}

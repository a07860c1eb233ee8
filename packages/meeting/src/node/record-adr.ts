import { link, open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { PROPOSED_STATUS_LINE, type AdrDraft } from '../adr.js';

/** The explicit human approval that turns a draft into a canonical, numbered record. */
export interface AdrApproval {
  /** Who approved, e.g. a name or handle; must not be empty. */
  readonly approvedBy: string;
  /** When, as the approver's timestamp (ISO 8601 recommended). */
  readonly at: string;
}

/** A recorded ADR. */
export interface RecordedAdr {
  readonly number: number;
  readonly path: string;
  readonly markdown: string;
}

/** Why an ADR was not recorded. */
export type RecordAdrError =
  | { readonly kind: 'not_approved'; readonly message: string }
  | { readonly kind: 'not_a_draft'; readonly message: string }
  | { readonly kind: 'io'; readonly message: string }
  | { readonly kind: 'no_free_number'; readonly message: string };

const NUMBERED = /^(\d{4})-.*\.md$/;
const MAX_ATTEMPTS = 1000;

/**
 * Records an approved ADR in `dir` as `NNNN-slug.md` with `Status: accepted`. The number is
 * claimed at write time: the folder is listed, the next free number is locked with an exclusive
 * create (`wx`) of `.NNNN.lock`, the listing is re-checked under the lock (another writer with a
 * different slug may have just taken the number), and the text is written whole to a hidden
 * `.NNNN-slug.md.partial` and only then linked to its number, which fails on an existing file;
 * any EEXIST moves on to the next number. A crash mid-write leaves no numbered ADR, and a lock
 * left by a crash only skips that number.
 */
export async function recordAdr(dir: string, draft: AdrDraft, approval: AdrApproval): Promise<Result<RecordedAdr, RecordAdrError>> {
  if (
    typeof approval?.approvedBy !== 'string' ||
    approval.approvedBy.trim() === '' ||
    typeof approval.at !== 'string' ||
    approval.at.trim() === ''
  ) {
    return err({ kind: 'not_approved', message: 'recordAdr needs an explicit approval { approvedBy, at } with both fields non-empty' });
  }
  // Both go into the one status line: a line break would let them write lines of their own into the record.
  if (/[\r\n\u2028\u2029]/.test(approval.approvedBy + approval.at)) {
    return err({ kind: 'not_approved', message: 'the approval { approvedBy, at } must be on one line each: remove the line breaks' });
  }
  // The status line itself: the question in the heading may contain the words "Status: proposed".
  const lines = draft.markdown.split('\n');
  const statusAt = lines.findIndex((line) => line.trim() === PROPOSED_STATUS_LINE);
  if (statusAt < 0) {
    return err({ kind: 'not_a_draft', message: `the draft has no "${PROPOSED_STATUS_LINE}" line, so there is nothing to accept` });
  }
  lines[statusAt] = `Status: accepted (approved by ${approval.approvedBy.trim()} at ${approval.at.trim()})`;
  const markdown = lines.join('\n');
  try {
    let candidate = (await highestNumber(dir)) + 1;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1, candidate += 1) {
      const number = String(candidate).padStart(4, '0');
      const lockPath = join(dir, `.${number}.lock`);
      const lock = await createExclusive(lockPath);
      if (lock === 'exists') continue;
      try {
        if ((await numbersIn(dir)).has(candidate)) continue;
        const path = join(dir, `${number}-${draft.slug}.md`);
        // A numbered ADR appears whole or not at all: a full disk or a kill mid-write leaves none.
        const partial = join(dir, `.${number}-${draft.slug}.md.partial`);
        const file = await createExclusive(partial);
        if (file === 'exists') continue;
        try {
          try {
            await file.writeFile(markdown, 'utf8');
            await file.sync();
          } finally {
            await file.close();
          }
          if ((await linkExclusive(partial, path)) === 'exists') continue;
        } finally {
          await unlink(partial).catch(() => undefined);
        }
        return ok({ number: candidate, path, markdown });
      } finally {
        await lock.close();
        await unlink(lockPath);
      }
    }
    return err({ kind: 'no_free_number', message: `no free ADR number after ${MAX_ATTEMPTS} attempts in ${dir}` });
  } catch (thrown) {
    return err({ kind: 'io', message: thrown instanceof Error ? thrown.message : String(thrown) });
  }
}

async function createExclusive(path: string): Promise<Awaited<ReturnType<typeof open>> | 'exists'> {
  try {
    return await open(path, 'wx');
  } catch (thrown) {
    if ((thrown as { code?: unknown }).code === 'EEXIST') return 'exists';
    throw thrown;
  }
}

/** Links `from` to `to`, or 'exists' when `to` does (another writer took the name). */
async function linkExclusive(from: string, to: string): Promise<'linked' | 'exists'> {
  try {
    await link(from, to);
    return 'linked';
  } catch (thrown) {
    if ((thrown as { code?: unknown }).code === 'EEXIST') return 'exists';
    throw thrown;
  }
}

async function numbersIn(dir: string): Promise<Set<number>> {
  const names = await readdir(dir);
  return new Set(
    names.flatMap((name) => {
      const match = NUMBERED.exec(name);
      return match ? [Number(match[1])] : [];
    }),
  );
}

async function highestNumber(dir: string): Promise<number> {
  return Math.max(0, ...(await numbersIn(dir)));
}

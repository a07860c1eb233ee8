import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '@conclave/core/internal';
import { writeFileAtomic } from '../ledger/atomic-write.js';
import { CONCLAVE_DIR, conclavePath } from '../ledger/ledger-paths.js';
import { sha256 } from '../ledger/sha256.js';

/** What `snapshotSpec` did. */
export type SnapshotSpecResult =
  | { readonly ok: true; readonly sha256: string }
  | {
      readonly ok: false;
      readonly kind: 'spec_exists';
      readonly expected: string;
      readonly actual: string;
      readonly message: string;
      readonly fix: string;
    }
  | { readonly ok: false; readonly kind: 'io_error'; readonly path: string; readonly message: string };

/** What `checkSpec` found. */
export type CheckSpecResult =
  | { readonly ok: true; readonly sha256: string }
  | {
      readonly ok: false;
      readonly kind: 'spec_modified';
      readonly expected: string;
      readonly actual: string;
      readonly message: string;
      readonly fix: string;
    }
  | { readonly ok: false; readonly kind: 'spec_missing'; readonly path: string; readonly message: string; readonly fix: string }
  | { readonly ok: false; readonly kind: 'io_error'; readonly path: string; readonly message: string };

/**
 * Captures the spec for the run: `.conclave/spec.md` (the exact text) and `.conclave/spec.sha256`
 * (`<hex>  spec.md`, the `sha256sum` format), both written atomically, hash last, so a kill never
 * leaves a hash for a spec that is not there. The spec is immutable for the run: snapshotting the
 * same text again is a no-op (a resumed run), a different text is refused with `spec_exists`.
 */
export async function snapshotSpec(workspace: string, specText: string): Promise<SnapshotSpecResult> {
  const hash = sha256(specText);
  const existing = checkSpecSync(workspace);
  if (existing.ok) {
    if (existing.sha256 === hash) return { ok: true, sha256: hash };
    return {
      ok: false,
      kind: 'spec_exists',
      expected: existing.sha256,
      actual: hash,
      message: 'this workspace already holds the snapshot of a different spec',
      fix: `finish or abandon that run (remove ${CONCLAVE_DIR}/) before starting another spec here`,
    };
  }
  const dir = join(workspace, CONCLAVE_DIR);
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    return { ok: false, kind: 'io_error', path: dir, message: errorMessage(error) };
  }
  const spec = await writeFileAtomic(conclavePath(workspace, 'spec.md'), specText);
  if (!spec.ok) return spec;
  const stored = await writeFileAtomic(conclavePath(workspace, 'spec.sha256'), `${hash}  spec.md\n`);
  if (!stored.ok) return stored;
  return { ok: true, sha256: hash };
}

/**
 * Recomputes the sha256 of `.conclave/spec.md` and compares it with the stored one: any change
 * to the spec during the run, down to one byte, is `spec_modified`.
 */
export function checkSpec(workspace: string): Promise<CheckSpecResult> {
  return Promise.resolve(checkSpecSync(workspace));
}

/**
 * `checkSpec` for the loop, which checks before and after every attempt: both files are small,
 * so they are read with synchronous calls (ADR 0021).
 */
export function checkSpecSync(workspace: string): CheckSpecResult {
  const specPath = conclavePath(workspace, 'spec.md');
  const hashPath = conclavePath(workspace, 'spec.sha256');
  const missing = (path: string) => ({
    ok: false as const,
    kind: 'spec_missing' as const,
    path,
    message: `${join(CONCLAVE_DIR, path === specPath ? 'spec.md' : 'spec.sha256')} does not exist`,
    fix: 'snapshot the spec with snapshotSpec at the start of the run',
  });
  let stored: string;
  let text: Buffer;
  try {
    stored = readFileSync(hashPath, 'utf8').trim().split(/\s+/)[0] ?? '';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return missing(hashPath);
    return { ok: false, kind: 'io_error', path: hashPath, message: errorMessage(error) };
  }
  try {
    text = readFileSync(specPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return missing(specPath);
    return { ok: false, kind: 'io_error', path: specPath, message: errorMessage(error) };
  }
  const actual = sha256(text);
  if (actual === stored) return { ok: true, sha256: actual };
  return {
    ok: false,
    kind: 'spec_modified',
    expected: stored,
    actual,
    message: `${join(CONCLAVE_DIR, 'spec.md')} changed during the run`,
    fix: 'the spec is immutable for a run: put the original back (git checkout, or from the run evidence), or start a new run for the new spec',
  };
}

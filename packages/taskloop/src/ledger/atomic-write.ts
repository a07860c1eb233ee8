import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errorMessage } from '@conclave/core';

/** What `writeFileAtomic` did: written, or the reason nothing was. */
export type AtomicWriteResult = { readonly ok: true } | { readonly ok: false; readonly kind: 'io_error'; readonly path: string; readonly message: string };

/** Options for `writeFileAtomic`. */
export interface AtomicWriteOptions {
  /**
   * fsync the folder after the rename (default true). Only for a write whose loss in a power cut
   * is harmless: the content is still fsynced before the rename, so the file is old or new, whole.
   */
  readonly syncDir?: boolean;
  /**
   * fsync the content before the rename (default true). Without it the write is still atomic
   * for readers and survives a killed process, but not a power cut; for files that are about to
   * be committed to git anyway.
   */
  readonly sync?: boolean;
}

/**
 * Replaces `path` with `data` so that a reader (or a crash) sees either the old content or the
 * new, never a half-written file: the data goes to a uniquely named temp file in the same
 * folder (a rename is only atomic within one file system), is fsynced, then renamed over the
 * target; the folder is fsynced afterwards so the rename itself survives a power cut (where the
 * platform allows opening a folder). On any failure the temp file is removed and the target is
 * left as it was; the failure comes back as a value, since a full disk or a missing folder is an
 * expected condition for the caller to report, not a crash.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<AtomicWriteResult> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let created = false;
  try {
    const handle = await open(temp, 'wx');
    created = true;
    try {
      await handle.writeFile(data);
      if (options.sync !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    created = false;
  } catch (error) {
    if (created) await rm(temp, { force: true }).catch(() => undefined);
    return { ok: false, kind: 'io_error', path, message: errorMessage(error) };
  }
  if (options.syncDir !== false && options.sync !== false) await syncDir(dir);
  return { ok: true };
}

/** fsyncs a folder so a rename in it is durable; a no-op where folders cannot be opened (Windows). */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // EISDIR/EPERM on platforms without folder fsync: the rename is still atomic, only less durable.
  }
}

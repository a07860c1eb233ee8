import { randomBytes } from 'node:crypto';
import { closeSync, fsync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { basename, dirname, join } from 'node:path';
import { errorMessage } from '@conclave/core/internal';

/** What `writeFileAtomic` did: written, or the reason nothing was. */
export type AtomicWriteResult =
  { readonly ok: true } | { readonly ok: false; readonly kind: 'io_error'; readonly path: string; readonly message: string };

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

const fsyncFd = promisify(fsync);

/**
 * Replaces `path` with `data` so that a reader (or a crash) sees either the old content or the
 * new, never a half-written file: the data goes to a uniquely named temp file in the same
 * folder (a rename is only atomic within one file system), is fsynced, then renamed over the
 * target; the folder is fsynced afterwards so the rename itself survives a power cut (where the
 * platform allows opening a folder). On any failure the temp file is removed and the target is
 * left as it was; the failure comes back as a value, since a full disk or a missing folder is an
 * expected condition for the caller to report, not a crash.
 *
 * The open, write, close and rename are synchronous calls, and only the fsyncs wait on the
 * thread pool (ADR 0021): these are the loop's own small files, where each thread-pool round trip
 * costs ten times the call it carries, while a flush to disk may take milliseconds and must not
 * hold the event loop.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<AtomicWriteResult> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const sync = options.sync !== false;
  let created = false;
  try {
    const fd = openSync(temp, 'wx');
    created = true;
    try {
      writeFileSync(fd, data);
      if (sync) await fsyncFd(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
    created = false;
  } catch (error) {
    if (created) {
      try {
        rmSync(temp, { force: true });
      } catch {
        // The temp file stays behind; it is named *.tmp, which readers and git ignore.
      }
    }
    return { ok: false, kind: 'io_error', path, message: errorMessage(error) };
  }
  if (sync && options.syncDir !== false) await syncDir(dir);
  return { ok: true };
}

/** fsyncs a folder so a rename in it is durable; a no-op where folders cannot be opened (Windows). */
async function syncDir(dir: string): Promise<void> {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    // EISDIR/EPERM on platforms without folder fsync: the rename is still atomic, only less durable.
    return;
  }
  try {
    await fsyncFd(fd);
  } catch {
    // As above: some platforms open a folder but refuse to fsync it.
  } finally {
    closeSync(fd);
  }
}

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '@conclave/core/internal';
import { writeFileAtomic } from '../ledger/atomic-write.js';
import { runDir } from '../loop/evidence-store.js';
import { describeUnverified, signRecord, verifyRecord } from './record-mac.js';
import { readRunKey } from './run-key.js';

/** Where the run's key is looked up (see `TaskLoopOptions.stateDir`). */
export interface RunSettingsOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly stateDir?: string;
}

/** Settings read back: absent (none were written), or the signed settings; anything else is tampering. */
export type ReadRunSettingsResult =
  | { readonly ok: true; readonly settings: Readonly<Record<string, unknown>> | undefined }
  | { readonly ok: false; readonly kind: 'state_tampered'; readonly path: string; readonly message: string; readonly fix: string };

/**
 * Writes a caller's own settings for a run (the CLI's `cli.json`: the builder command, the
 * allowed commands, a guardian block) into the run folder, signed with the run's key and
 * atomically, so a torn or forged file never decides how a resume runs (ADR 0025).
 */
export async function writeRunSettings(
  workspace: string,
  runId: string,
  file: string,
  settings: object,
  options: RunSettingsOptions = {},
): Promise<{ readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string; readonly fix: string }> {
  const key = readRunKey(workspace, runId, options.env, options.stateDir);
  if ('ok' in key) return { ok: false, message: key.message, fix: key.fix };
  const path = join(workspace, runDir(runId), file);
  try {
    mkdirSync(join(workspace, runDir(runId)), { recursive: true });
  } catch (error) {
    return { ok: false, message: `cannot create ${runDir(runId)}: ${errorMessage(error)}`, fix: 'check the workspace is writable' };
  }
  // The file's name is part of what is signed, so one settings file never passes for another.
  const written = await writeFileAtomic(path, `${JSON.stringify(signRecord(key.key, `cli/${file}`, settings), null, 2)}\n`, {
    sync: false,
  });
  return written.ok ? { ok: true, path } : { ok: false, message: written.message, fix: 'check the workspace is writable' };
}

/** Reads settings `writeRunSettings` wrote; a file without this run's signature is `state_tampered`, never used. */
export function readRunSettings(workspace: string, runId: string, file: string, options: RunSettingsOptions = {}): ReadRunSettingsResult {
  const path = join(workspace, runDir(runId), file);
  const shown = join(runDir(runId), file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, settings: undefined };
    return {
      ok: false,
      kind: 'state_tampered',
      path,
      message: `cannot read ${shown}: ${errorMessage(error)}`,
      fix: 'make it readable, or remove it and pass the settings as flags',
    };
  }
  const key = readRunKey(workspace, runId, options.env, options.stateDir);
  if ('ok' in key) return { ok: false, kind: 'state_tampered', path, message: key.message, fix: key.fix };
  const verified = verifyRecord(key.key, `cli/${file}`, text);
  if (!verified.ok)
    return {
      ok: false,
      kind: 'state_tampered',
      path,
      message: `${shown} ${describeUnverified(verified.why)}: it was not written by conclave`,
      fix: `remove ${shown} and pass the settings as flags (--builder, --allow)`,
    };
  return { ok: true, settings: verified.record };
}

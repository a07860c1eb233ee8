import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errorMessage } from '@conclave/core/internal';
import { openInWorkspace } from '../security/open-in-workspace.js';
import type { TaskSpec } from '../spec/task-spec.js';
import { parseTaskSpec } from '../spec/task-spec.js';
import { DEFAULT_MAX_EXCERPT_CHARS, excerptOf, type SpecExcerpt, type UnavailableRelation } from './input-pack.js';

/** A spec's related specs as the big-picture verifier sees them: excerpts, and the ones that could not be read. */
export interface RelatedSpecs {
  readonly parent?: SpecExcerpt;
  readonly next: readonly SpecExcerpt[];
  readonly unavailable: readonly UnavailableRelation[];
}

/** A related spec is read up to this many bytes: an excerpt needs its head, never the whole file. */
const MAX_READ_BYTES = 16 * 1024;

/**
 * Loads short excerpts of the specs a spec names in `relationships` (its parent and the specs
 * that come next), for the big-picture verifier. A related spec `<id>` is the file `<id>.md`
 * beside the spec file (a relative spec path is taken from the working directory, as `loadTaskSpec`
 * reads it). Only files inside the workspace are read: one outside it, directly or through a
 * symbolic link, is refused. The excerpt is the related spec's title and acceptance criteria when
 * it parses, else the start of its text, at most `maxChars`. A file that is missing, refused or
 * unreadable is recorded in `unavailable`, never fatal. Never rejects.
 */
export async function loadRelatedSpecs(
  spec: Pick<TaskSpec, 'file' | 'relationships'>,
  workspace: string,
  maxChars = DEFAULT_MAX_EXCERPT_CHARS,
): Promise<RelatedSpecs> {
  const { parent, next } = spec.relationships;
  const unavailable: UnavailableRelation[] = [];
  const load = async (id: string): Promise<SpecExcerpt | undefined> => {
    const read = await readRelated(spec.file, id, workspace);
    if (!read.ok) {
      unavailable.push({ spec: id, reason: read.reason });
      return undefined;
    }
    const text = parseTaskSpec(read.text).match(excerptOf, () => read.text);
    return { spec: id, excerpt: text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1))}…` };
  };
  const parentExcerpt = parent === undefined ? undefined : await load(parent);
  const nextExcerpts: SpecExcerpt[] = [];
  for (const id of next) {
    const excerpt = await load(id);
    if (excerpt !== undefined) nextExcerpts.push(excerpt);
  }
  return { ...(parentExcerpt === undefined ? {} : { parent: parentExcerpt }), next: nextExcerpts, unavailable };
}

async function readRelated(
  specFile: string | undefined,
  id: string,
  workspace: string,
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  if (specFile === undefined)
    return { ok: false, reason: 'the spec was not loaded from a file, so there is no folder to find its related specs in' };
  const wanted = join(dirname(resolve(specFile)), `${id}.md`);
  const inside = await workspaceRelative(workspace, wanted);
  if (inside === undefined) return { ok: false, reason: `${wanted} is outside the workspace` };
  // Opened first and checked by its handle (never check-then-open), non-blocking: a spec swapped
  // for a link out of the workspace is refused, and a FIFO cannot hang the judgement.
  const opened = await openInWorkspace(workspace, inside, { followFinalLink: true });
  if (!opened.ok) return { ok: false, reason: opened.kind === 'missing' ? `missing: ${inside}` : opened.reason };
  const handle = opened.handle;
  try {
    if (!opened.stats.isFile()) return { ok: false, reason: `${inside} is not a regular file` };
    const buffer = Buffer.alloc(MAX_READ_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_READ_BYTES, 0);
    // A cut inside a multi-byte character leaves a replacement character: drop it.
    return {
      ok: true,
      text: buffer
        .subarray(0, bytesRead)
        .toString('utf8')
        .replace(/\uFFFD+$/, ''),
    };
  } catch (thrown) {
    return { ok: false, reason: `${inside} cannot be read: ${errorMessage(thrown)}` };
  } finally {
    await handle.close();
  }
}

/** `path` relative to the workspace (as given, or its real path), or undefined when it lies outside. */
async function workspaceRelative(workspace: string, path: string): Promise<string | undefined> {
  const roots = [resolve(workspace), await realpath(workspace).catch(() => resolve(workspace))];
  for (const root of roots) {
    const rel = relative(root, path);
    if (rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return rel;
  }
  return undefined;
}

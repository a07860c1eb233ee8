import { isAbsolute, win32 } from 'node:path';
import { errorMessage } from '@conclave/core/internal';
import { glob } from 'tinyglobby';
import { openInWorkspace } from '../security/open-in-workspace.js';
import { redactSecrets } from '../security/redact.js';
import { GateDeadline, type DeadlineOutcome } from './gate-deadline.js';
import type { RegexGate } from './gate-definition.js';
import type { GateEvidence } from './gate-evidence.js';
import type { GateRunContext } from './gate-run-context.js';
import { RegexMatcher, type LineMatch } from './regex-matcher.js';

/** The most bytes read from one file; a larger file is searched in its first 5 MB and the evidence says so. */
export const MAX_REGEX_FILE_BYTES = 5 * 1024 * 1024;
/** The most files one regex gate searches; the evidence says when more were selected. */
export const MAX_REGEX_FILES = 10_000;
/** Matches listed in the evidence (the reason names the first). */
const MAX_LISTED_MATCHES = 20;
/** Never searched: dependencies and git internals are not the workspace's own text. */
const ALWAYS_IGNORED = ['**/node_modules/**', '**/.git/**'];

interface Match {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/**
 * Searches the files the globs select for the pattern. `must_match` passes when at least one
 * file matches; `must_not_match` when none does (vacuously when no file is selected, and the
 * reason says so). Globs stay in the workspace: absolute globs and `..` are refused, dot files
 * and `node_modules` are not searched, and symbolic links are not followed or searched at all (a
 * link may lead anywhere). Each selected file is opened with `openInWorkspace` and read from that
 * handle, so one swapped for a link (or under a folder swapped for one) after the listing is
 * skipped and named, never read; anything but a regular file (a FIFO, a device) is skipped
 * unopened for reading. An invalid regular expression fails the gate with the parser's message.
 *
 * The whole gate runs under `context.defaultTimeoutMs` (and the abort signal): the pattern is
 * matched in a worker thread that is terminated at the deadline, so a catastrophic pattern fails
 * the gate as timed out, with the matches found so far, while the event loop keeps running.
 */
export async function runRegexGate(gate: RegexGate, context: GateRunContext): Promise<GateEvidence> {
  const deadline = new GateDeadline(context.defaultTimeoutMs, context.signal);
  try {
    return await searchFiles(gate, context, deadline);
  } finally {
    deadline.dispose();
  }
}

async function searchFiles(gate: RegexGate, context: GateRunContext, deadline: GateDeadline): Promise<GateEvidence> {
  const started = performance.now();
  const redact = (text: string): string => redactSecrets(text, context.secretValues);
  const shown = `/${gate.pattern}/${gate.flags ?? ''}`;
  const done = (passed: boolean, reason: string, stdout?: string): GateEvidence => ({
    name: gate.name,
    type: 'regex',
    pattern: redact(gate.pattern),
    passed,
    durationMs: Math.round(performance.now() - started),
    ...(stdout === undefined || stdout === '' ? {} : { stdout: redact(stdout) }),
    reason: redact(reason),
  });
  const stopped = (why: 'timeout' | 'aborted', what: string): string =>
    why === 'aborted' ? `aborted while ${what}` : `timed out after ${deadline.timeoutMs} ms while ${what}`;

  const flags = `${gate.flags ?? ''}g`;
  try {
    // Compiling is linear in the pattern's length; only matching can run away.
    new RegExp(gate.pattern, flags);
  } catch (thrown) {
    return done(false, `invalid regular expression ${shown}: ${errorMessage(thrown)}`);
  }
  const unsafe = gate.files.find((pattern) => escapes(pattern));
  if (unsafe !== undefined) return done(false, `the glob ${unsafe} may leave the workspace; use a workspace-relative glob without ".."`);

  let files: string[];
  try {
    const listed = await deadline.race(
      glob([...gate.files], {
        cwd: context.workspace,
        dot: false,
        onlyFiles: true,
        followSymbolicLinks: false,
        absolute: false,
        expandDirectories: false,
        ignore: ALWAYS_IGNORED,
      }),
    );
    if (!listed.done) return done(false, stopped(listed.why, `listing the files ${gate.files.join(', ')}`));
    files = listed.value.sort();
  } catch (thrown) {
    return done(false, `could not list the files ${gate.files.join(', ')}: ${errorMessage(thrown)}`);
  }
  const notes: string[] = [];
  if (files.length > MAX_REGEX_FILES) {
    notes.push(`searched the first ${MAX_REGEX_FILES} of ${files.length} files`);
    files = files.slice(0, MAX_REGEX_FILES);
  }

  const matches: Match[] = [];
  const matchingFiles = new Set<string>();
  const outside: string[] = [];
  const capped: string[] = [];
  const unreadable: string[] = [];
  const notRegular: string[] = [];
  const listing = (): string => matches.map((m) => `${m.file}:${m.line}: ${m.text}`).join('\n');
  const suffix = (): string => (notes.length > 0 ? ` (${notes.join('; ')})` : '');
  const noteSkips = (): void => {
    if (outside.length > 0)
      notes.push(
        `skipped ${outside.length} file(s) resolving outside the workspace or swapped for a link: ${outside.slice(0, 5).join(', ')}`,
      );
    if (notRegular.length > 0)
      notes.push(`skipped ${notRegular.length} file(s) that are not regular files: ${notRegular.slice(0, 5).join(', ')}`);
    if (capped.length > 0) notes.push(`read only the first ${MAX_REGEX_FILE_BYTES / 1024 / 1024} MB of ${capped.slice(0, 5).join(', ')}`);
    if (unreadable.length > 0) notes.push(`could not read ${unreadable.slice(0, 5).join(', ')}`);
  };

  const matcher = files.length > 0 ? new RegexMatcher(gate.pattern, flags) : undefined;
  deadline.onPassed(() => void matcher?.terminate());
  try {
    for (const [index, file] of files.entries()) {
      const read = await deadline.race(readInWorkspace(context.workspace, file));
      if (!read.done) {
        noteSkips();
        return done(false, `${stopped(read.why, `reading ${file}`)}, ${index} of ${files.length} file(s) searched${suffix()}`, listing());
      }
      const result = read.value;
      if (result.kind === 'outside') outside.push(file);
      else if (result.kind === 'not-regular') notRegular.push(file);
      else if (result.kind === 'unreadable') unreadable.push(file);
      if (result.kind !== 'read' || matcher === undefined) continue;
      if (result.capped) capped.push(file);
      const limit = gate.mode === 'must_match' ? 1 : MAX_LISTED_MATCHES - matches.length;
      let found: DeadlineOutcome<LineMatch[]>;
      try {
        found = await deadline.race(matcher.match(result.bytes, limit));
      } catch (thrown) {
        if (deadline.passed === undefined) throw thrown;
        found = { done: false, why: deadline.passed };
      }
      if (!found.done) {
        noteSkips();
        return done(
          false,
          `${stopped(found.why, `matching ${shown} in ${file}`)}, ${index} of ${files.length} file(s) searched${suffix()}`,
          listing(),
        );
      }
      if (found.value.length > 0) matchingFiles.add(file);
      for (const match of found.value) if (matches.length < MAX_LISTED_MATCHES) matches.push({ file, ...match });
    }
  } finally {
    await matcher?.terminate();
  }
  noteSkips();
  const first = matches[0];
  const globs = gate.files.join(', ');

  if (files.length === 0) {
    return gate.mode === 'must_match'
      ? done(false, `no file selected by ${globs}, so nothing matches ${shown}${suffix()}`)
      : done(true, `no file selected by ${globs}; nothing to match ${shown}${suffix()}`);
  }
  if (first === undefined) {
    return gate.mode === 'must_match'
      ? done(false, `none of ${files.length} file(s) matches ${shown}${suffix()}`, listing())
      : done(true, `none of ${files.length} file(s) matches ${shown}${suffix()}`);
  }
  const more = matchingFiles.size > 1 ? ` and ${matchingFiles.size - 1} more file(s)` : '';
  const at = `${first.file}:${first.line} matches ${shown}`;
  return gate.mode === 'must_match' ? done(true, `${at}${more}${suffix()}`, listing()) : done(false, `${at}${more}${suffix()}`, listing());
}

/** Whether a glob (negated or not) could reach outside the workspace. */
function escapes(pattern: string): boolean {
  const bare = pattern.replace(/^!+/, '');
  return isAbsolute(bare) || win32.isAbsolute(bare) || bare.split(/[\\/]+/).includes('..');
}

type FileRead = { kind: 'read'; bytes: Uint8Array; capped: boolean } | { kind: 'outside' | 'not-regular' | 'unreadable' };

/**
 * Reads at most `MAX_REGEX_FILE_BYTES` of a selected file through a handle checked to be inside
 * the workspace, not following a link in its last component. Only a regular file is read: a
 * FIFO would block the read until a writer comes, a device may never end.
 */
async function readInWorkspace(workspace: string, file: string): Promise<FileRead> {
  const opened = await openInWorkspace(workspace, file, { followFinalLink: false });
  if (!opened.ok) return { kind: opened.kind === 'refused' ? 'outside' : opened.kind === 'folder' ? 'not-regular' : 'unreadable' };
  try {
    if (!opened.stats.isFile()) return { kind: 'not-regular' };
    const size = opened.stats.size;
    const buffer = Buffer.alloc(Number(size < BigInt(MAX_REGEX_FILE_BYTES) ? size : BigInt(MAX_REGEX_FILE_BYTES)));
    const { bytesRead } = await opened.handle.read(buffer, 0, buffer.length, 0);
    return { kind: 'read', bytes: buffer.subarray(0, bytesRead), capped: size > BigInt(MAX_REGEX_FILE_BYTES) };
  } catch {
    return { kind: 'unreadable' };
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

import { open } from 'node:fs/promises';
import { isAbsolute, win32 } from 'node:path';
import { errorMessage } from '@conclave/core';
import { glob } from 'tinyglobby';
import { redactSecrets } from '../security/redact.js';
import { resolveInWorkspace } from '../security/workspace-path.js';
import type { RegexGate } from './gate-definition.js';
import type { GateEvidence } from './gate-evidence.js';
import type { GateRunContext } from './gate-run-context.js';

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
 * link may lead anywhere). Each selected file is still resolved with `resolveInWorkspace` before
 * it is read, so one that resolves outside (a folder swapped for a link mid-run) is skipped and
 * named. An invalid regular expression fails the gate with the parser's message.
 */
export async function runRegexGate(gate: RegexGate, context: GateRunContext): Promise<GateEvidence> {
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

  let regex: RegExp;
  try {
    regex = new RegExp(gate.pattern, `${gate.flags ?? ''}g`);
  } catch (thrown) {
    return done(false, `invalid regular expression ${shown}: ${errorMessage(thrown)}`);
  }
  const unsafe = gate.files.find((pattern) => escapes(pattern));
  if (unsafe !== undefined) return done(false, `the glob ${unsafe} may leave the workspace; use a workspace-relative glob without ".."`);

  let files: string[];
  try {
    files = (await glob([...gate.files], { cwd: context.workspace, dot: false, onlyFiles: true, followSymbolicLinks: false, absolute: false, expandDirectories: false, ignore: ALWAYS_IGNORED })).sort();
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
  for (const file of files) {
    if (context.signal?.aborted) return done(false, 'aborted');
    const resolved = await resolveInWorkspace(context.workspace, file);
    if (!resolved.ok) {
      outside.push(file);
      continue;
    }
    const read = await readCapped(resolved.path);
    if (read === undefined) {
      unreadable.push(file);
      continue;
    }
    if (read.capped) capped.push(file);
    for (const match of findMatches(read.text, regex)) {
      matchingFiles.add(file);
      if (matches.length < MAX_LISTED_MATCHES) matches.push({ file, ...match });
      if (gate.mode === 'must_match') break;
    }
  }
  if (outside.length > 0) notes.push(`skipped ${outside.length} file(s) resolving outside the workspace: ${outside.slice(0, 5).join(', ')}`);
  if (capped.length > 0) notes.push(`read only the first ${MAX_REGEX_FILE_BYTES / 1024 / 1024} MB of ${capped.slice(0, 5).join(', ')}`);
  if (unreadable.length > 0) notes.push(`could not read ${unreadable.slice(0, 5).join(', ')}`);
  const suffix = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  const listing = matches.map((m) => `${m.file}:${m.line}: ${m.text}`).join('\n');
  const first = matches[0];
  const globs = gate.files.join(', ');

  if (files.length === 0) {
    return gate.mode === 'must_match' ? done(false, `no file selected by ${globs}, so nothing matches ${shown}${suffix}`) : done(true, `no file selected by ${globs}; nothing to match ${shown}${suffix}`);
  }
  if (first === undefined) {
    return gate.mode === 'must_match' ? done(false, `none of ${files.length} file(s) matches ${shown}${suffix}`, listing) : done(true, `none of ${files.length} file(s) matches ${shown}${suffix}`);
  }
  const more = matchingFiles.size > 1 ? ` and ${matchingFiles.size - 1} more file(s)` : '';
  const at = `${first.file}:${first.line} matches ${shown}`;
  return gate.mode === 'must_match' ? done(true, `${at}${more}${suffix}`, listing) : done(false, `${at}${more}${suffix}`, listing);
}

/** Whether a glob (negated or not) could reach outside the workspace. */
function escapes(pattern: string): boolean {
  const bare = pattern.replace(/^!+/, '');
  return isAbsolute(bare) || win32.isAbsolute(bare) || bare.split(/[\\/]+/).includes('..');
}

/** Matches in one file, one per line, with 1-based line numbers and the line (cut to 200 characters). */
function* findMatches(text: string, regex: RegExp): Generator<{ line: number; text: string }> {
  let lastLine = -1;
  let line = 1;
  let counted = 0;
  regex.lastIndex = 0;
  for (const match of text.matchAll(regex)) {
    for (let i = text.indexOf('\n', counted); i !== -1 && i < match.index; i = text.indexOf('\n', i + 1)) line += 1;
    counted = match.index;
    if (line === lastLine) continue;
    lastLine = line;
    const start = text.lastIndexOf('\n', match.index - 1) + 1;
    const end = text.indexOf('\n', match.index);
    const content = text.slice(start, end === -1 ? undefined : end).trim();
    yield { line, text: content.length > 200 ? `${content.slice(0, 200)}…` : content };
  }
}

/** Reads a file's text, at most `MAX_REGEX_FILE_BYTES`; undefined when it cannot be read. */
async function readCapped(path: string): Promise<{ text: string; capped: boolean } | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(size, MAX_REGEX_FILE_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { text: buffer.subarray(0, bytesRead).toString('utf8'), capped: size > MAX_REGEX_FILE_BYTES };
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

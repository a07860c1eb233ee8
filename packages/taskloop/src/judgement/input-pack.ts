import { execFile } from 'node:child_process';
import { errorMessage } from '@conclave/core/internal';
import { gitEnvironment, hardenedGitArgs } from '../loop/git-hardening.js';

/** The parts of a spec the verifiers judge against; a `TaskSpec` fits. */
export interface PackSpecInput {
  readonly id: string;
  readonly title: string;
  readonly acceptance: readonly string[];
  readonly constraints: readonly string[];
}

/** A short excerpt of a related spec (the parent, or one that comes next), never the whole spec. */
export interface SpecExcerpt {
  /** The related spec's id. */
  readonly spec: string;
  readonly excerpt: string;
}

/** A related spec or task that could not be read for the pack, and why (recorded, never fatal). */
export interface UnavailableRelation {
  readonly spec: string;
  readonly reason: string;
}

/** A related task or spec as the verifiers see it: its title and criteria, never more. */
export function excerptOf(task: { readonly title: string; readonly acceptance: readonly string[] }): string {
  return [task.title, ...task.acceptance.map((criterion) => `- ${criterion}`)].join('\n');
}

/** What an input pack is built from. */
export interface InputPackSource {
  readonly spec: PackSpecInput;
  /** 0 for the top task; a split child is one deeper than its parent. */
  readonly depth: number;
  /** 1-based. */
  readonly attempt: number;
  readonly budgets: Readonly<Record<string, number>>;
  readonly changedFiles: readonly string[];
  /** A unified diff (`git diff` output). */
  readonly diff: string;
  readonly parentExcerpt?: SpecExcerpt;
  readonly nextExcerpts?: readonly SpecExcerpt[];
  readonly unavailableRelations?: readonly UnavailableRelation[];
  readonly policy: Readonly<Record<string, string | number | boolean>>;
}

/** How much of the variable parts the pack keeps. */
export interface InputPackLimits {
  /** The diff's byte budget (UTF-8), shared fairly between files (default 48 KiB). */
  readonly maxDiffBytes?: number;
  /** Each related-spec excerpt's length in characters (default 1200). */
  readonly maxExcerptChars?: number;
}

export const DEFAULT_MAX_DIFF_BYTES = 48 * 1024;
export const DEFAULT_MAX_EXCERPT_CHARS = 1200;

/** What every verifier is given: JSON data, bounded in size. */
export interface InputPack {
  readonly spec: {
    readonly id: string;
    readonly title: string;
    readonly acceptance: readonly string[];
    readonly constraints: readonly string[];
  };
  readonly context: { readonly depth: number; readonly attempt: number; readonly budgets: Readonly<Record<string, number>> };
  readonly workspace: {
    readonly changedFiles: readonly string[];
    /** The capped diff: every file's header kept, hunks trimmed to a fair share, a marker where bytes were dropped. */
    readonly diff: string;
    /** Whether any of the diff was dropped. */
    readonly diffTruncated: boolean;
  };
  /** `unavailable`: related specs the run could not read (missing, or outside the workspace); only when there are some. */
  readonly relations: {
    readonly parent?: SpecExcerpt;
    readonly next: readonly SpecExcerpt[];
    readonly unavailable?: readonly UnavailableRelation[];
  };
  readonly policy: Readonly<Record<string, string | number | boolean>>;
}

export interface InputPackResult {
  readonly pack: InputPack;
  readonly capped: {
    /** Bytes of the original diff not in the pack (markers not counted). */
    readonly diffBytesDropped: number;
    /** How many excerpts were cut to `maxExcerptChars`. */
    readonly excerptsTruncated: number;
  };
  /** The pack's size as JSON (UTF-8 bytes) before and after capping. */
  readonly stats: { readonly bytesIn: number; readonly bytesKept: number };
}

/**
 * Builds the verifiers' input pack: the spec's contract, the context, the workspace change and
 * the relations. The diff is capped to `maxDiffBytes` per file, fairly: every file keeps its
 * header (so each verifier sees every file that changed) and the hunk budget is shared by
 * water-filling, so small files stay whole and large ones are trimmed to an equal share. The
 * parent and next specs only ever come in as excerpts of at most `maxExcerptChars`. Pure.
 */
export function buildInputPack(source: InputPackSource, limits: InputPackLimits = {}): InputPackResult {
  const maxDiffBytes = limits.maxDiffBytes ?? DEFAULT_MAX_DIFF_BYTES;
  const maxExcerptChars = limits.maxExcerptChars ?? DEFAULT_MAX_EXCERPT_CHARS;
  const diff = capDiff(source.diff, maxDiffBytes);

  let excerptsTruncated = 0;
  const cut = (excerpt: SpecExcerpt): SpecExcerpt => {
    if (excerpt.excerpt.length <= maxExcerptChars) return { spec: excerpt.spec, excerpt: excerpt.excerpt };
    excerptsTruncated += 1;
    return { spec: excerpt.spec, excerpt: `${excerpt.excerpt.slice(0, Math.max(0, maxExcerptChars - 1))}…` };
  };

  const assemble = (diffText: string, truncated: boolean, excerpt: (e: SpecExcerpt) => SpecExcerpt): InputPack => ({
    spec: {
      id: source.spec.id,
      title: source.spec.title,
      acceptance: [...source.spec.acceptance],
      constraints: [...source.spec.constraints],
    },
    context: { depth: source.depth, attempt: source.attempt, budgets: { ...source.budgets } },
    workspace: { changedFiles: [...source.changedFiles], diff: diffText, diffTruncated: truncated },
    relations: {
      ...(source.parentExcerpt === undefined ? {} : { parent: excerpt(source.parentExcerpt) }),
      next: (source.nextExcerpts ?? []).map(excerpt),
      ...(source.unavailableRelations === undefined || source.unavailableRelations.length === 0
        ? {}
        : { unavailable: source.unavailableRelations.map((relation) => ({ ...relation })) }),
    },
    policy: { ...source.policy },
  });

  const pack = assemble(diff.text, diff.dropped > 0, cut);
  const uncapped = assemble(source.diff, false, (e) => e);
  return {
    pack,
    capped: { diffBytesDropped: diff.dropped, excerptsTruncated },
    stats: { bytesIn: byteLength(JSON.stringify(uncapped)), bytesKept: byteLength(JSON.stringify(pack)) },
  };
}

/** One file's part of a unified diff: its header lines, then its hunks. */
interface FileSection {
  readonly header: string;
  readonly body: string;
}

/**
 * Caps a unified diff to `maxBytes`, fairly per file. Headers (`diff --git`, mode and index lines,
 * `---`/`+++`, "Binary files differ") are always kept, even if they alone pass the budget.
 * Each file's hunks are cut at a line boundary and a marker line says how many bytes went.
 */
export function capDiff(diff: string, maxBytes: number): { readonly text: string; readonly dropped: number } {
  const total = byteLength(diff);
  if (total <= maxBytes) return { text: diff, dropped: 0 };
  const sections = splitDiff(diff);
  const headerBytes = sections.reduce((sum, s) => sum + byteLength(s.header), 0);
  // Room for one marker per file, so the capped text stays within the budget.
  const markerBytes = sections.filter((s) => s.body !== '').length * byteLength(marker(9_999_999));
  const shares = fairShares(
    sections.map((s) => byteLength(s.body)),
    Math.max(0, maxBytes - headerBytes - markerBytes),
  );

  let dropped = 0;
  const parts = sections.map((section, i) => {
    const kept = sliceLines(section.body, shares[i] ?? 0);
    const lost = byteLength(section.body) - byteLength(kept);
    dropped += lost;
    return lost === 0 ? section.header + section.body : section.header + kept + marker(lost);
  });
  return { text: parts.join(''), dropped };
}

const marker = (bytes: number): string => `… [${bytes} bytes of this file's diff dropped]\n`;

/** Water-filling: each size gets at most an equal share of what the smaller ones left over. */
function fairShares(sizes: readonly number[], budget: number): number[] {
  const order = sizes.map((size, i) => ({ size, i })).sort((a, b) => a.size - b.size);
  const shares = new Array<number>(sizes.length).fill(0);
  let left = budget;
  order.forEach(({ size, i }, rank) => {
    const share = Math.min(size, Math.floor(left / (order.length - rank)));
    shares[i] = share;
    left -= share;
  });
  return shares;
}

function splitDiff(diff: string): FileSection[] {
  const lines = diff.split(/(?<=\n)/);
  const sections: { header: string[]; body: string[] }[] = [];
  let current: { header: string[]; body: string[] } | undefined;
  for (const line of lines) {
    if (current === undefined || line.startsWith('diff --git ') || line.startsWith('diff --cc ')) {
      current = { header: [], body: [] };
      sections.push(current);
    }
    // Everything before a file's first hunk is its header.
    if (current.body.length === 0 && !line.startsWith('@@')) current.header.push(line);
    else current.body.push(line);
  }
  return sections.map((s) => ({ header: s.header.join(''), body: s.body.join('') }));
}

/** The longest prefix of whole lines within `maxBytes` (or, when even the first line is longer, its first bytes). */
function sliceLines(text: string, maxBytes: number): string {
  if (byteLength(text) <= maxBytes) return text;
  let kept = '';
  let used = 0;
  for (const line of text.split(/(?<=\n)/)) {
    const size = byteLength(line);
    if (used + size > maxBytes) {
      if (kept === '' && maxBytes > 0) return `${sliceBytes(line, maxBytes - 1)}\n`;
      break;
    }
    kept += line;
    used += size;
  }
  return kept;
}

function sliceBytes(text: string, maxBytes: number): string {
  // Cutting inside a multi-byte character leaves a replacement character: drop it.
  return Buffer.from(text, 'utf8')
    .subarray(0, Math.max(0, maxBytes))
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The change in a workspace against a base ref; on failure, the error and nothing else. */
export type WorkspaceDiff =
  | { readonly ok: true; readonly changedFiles: readonly string[]; readonly untracked: readonly string[]; readonly diff: string }
  | {
      readonly ok: false;
      readonly error: { readonly message: string };
      readonly changedFiles: readonly string[];
      readonly untracked: readonly string[];
      readonly diff: string;
    };

export interface WorkspaceDiffOptions {
  /** Untracked files beyond this many are listed but not diffed (default 200). */
  readonly maxUntrackedDiffs?: number;
}

/**
 * The workspace's change since `baseRef`, from real git: `git diff --no-color <baseRef>` for the
 * tracked files, `git diff --name-only <baseRef>` plus `git ls-files --others --exclude-standard`
 * for the changed files, and a new-file diff for each untracked file (they are often most of a
 * coding agent's work). Never throws or rejects: a failure comes back as a value with an error.
 */
export async function workspaceDiff(workspace: string, baseRef: string, options: WorkspaceDiffOptions = {}): Promise<WorkspaceDiff> {
  const failed = (message: string): WorkspaceDiff => ({ ok: false, error: { message }, changedFiles: [], untracked: [], diff: '' });
  if (baseRef === '' || baseRef.startsWith('-')) return failed(`"${baseRef}" is not a git ref`);
  try {
    const [tracked, names, others] = await Promise.all([
      gitText(workspace, ['diff', '--no-color', '--no-ext-diff', baseRef, '--']),
      gitText(workspace, ['diff', '--name-only', '-z', baseRef, '--']),
      gitText(workspace, ['ls-files', '--others', '--exclude-standard', '-z']),
    ]);
    if (!tracked.ok) return failed(tracked.message);
    if (!names.ok) return failed(names.message);
    if (!others.ok) return failed(others.message);
    const untracked = splitNul(others.stdout);
    const changedFiles = [...splitNul(names.stdout), ...untracked];
    const toDiff = untracked.slice(0, options.maxUntrackedDiffs ?? 200);
    const added: string[] = [];
    // A few at a time, in order. --no-index exits 1 when the files differ, which for a new file
    // they always do. A file git cannot diff (an embedded repository, a socket) stays listed
    // among the changed files, without a diff.
    for (let i = 0; i < toDiff.length; i += UNTRACKED_CONCURRENCY) {
      const batch = await Promise.all(
        toDiff
          .slice(i, i + UNTRACKED_CONCURRENCY)
          .map((file) => gitText(workspace, ['diff', '--no-color', '--no-ext-diff', '--no-index', '--', '/dev/null', file], [0, 1])),
      );
      for (const result of batch) if (result.ok) added.push(result.stdout);
    }
    return { ok: true, changedFiles, untracked, diff: tracked.stdout + added.join('') };
  } catch (thrown) {
    return failed(`could not diff ${workspace}: ${errorMessage(thrown)}`);
  }
}

const UNTRACKED_CONCURRENCY = 8;

function splitNul(text: string): string[] {
  return text.split('\0').filter((name) => name !== '');
}

function gitText(
  workspace: string,
  args: readonly string[],
  okCodes: readonly number[] = [0],
): Promise<{ ok: true; stdout: string } | { ok: false; message: string }> {
  let argv: string[];
  try {
    // The loop's own git hardening: no hook, filter, diff or textconv program the builder wrote
    // runs, and git's environment holds no provider key (loop/git-hardening.ts).
    argv = hardenedGitArgs(workspace, ['-c', 'core.quotePath=false', ...args]);
  } catch (thrown) {
    return Promise.resolve({ ok: false, message: `git ${args[0] ?? ''} refused in ${workspace}: ${errorMessage(thrown)}` });
  }
  return new Promise((resolve) => {
    execFile(
      'git',
      argv,
      { cwd: workspace, env: gitEnvironment(process.env), maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error === null) return resolve({ ok: true, stdout });
        const code = (error as NodeJS.ErrnoException & { code?: unknown }).code;
        if (typeof code === 'number' && okCodes.includes(code)) return resolve({ ok: true, stdout });
        if (code === 'ENOENT') return resolve({ ok: false, message: `git could not run in ${workspace}: ${errorMessage(error)}` });
        const detail = (stderr || stdout || errorMessage(error)).trim().split('\n')[0] ?? '';
        resolve({ ok: false, message: `git ${args[0] ?? ''} failed in ${workspace}: ${detail}` });
      },
    );
  });
}

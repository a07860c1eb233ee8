/** Options for `lineDiff`. */
export interface LineDiffOptions {
  /** Unchanged lines shown around each change (default 2). */
  readonly context?: number;
  /** Longest diff returned, in lines; the rest is summarised (default 60). */
  readonly maxLines?: number;
  /** Header names for the two sides. */
  readonly expectedLabel?: string;
  readonly actualLabel?: string;
}

/** Largest changed middle (lines × lines) diffed exactly; beyond it the block is shown replaced whole. */
const EXACT_LIMIT = 4_000_000;

/**
 * A small unified line diff of `expected` against `actual`, for showing a person what someone
 * else changed in a file. The common head and tail are trimmed first, so a one-line edit in a
 * 5,000-line plan costs one comparison per line; the changed middle is diffed exactly (longest
 * common subsequence) while it is small, and shown as removed-then-added when it is not.
 * Returns '' when the texts are equal.
 */
export function lineDiff(expected: string, actual: string, options: LineDiffOptions = {}): string {
  if (expected === actual) return '';
  const context = options.context ?? 2;
  const maxLines = options.maxLines ?? 60;
  const a = splitLines(expected);
  const b = splitLines(actual);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;

  const ops: Op[] = [];
  for (let i = 0; i < head; i += 1) ops.push({ kind: ' ', text: a[i] as string });
  ops.push(...middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)));
  for (let i = a.length - tail; i < a.length; i += 1) ops.push({ kind: ' ', text: a[i] as string });

  const out = [`--- ${options.expectedLabel ?? 'expected'}`, `+++ ${options.actualLabel ?? 'actual'}`, ...hunks(ops, context)];
  if (out.length <= maxLines) return out.join('\n');
  return [...out.slice(0, maxLines), `… ${out.length - maxLines} more diff lines`].join('\n');
}

interface Op {
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** An exact diff of the changed middle by longest common subsequence, or remove-all/add-all when it is big. */
function middle(a: readonly string[], b: readonly string[]): Op[] {
  if (a.length * b.length > EXACT_LIMIT || a.length === 0 || b.length === 0) {
    return [...a.map((text): Op => ({ kind: '-', text })), ...b.map((text): Op => ({ kind: '+', text }))];
  }
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i * width + j] =
        a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i] as string });
      i += 1;
      j += 1;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      ops.push({ kind: '-', text: a[i] as string });
      i += 1;
    } else {
      ops.push({ kind: '+', text: b[j] as string });
      j += 1;
    }
  }
  for (; i < a.length; i += 1) ops.push({ kind: '-', text: a[i] as string });
  for (; j < b.length; j += 1) ops.push({ kind: '+', text: b[j] as string });
  return ops;
}

/** Groups the ops into `@@ -l,n +l,n @@` hunks with `context` unchanged lines around each change. */
function hunks(ops: readonly Op[], context: number): string[] {
  const out: string[] = [];
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  let k = 0;
  let at = 0;
  let aLine = 1;
  let bLine = 1;
  while (k < changed.length) {
    const start = Math.max(0, (changed[k] as number) - context);
    let end = (changed[k] as number) + context;
    while (k + 1 < changed.length && (changed[k + 1] as number) - context <= end + 1) {
      k += 1;
      end = (changed[k] as number) + context;
    }
    end = Math.min(ops.length - 1, end);
    k += 1;
    for (; at < start; at += 1) {
      if (ops[at]?.kind !== '+') aLine += 1;
      if (ops[at]?.kind !== '-') bLine += 1;
    }
    const body = ops.slice(start, end + 1);
    const aCount = body.filter((op) => op.kind !== '+').length;
    const bCount = body.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${aCount === 0 ? aLine - 1 : aLine},${aCount} +${bCount === 0 ? bLine - 1 : bLine},${bCount} @@`);
    for (const op of body) out.push(`${op.kind}${op.text}`);
  }
  return out;
}

import { describePlainDataRefusal, toPlainData } from '@conclave/core/data';
import type { Fact } from './board.js';
import { factInputSchema } from './board-schema.js';

/** The facts a run adds to its board's, or why they cannot be used (one line, with each fact's place). */
export type ExtraFacts<A extends string> =
  { readonly ok: true; readonly facts: readonly Fact<A>[] } | { readonly ok: false; readonly message: string };

/**
 * Checks the facts passed to one run (`DebateOptions.facts`) as the loader checks a board's own:
 * each on an axis of the rubric, its value on the 0–10 scale, with a note. A misspelt axis would
 * otherwise be silently dropped by every member, and a value of 99 would lift their scores. The
 * caller's list is copied into plain data first (read once, in a guard), so a getter or proxy
 * that throws is a refusal here too, never a rejection of the run.
 */
export function readExtraFacts<A extends string>(given: unknown, axes: readonly A[]): ExtraFacts<A> {
  const plain = toPlainData(given);
  if (plain.isErr()) return { ok: false, message: `facts: cannot be read (${describePlainDataRefusal(plain.error)})` };
  if (!Array.isArray(plain.value)) return { ok: false, message: 'facts: must be a list of { axis, value, note }' };
  const problems: string[] = [];
  const facts = plain.value.map((item: unknown, f): Fact<A> => {
    const parsed = factInputSchema.safeParse(item);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        problems.push(`facts[${f}]${issue.path.map((key) => `.${String(key)}`).join('')}: ${issue.message}`);
    // Plain data: reading it runs nothing. Every problem is reported, the axis's too.
    const axis: unknown = item !== null && typeof item === 'object' ? (item as { axis?: unknown }).axis : undefined;
    if (typeof axis === 'string' && !(axes as readonly string[]).includes(axis))
      problems.push(`facts[${f}].axis: "${axis}" is not an axis of the rubric (${axes.join(', ')}); fix the spelling`);
    return (parsed.success ? parsed.data : item) as Fact<A>;
  });
  return problems.length === 0 ? { ok: true, facts } : { ok: false, message: problems.join('; ') };
}

import type { Oracle } from '../oracle.js';
import { proven, refuted } from './finding.js';

/** The evidence is no monoculture: enough kinds of source, and no single source dominating. */
export const evidenceDiverse: Oracle<'evidence_diverse'> = {
  name: 'evidence-diverse',
  kind: 'evidence_diverse',
  prove(_claim, record, { policy }) {
    const { evidence } = record;
    const total = evidence.length;
    if (total === 0) return refuted('there is no evidence, so no diversity');
    // Kinds and sources in the order they first appear; plain lists, as there are few of each
    // (a list search is SameValueZero, as a Set's), and a Map once the sources are many.
    const kinds: string[] = [];
    const sources: string[] = [];
    const counts: number[] = [];
    let index: Map<string, number> | undefined;
    for (let i = 0; i < total; i += 1) {
      const item = evidence[i] as (typeof evidence)[number];
      if (!kinds.includes(item.kind)) kinds.push(item.kind);
      const at = index !== undefined ? (index.get(item.sourceId) ?? -1) : sources.indexOf(item.sourceId);
      if (at >= 0) {
        counts[at] = (counts[at] as number) + 1;
      } else {
        sources.push(item.sourceId);
        counts.push(1);
        if (index !== undefined) index.set(item.sourceId, sources.length - 1);
        else if (sources.length > 16) index = new Map(sources.map((source, j) => [source, j]));
      }
    }
    let problems: string[] | undefined;
    if (kinds.length < policy.minKinds)
      (problems ??= []).push(
        `${kinds.length} kind${kinds.length === 1 ? '' : 's'} of source (${kinds.join(', ')}); at least ${policy.minKinds} needed`,
      );
    for (let j = 0; j < sources.length; j += 1) {
      const count = counts[j] as number;
      if (count / total > policy.maxSourceShare)
        (problems ??= []).push(`source "${sources[j]}" supplies ${count} of ${total} items, above a share of ${policy.maxSourceShare}`);
    }
    return problems === undefined
      ? proven(diverseReason(kinds.length, policy.maxSourceShare))
      : refuted(problems.join('; '), { kinds, problems });
  },
};

/** The reason given for diverse evidence, remembered for the last figures it was made for. */
let last: { readonly kinds: number; readonly share: number; readonly reason: string } | undefined;

function diverseReason(kinds: number, share: number): string {
  if (last === undefined || last.kinds !== kinds || !Object.is(last.share, share))
    last = { kinds, share, reason: `${kinds} kinds of source, none above a share of ${share}` };
  return last.reason;
}

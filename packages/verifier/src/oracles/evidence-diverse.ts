import type { Oracle } from '../oracle.js';
import { proven, refuted } from './finding.js';

/** The evidence is no monoculture: enough kinds of source, and no single source dominating. */
export const evidenceDiverse: Oracle<'evidence_diverse'> = {
  name: 'evidence-diverse',
  kind: 'evidence_diverse',
  prove(_claim, record, { policy }) {
    const total = record.evidence.length;
    if (total === 0) return refuted('there is no evidence, so no diversity');
    const kinds = new Set(record.evidence.map((item) => item.kind));
    const perSource = new Map<string, number>();
    for (const item of record.evidence) perSource.set(item.sourceId, (perSource.get(item.sourceId) ?? 0) + 1);
    const problems: string[] = [];
    if (kinds.size < policy.minKinds) problems.push(`${kinds.size} kind${kinds.size === 1 ? '' : 's'} of source (${[...kinds].join(', ')}); at least ${policy.minKinds} needed`);
    for (const [source, count] of perSource) {
      if (count / total > policy.maxSourceShare) problems.push(`source "${source}" supplies ${count} of ${total} items, above a share of ${policy.maxSourceShare}`);
    }
    return problems.length === 0
      ? proven(`${kinds.size} kinds of source, none above a share of ${policy.maxSourceShare}`)
      : refuted(problems.join('; '), { kinds: [...kinds], problems });
  },
};

import type { BuiltInClaimKind } from '../oracles/built-in.js';
import type { Lens, LensJudgement } from '../lens.js';

/** How a lens treats each claim it watches when the claim is refuted. */
export type OnRefuted = 'reject' | 'veto';

/**
 * A lens that judges a record by the verifier's findings on some built-in claims: approve when
 * all of them are proven; a refuted claim rejects or vetoes as configured; an unprovable one
 * rejects (it can never approve).
 */
export function claimsLens(name: string, watched: Readonly<Partial<Record<BuiltInClaimKind, OnRefuted>>>): Lens {
  const kinds = Object.keys(watched) as BuiltInClaimKind[];
  const lens: Lens = {
    name,
    evaluate(_record, { report }): LensJudgement {
      if (report.malformed.length > 0) return { decision: 'veto', reasons: report.malformed.map((issue) => `malformed record: ${issue}`) };
      let decision: LensJudgement['decision'] = 'approve';
      const reasons: string[] = [];
      for (const kind of kinds) {
        const found = report.claims.find((c) => c.claim.id === kind);
        if (!found) {
          decision = decision === 'veto' ? 'veto' : 'reject';
          reasons.push(`${kind}: not checked`);
        } else if (found.status === 'refuted') {
          if (watched[kind] === 'veto') decision = 'veto';
          else if (decision === 'approve') decision = 'reject';
          reasons.push(`${kind}: ${found.reason}`);
        } else if (found.status === 'unprovable') {
          if (decision === 'approve') decision = 'reject';
          reasons.push(`${kind}: unprovable: ${found.reason}`);
        }
      }
      return { decision, reasons: decision === 'approve' ? kinds.map((kind) => `${kind}: proven`) : reasons };
    },
  };
  return Object.freeze(lens);
}

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
  // What an approval says, made once: the panel copies a lens's reasons, so one list serves every call.
  const allProven: readonly string[] = Object.freeze(kinds.map((kind) => `${kind}: proven`));
  const lens: Lens = {
    name,
    evaluate(_record, { report }): LensJudgement {
      if (report.malformed.length > 0) return { decision: 'veto', reasons: report.malformed.map((issue) => `malformed record: ${issue}`) };
      const { claims } = report;
      let decision: LensJudgement['decision'] = 'approve';
      const reasons: string[] = [];
      for (let k = 0; k < kinds.length; k += 1) {
        const kind = kinds[k] as BuiltInClaimKind;
        let found: (typeof claims)[number] | undefined;
        for (let i = 0; i < claims.length; i += 1) {
          if ((claims[i] as (typeof claims)[number]).claim.id === kind) {
            found = claims[i];
            break;
          }
        }
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
      return { decision, reasons: decision === 'approve' ? allProven : reasons };
    },
  };
  const frozen = Object.freeze(lens);
  reportOnly.add(frozen);
  return frozen;
}

/** The lenses `claimsLens` made: they read the report only, never the view. */
const reportOnly = new WeakSet<Lens>();

/** Whether a lens is one `claimsLens` made, and so never reads the view (the panel need not freeze it for such a lens). */
export function readsOnlyTheReport(lens: Lens): boolean {
  return reportOnly.has(lens);
}

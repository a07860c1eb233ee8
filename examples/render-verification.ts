import type { PanelVerdict, VerificationReport } from '@conclave/verifier';

/** A plain-text account of the verifier's claims and the panel's lenses. */
export function renderVerification(report: VerificationReport, verdict: PanelVerdict): string {
  const lines = ['', `Verifier (read-only, deterministic oracles): ${report.approved ? 'APPROVED' : 'NOT APPROVED'}`];
  for (const c of report.claims) lines.push(`  ${c.status.padEnd(10)} ${c.claim.id.padEnd(24)} ${c.reason}`);
  for (const issue of report.malformed) lines.push(`  malformed: ${issue}`);
  lines.push('', `Panel (quorum ${verdict.quorum} of ${verdict.lenses.length}, any veto blocks): ${verdict.status.toUpperCase()} with ${verdict.approvals} approval${verdict.approvals === 1 ? '' : 's'}`);
  for (const lens of verdict.lenses) {
    lines.push(`  ${lens.lens.padEnd(13)} ${lens.decision}${lens.decision === 'approve' ? '' : `: ${lens.reasons.join('; ')}`}`);
  }
  return lines.join('\n');
}

import { createOracleRegistry, proven, refuted, type Oracle } from '@conclave/verifier/oracles';

/** Proves `{ kind: 'gate_passed', subject: '<gate name>' }`: a gate of that name ran and passed. */
export const gatePassed: Oracle<'gate_passed'> = {
  name: 'gate-passed',
  kind: 'gate_passed',
  prove(claim, record) {
    const runs = record.evidence.flatMap((e) => e.validation).filter((signal) => signal.name === claim.subject);
    if (runs.length === 0) return refuted(`no gate named "${claim.subject}" ran`);
    return runs.every((signal) => signal.passed) ? proven(`"${claim.subject}" passed`) : refuted(`"${claim.subject}" failed`);
  },
};

/** The built-in oracles plus `gatePassed`: pass it as `verifyDecision(record, { oracles })`. */
export const oracles = createOracleRegistry([gatePassed]);

import type { RosterMember } from './brief.js';
import type { Dissent, MeetingRecord, Synthesis } from './meeting-result.js';
import type { ObjectionLedger } from './objection-ledger.js';
import type { OptionSlate } from './option-slate.js';
import type { SynthesisReply } from './prompt.js';
import type { Stance } from './stance.js';
import { tallyPositions } from './tally.js';

/** What the synthesis is built from: the code's decision and, when it succeeded, the facilitator's prose. */
export interface SynthesisInput {
  readonly question: string;
  readonly choice: string;
  readonly status: 'converged' | 'provisional';
  /** The final positions: the last round that kept a quorum. */
  readonly positions: readonly { readonly memberId: string; readonly stance: Stance }[];
  readonly roster: readonly RosterMember[];
  readonly nameOf: (memberId: string) => string;
  readonly slate: OptionSlate;
  readonly ledger: ObjectionLedger;
  /** The facilitator's write-up; `undefined` when it failed and the code writes the fallback. */
  readonly reply: SynthesisReply | undefined;
  readonly record: MeetingRecord;
}

/** The statement a meeting without dissent carries, so silence is never mistaken for omission. */
export const NO_DISSENT_STATEMENT = 'No member dissented: every member who answered the final round backed the decision.';

/**
 * Builds the synthesis. The choice, the dissent and the confidence come from the record, never
 * from the facilitator's prose, so a write-up cannot bury a minority or inflate agreement; the
 * facilitator only supplies rationale, reasons for rejections, risks and follow-ups, and every
 * gap it leaves (an option it did not explain, an open objection with no risk entry) is filled
 * from the record.
 */
export function synthesize(input: SynthesisInput): Synthesis {
  const order = input.slate.options.map((o) => o.id);
  const support = tallyPositions(
    input.positions.map(({ memberId, stance }) => ({ memberId, preferredOption: stance.preferredOption, confidence: stance.confidence })),
    order,
  );
  const titleOf = (id: string): string => input.slate.options.find((o) => o.id === id)?.title ?? id;
  const backing = support.find((s) => s.option === input.choice);
  const answering = input.positions.length;
  const confidence = backing === undefined || answering === 0 ? 0 : (backing.backers.length / answering) * backing.meanConfidence;

  const unresolved = input.ledger.entries.filter((e) => e.severity === 'substantive' && e.against === input.choice);
  const roleOf = (id: string): string => input.roster.find((m) => m.id === id)?.role ?? '';
  const dissenters = input.positions
    .filter(({ stance }) => stance.preferredOption !== input.choice)
    .map(({ memberId, stance }) => ({
      memberId,
      name: input.nameOf(memberId),
      role: roleOf(memberId),
      preferredOption: stance.preferredOption,
      confidence: stance.confidence,
      reasons: stance.reasons,
      objections: stance.objections,
    }));
  const dissent: Dissent =
    dissenters.length > 0
      ? { present: true, dissenters, unresolvedObjections: unresolved }
      : { present: false, statement: NO_DISSENT_STATEMENT, unresolvedObjections: unresolved };

  const reply = input.reply;
  const supportOf = (id: string): number => support.find((s) => s.option === id)?.backers.length ?? 0;
  const rejected = order
    .filter((id) => id !== input.choice)
    .map((id) => {
      const given = reply?.rejected.find((r) => r.option === id)?.why;
      const objections = input.ledger.entries.filter((e) => e.severity === 'substantive' && e.against === id).map((e) => e.text);
      const derived = `${supportOf(id)} of ${answering} members backed it in the final round, against ${backing?.backers.length ?? 0} for ${input.choice}${objections.length > 0 ? `; substantive objections: ${objections.join('; ')}` : ''}`;
      return { option: id, title: titleOf(id), why: given ?? derived };
    });
  const risks = [...(reply?.risks ?? [])];
  for (const entry of unresolved) {
    if (!risks.some((r) => r.risk.includes(entry.text)))
      risks.push({ risk: entry.text, mitigation: `unresolved objection ${entry.id}: address it before acting on the decision` });
  }
  const backerReasons = input.positions
    .filter(({ stance }) => stance.preferredOption === input.choice)
    .flatMap(({ stance }) => stance.reasons);
  const rationale = reply?.rationale ?? `Backers' reasons: ${[...new Set(backerReasons)].join('; ')}`;

  return {
    question: input.question,
    decision: { choice: input.choice, title: titleOf(input.choice), status: input.status, support },
    rationale,
    rejected,
    dissent,
    risks,
    confidence,
    followUps: reply?.followUps ?? [],
    writtenBy: reply === undefined ? 'fallback' : 'facilitator',
    record: input.record,
  };
}

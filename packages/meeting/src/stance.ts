import * as z from 'zod';
import { ID_PATTERN } from './brief-schema.js';

/** How much an objection weighs: a substantive one blocks convergence when it is new. */
export type ObjectionSeverity = 'substantive' | 'minor';

const nonEmpty = z.string().trim().min(1, 'must not be empty');

/** An objection a member raises, optionally against one option. */
export const objectionSchema = z.strictObject({
  text: nonEmpty,
  severity: z.enum(['substantive', 'minor']),
  /** The option the objection is against, when it targets one. */
  against: z.string().optional(),
});

/** An option a member puts on the table. */
export const proposedOptionSchema = z.strictObject({
  id: z.string().regex(ID_PATTERN, 'an option id may use letters, digits, "_", "-" and "."'),
  title: nonEmpty,
  summary: nonEmpty,
});

/**
 * A member's stance. SHARED with peers: preferredOption, confidence, reasons, concerns,
 * objections, proposedOptions. PRIVATE: `privateReasoning` (and the member's role, disposition
 * and id, which never enter a stance); peers only ever see `SharedStance`.
 */
export const stanceSchema = z.strictObject({
  preferredOption: z.string().min(1, 'name the option you prefer'),
  confidence: z.number().min(0, 'confidence is between 0 and 1').max(1, 'confidence is between 0 and 1'),
  reasons: z.array(nonEmpty).min(1, 'give at least one grounded reason'),
  concerns: z.array(nonEmpty),
  objections: z.array(objectionSchema),
  proposedOptions: z.array(proposedOptionSchema),
  /** Thinking the member keeps to itself; never shown to peers. */
  privateReasoning: z.string().optional(),
});

/** A member's stance, as validated. */
export type Stance = z.output<typeof stanceSchema>;
/** An objection inside a stance. */
export type Objection = z.output<typeof objectionSchema>;
/** An option proposed inside a stance. */
export type ProposedOption = z.output<typeof proposedOptionSchema>;

/** The names of the fields peers see; everything else in a stance is private. */
export const SHARED_STANCE_FIELDS = ['preferredOption', 'confidence', 'reasons', 'concerns', 'objections', 'proposedOptions'] as const;

/** What peers see of a stance: the shared fields under the member's neutral name. */
export interface SharedStance {
  readonly name: string;
  readonly preferredOption: string;
  readonly confidence: number;
  readonly reasons: readonly string[];
  readonly concerns: readonly string[];
  readonly objections: readonly Objection[];
  readonly proposedOptions: readonly ProposedOption[];
}

/** Strips a stance down to what peers may see, labelled with the neutral name (never the id or role). */
export function shareStance(stance: Stance, neutralName: string): SharedStance {
  return {
    name: neutralName,
    preferredOption: stance.preferredOption,
    confidence: stance.confidence,
    reasons: [...stance.reasons],
    concerns: [...stance.concerns],
    objections: stance.objections.map((objection) => ({ ...objection })),
    proposedOptions: stance.proposedOptions.map((option) => ({ ...option })),
  };
}

/**
 * The stance schema for one call: the preferred option must be on the slate or proposed in the
 * same stance, so a member cannot back an option nobody can see.
 */
export function stanceSchemaFor(slateIds: readonly string[]): z.ZodType<Stance> {
  return stanceSchema.superRefine((stance, ctx) => {
    const known = new Set([...slateIds, ...stance.proposedOptions.map((option) => option.id)]);
    if (!known.has(stance.preferredOption)) {
      ctx.addIssue({
        code: 'custom',
        path: ['preferredOption'],
        message: `"${stance.preferredOption}" is not on the slate (${slateIds.join(', ')}) nor proposed in this stance`,
      });
    }
  });
}

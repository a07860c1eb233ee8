import * as z from 'zod';

/** Member ids and phase names: letters, digits, `_`, `-` and `.`, starting with a letter or digit. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const name = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .regex(NAME, `${what} may use letters, digits, "_", "-" and "." and must start with a letter or digit`);

/** A council member as written in a board file. */
export const memberInputSchema = z.strictObject({
  id: name('a member id'),
  /** Who the member is and how it argues; becomes its instructions. */
  persona: z.string({ error: 'persona must be a string' }).min(1, 'persona must not be empty'),
  /** A model reference, `provider:model`. */
  model: z.string({ error: 'model must be a model reference such as "offline:analyst"' }),
  /** How much this member counts in the consensus (default 1). */
  weight: z.number({ error: 'weight must be a finite number' }).optional(),
  /** The model family it belongs to (default: derived from `model`); members of one family tend to err together. */
  family: name('a family').optional(),
  /** How much the member cares about each axis (default 1 each); steers its attention. */
  priorities: z.record(z.string(), z.number({ error: 'a priority must be a number' })).optional(),
});

/** A phase as written in a board file. */
export const phaseInputSchema = z.strictObject({
  name: name('a phase name'),
  description: z.string().optional(),
  /** The contrarian phase argues against the front-runner; it must be the last phase. */
  contrarian: z.boolean({ error: 'contrarian must be true or false' }).optional(),
  members: z.array(memberInputSchema, { error: 'members must be a list' }),
});

/** A structured fact the council weighs, tied to one rubric axis. */
export const factInputSchema = z.strictObject({
  axis: z.string(),
  /** What the fact says about the axis on the 0–10 scale (10 is best; for risk, 10 is low risk). */
  value: z.number().min(0, 'a fact value is on the 0–10 scale').max(10, 'a fact value is on the 0–10 scale'),
  note: z.string().min(1, 'say what the fact is'),
});

/** A board as written in YAML, JSON or code, before validation. */
export const boardInputSchema = z.strictObject({
  id: name('the board id'),
  title: z.string().optional(),
  /** The question put to the council; `{{question}}` and other `{{placeholders}}` are filled per run. */
  question: z.string().optional(),
  /** `product` (the default) or an inline rubric `{ axes, weights, thresholds }`. */
  rubric: z.unknown().optional(),
  quorum: z.strictObject({ minValidVotes: z.int().min(1, 'at least one valid vote is required') }).optional(),
  /** The decision rule: `mean-score` (the default) or `calibrated` with a cost ratio or a false-GO rate. */
  decision: z
    .strictObject({
      rule: z.enum(['mean-score', 'calibrated'], { error: 'rule must be "mean-score" or "calibrated"' }),
      costOfFalseGo: z.number({ error: 'costOfFalseGo must be a number' }).positive('costOfFalseGo must be above 0').finite().optional(),
      costOfMissedGo: z.number({ error: 'costOfMissedGo must be a number' }).positive('costOfMissedGo must be above 0').finite().optional(),
      falseGoRate: z
        .number({ error: 'falseGoRate must be a number' })
        .min(0, 'falseGoRate is a share from 0 to 1')
        .max(1, 'falseGoRate is a share from 0 to 1')
        .optional(),
      priorGo: z
        .number({ error: 'priorGo must be a number' })
        .gt(0, 'priorGo must be between 0 and 1')
        .lt(1, 'priorGo must be between 0 and 1')
        .optional(),
    })
    .optional(),
  concurrency: z
    .strictObject({
      global: z.int().min(1, 'concurrency must be at least 1').optional(),
      perAdapter: z.record(z.string(), z.int().min(1, 'concurrency must be at least 1')).optional(),
    })
    .optional(),
  facts: z.array(factInputSchema).optional(),
  phases: z.array(phaseInputSchema, { error: 'phases must be a list' }).min(1, 'a board needs at least one phase'),
});

/** The input type of a board: what `loadBoard` and `defineBoard` accept. */
export type BoardInput = z.input<typeof boardInputSchema>;
/** The input type of a member. */
export type MemberInput = z.input<typeof memberInputSchema>;
/** The input type of a phase. */
export type PhaseInput = z.input<typeof phaseInputSchema>;

import * as z from 'zod';

/** Ids of options, members and context items: letters, digits, `_`, `-`, `.`; starting with a letter or digit. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const id = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .regex(ID_PATTERN, `${what} may use letters, digits, "_", "-" and "." and must start with a letter or digit`);
const text = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} must not be empty`);

/** Shortest and longest candidate slate a brief may open with. */
export const MIN_OPTIONS = 2;
/** Longest candidate slate a brief may open with. */
export const MAX_OPTIONS = 6;
/** Smallest panel: fewer than three voices cannot show a majority against a dissent. */
export const MIN_MEMBERS = 3;
/** Largest panel: beyond eight the rounds cost more than the extra perspectives add. */
export const MAX_MEMBERS = 8;

/** A candidate option as written in a brief. */
export const optionInputSchema = z.strictObject({
  id: id('an option id'),
  title: text('an option title'),
  summary: text('an option summary'),
});

/** One item of the condensed context pack; members may be given a subset by id. */
export const contextItemInputSchema = z.strictObject({
  id: id('a context item id'),
  text: text('a context item text'),
});

/** A panel member as written in a brief. */
export const memberInputSchema = z.strictObject({
  id: id('a member id'),
  /** A realistic job in the room (security engineer, SRE, ...), never an abstract debate role. */
  role: text('role'),
  focusAreas: z.array(text('a focus area'), { error: 'focusAreas must be a list of strings' }).min(1, 'give at least one focus area'),
  /** A human disposition on a normal spectrum, e.g. "cautious, data-driven". */
  disposition: text('disposition'),
  /** Ids of the context items this member is given; all of them when omitted. */
  context: z.array(z.string(), { error: 'context must be a list of context item ids' }).optional(),
  /** A model reference, `provider:model`. */
  model: z.string({ error: 'model must be a model reference such as "anthropic:claude-sonnet-4-5"' }),
  /** The model family it belongs to (default: derived from `model`); members of one family tend to err together. */
  family: id('a family').optional(),
  /** The facilitator runs the room and writes the synthesis, and still holds views. */
  facilitator: z.boolean({ error: 'facilitator must be true or false' }).optional(),
});

/** A decision brief as written in YAML, JSON or code, before validation. */
export const briefInputSchema = z.strictObject({
  question: text('question'),
  options: z
    .array(optionInputSchema, { error: 'options must be a list' })
    .min(MIN_OPTIONS, `a brief needs at least ${MIN_OPTIONS} candidate options`)
    .max(MAX_OPTIONS, `a brief may list at most ${MAX_OPTIONS} candidate options`),
  constraints: z.array(text('a constraint'), { error: 'constraints must be a list of strings' }).optional(),
  successCriteria: z.array(text('a success criterion'), { error: 'successCriteria must be a list of strings' }).optional(),
  context: z.array(contextItemInputSchema, { error: 'context must be a list of { id, text }' }).optional(),
  roster: z
    .array(memberInputSchema, { error: 'roster must be a list' })
    .min(MIN_MEMBERS, `a panel needs at least ${MIN_MEMBERS} members`)
    .max(MAX_MEMBERS, `a panel may have at most ${MAX_MEMBERS} members`),
});

/** The input type of a brief: what `loadBrief` accepts. */
export type BriefInput = z.input<typeof briefInputSchema>;

import * as z from 'zod';
import { TIERS } from '@conclave/verifier';
import { gateDefinitionSchema, levelSchema } from '../gates/gate-definition.js';

/** Spec and task ids: the pattern gate names use, so ids can appear in branch names and paths. */
export const SPEC_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** Environment variable names, as POSIX shells accept them. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Defaults for what a spec leaves out. */
export const SPEC_DEFAULTS = {
  level: 'balanced',
  budgets: { maxRetries: 2, taskTimeoutMs: 15 * 60_000, gateTimeoutMs: 2 * 60_000, maxDepth: 3, childMaxRetries: 1 },
  tier: 'T1',
  policy: { failOpen: false, onExhausted: 'stop', allowDirtyTree: false, branch: 'conclave/{id}' },
} as const;

const id = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .regex(SPEC_ID_PATTERN, `${what} may use letters, digits, "_", "-" and "." and must start with a letter or digit`);
const text = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} must not be empty`);
const texts = (what: string, list: string) => z.array(text(what), { error: `${list} must be a list of strings` });
const positiveMs = (what: string) =>
  z
    .number({ error: `${what} must be a number of milliseconds` })
    .int(`${what} must be a whole number`)
    .positive(`${what} must be above 0`);
const envNames = (what: string) =>
  z.array(
    z
      .string({ error: `${what} must be a list of variable names` })
      .regex(ENV_NAME_PATTERN, 'a variable name may use letters, digits and "_" and must not start with a digit'),
    { error: `${what} must be a list of variable names` },
  );

/** Retry and time budgets of the task. */
export const budgetsSchema = z.strictObject({
  /** Retries after the first attempt, so 2 means at most 3 builds. */
  maxRetries: z
    .number({ error: 'maxRetries must be a number' })
    .int('maxRetries must be a whole number')
    .min(0, 'maxRetries must be 0 or more')
    .max(20, 'maxRetries may be at most 20')
    .optional(),
  /** Wall-clock limit for the whole task: every build, gate and retry. */
  taskTimeoutMs: positiveMs('taskTimeoutMs').optional(),
  /** Default limit for one gate run; a gate's own timeoutMs wins. */
  gateTimeoutMs: positiveMs('gateTimeoutMs').optional(),
  /** How deep splits may nest: a task at this depth does not split again (default 3). */
  maxDepth: z
    .number({ error: 'maxDepth must be a number' })
    .int('maxDepth must be a whole number')
    .min(0, 'maxDepth must be 0 or more')
    .max(6, 'maxDepth may be at most 6')
    .optional(),
  /** Retries of a task a split created (default 1, so 2 attempts). */
  childMaxRetries: z
    .number({ error: 'childMaxRetries must be a number' })
    .int('childMaxRetries must be a whole number')
    .min(0, 'childMaxRetries must be 0 or more')
    .max(20, 'childMaxRetries may be at most 20')
    .optional(),
  /** Attempts for the whole run, every task and split together; reaching it stops the run with budget_exhausted. */
  maxAttempts: z
    .number({ error: 'maxAttempts must be a number' })
    .int('maxAttempts must be a whole number')
    .positive('maxAttempts must be above 0')
    .optional(),
  /** Wall-clock limit for the whole run, from its start (a resumed run counts from the first start). */
  runTimeoutMs: positiveMs('runTimeoutMs').optional(),
  /** Cost limit for the whole run in US dollars: builders' reported cost plus priced model calls. */
  maxCostUsd: z.number({ error: 'maxCostUsd must be a number' }).positive('maxCostUsd must be above 0').optional(),
});

/** What the loop may and may not do. */
export const policySchema = z.strictObject({
  /** Record gate failures and carry on. Only at level `speed`: balanced and strict exist to refuse unverified work. */
  failOpen: z.boolean({ error: 'failOpen must be true or false' }).optional(),
  /** When retries run out: `stop` the run, or record the failure and `continue` with the next task. */
  onExhausted: z.enum(['stop', 'continue'], { error: 'onExhausted must be stop or continue' }).optional(),
  /** Start even when the working tree has uncommitted changes. */
  allowDirtyTree: z.boolean({ error: 'allowDirtyTree must be true or false' }).optional(),
  /** The branch the run works on; `{id}` is replaced by the spec id. */
  branch: text('branch').optional(),
});

/** How this spec relates to other specs. */
export const relationshipsSchema = z.strictObject({
  parent: id('parent').optional(),
  next: z.array(id('a next spec id'), { error: 'next must be a list of spec ids' }).optional(),
});

/** Environment the run may hand to gates and builders. */
export const grantsSchema = z.strictObject({
  /** Variables passed through to gates and builders; nothing else of the parent environment is. */
  env: envNames('env').optional(),
  /** Variables whose values are redacted from every log and evidence bundle (whether or not they are also in env). */
  secrets: envNames('secrets').optional(),
});

/** The YAML front-matter of a task spec, before defaults. Keys are camelCase, as everywhere in the repo. */
export const taskSpecInputSchema = z.strictObject({
  id: id('id'),
  title: text('title'),
  level: levelSchema.optional(),
  /** The task's impact, T0 (trivial) to T4 (critical): from T3 on, completion also needs the verifier's lens panel. */
  tier: z.enum(TIERS, { error: `tier must be one of ${TIERS.join(', ')}` }).optional(),
  constraints: texts('a constraint', 'constraints').optional(),
  acceptance: texts('an acceptance criterion', 'acceptance').min(1, 'give at least one acceptance criterion'),
  budgets: budgetsSchema.optional(),
  policy: policySchema.optional(),
  relationships: relationshipsSchema.optional(),
  gates: z.array(gateDefinitionSchema, { error: 'gates must be a list of gate definitions' }).optional(),
  grants: grantsSchema.optional(),
});

export type TaskSpecInput = z.input<typeof taskSpecInputSchema>;

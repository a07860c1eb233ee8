import * as z from 'zod';

/**
 * How much checking a run asks for. `speed` runs only gates marked `speed` and may fail open;
 * `balanced` (the default) adds the fast, high-signal gates; `strict` runs every configured gate
 * and never fails open.
 */
export const LEVELS = ['speed', 'balanced', 'strict'] as const;
export type Level = (typeof LEVELS)[number];
export const levelSchema = z.enum(LEVELS, { error: `level must be one of ${LEVELS.join(', ')}` });

const name = z
  .string({ error: 'a gate name must be a string' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a gate name may use letters, digits, "_", "-" and "." and must start with a letter or digit');
const nonEmpty = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} must not be empty`);

/** Fields every gate has. */
const common = {
  name,
  /** The lowest level at which the gate runs (default `balanced`: skipped at `speed`, run at `balanced` and `strict`). */
  level: levelSchema.optional(),
  /** Plan item ids this gate checks; every item when omitted (a plan-wide gate). */
  tasks: z
    .array(nonEmpty('a task id'), { error: 'tasks must be a list of plan item ids' })
    .min(1, 'give at least one task id or omit tasks')
    .optional(),
};

/** Runs a command in the workspace; passes on exit code 0. */
export const shellGateSchema = z.strictObject({
  type: z.literal('shell'),
  ...common,
  /** The command line, parsed (never handed to a shell) and checked against the command policy before it runs. */
  run: nonEmpty('run'),
  /** Wall-clock limit for this gate; the whole process tree is killed when it passes. */
  timeoutMs: z
    .number({ error: 'timeoutMs must be a number' })
    .int('timeoutMs must be a whole number')
    .positive('timeoutMs must be above 0')
    .optional(),
});

/** Passes when every listed path exists inside the workspace. */
export const fileExistsGateSchema = z.strictObject({
  type: z.literal('file_exists'),
  ...common,
  paths: z.array(nonEmpty('a path'), { error: 'paths must be a list of workspace-relative paths' }).min(1, 'give at least one path'),
});

/** Matches a regular expression over the files a glob selects. */
export const regexGateSchema = z.strictObject({
  type: z.literal('regex'),
  ...common,
  /** Workspace-relative globs. */
  files: z.array(nonEmpty('a glob'), { error: 'files must be a list of globs' }).min(1, 'give at least one glob'),
  pattern: nonEmpty('pattern'),
  flags: z
    .string()
    .regex(/^[imsu]*$/, 'flags may only use i, m, s and u')
    .optional(),
  /** `must_match`: at least one selected file matches; `must_not_match`: none does. */
  mode: z.enum(['must_match', 'must_not_match'], { error: 'mode must be must_match or must_not_match' }),
});

export const gateDefinitionSchema = z.discriminatedUnion('type', [shellGateSchema, fileExistsGateSchema, regexGateSchema], {
  error: 'type must be one of shell, file_exists, regex',
});

export type ShellGate = z.infer<typeof shellGateSchema>;
export type FileExistsGate = z.infer<typeof fileExistsGateSchema>;
export type RegexGate = z.infer<typeof regexGateSchema>;
export type GateDefinition = z.infer<typeof gateDefinitionSchema>;

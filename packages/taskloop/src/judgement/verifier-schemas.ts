import * as z from 'zod';

/**
 * The four neural verifiers. Each reports what it sees as strict JSON; none of them decides
 * anything: the rule table maps their combined state to retry, split, done or give up.
 */
export const VERIFIER_KINDS = ['build', 'alignment', 'bigPicture', 'style'] as const;

export type VerifierKind = (typeof VERIFIER_KINDS)[number];

const score = z.number().min(0, 'a score is at least 0').max(1, 'a score is at most 1');
const text = z.string().max(4_000, 'keep each text under 4000 characters');
const list = (max: number) => z.array(text).max(max, `at most ${max} entries`);

/**
 * The build state. At depth 0 it comes from actually running the build command
 * (`buildStateFromCommand`); at depth > 0 it is a textual check of the diff, and `inferred` is true.
 */
export const buildStateSchema = z.strictObject({
  /** Whether a build command was started. */
  attempted: z.boolean(),
  /** The build's exit code; null when it did not run, was killed, or the state is inferred. */
  exitCode: z.number().int().nullable(),
  errors: list(200),
  warnings: list(200),
  durationMs: z.number().nonnegative(),
  /** The command lines that ran (empty when inferred). */
  commands: list(20),
  /** The last lines of the build log (or, when inferred, the evidence quoted from the diff). */
  logSample: z.string().max(16_000, 'keep the log sample under 16000 characters'),
  /** True when the state is inferred from the diff rather than from running a build. */
  inferred: z.boolean(),
});

/** How well the change meets the spec: one coverage entry per acceptance criterion. */
export const alignmentStateSchema = z.strictObject({
  score,
  coverage: z
    .array(z.strictObject({ criterion: text.min(1, 'name the criterion'), met: z.boolean(), why: text }))
    .max(100, 'at most 100 criteria'),
  constraintIssues: list(100),
});

/** How well the change fits the work around it: the parent task and the tasks that come next. */
export const bigPictureStateSchema = z.strictObject({
  score,
  /** Null when the task has no parent. */
  supportsParent: z.boolean().nullable(),
  supportsNext: z
    .array(z.strictObject({ spec: text.min(1, 'name the next spec'), supports: z.boolean(), why: text }))
    .max(50, 'at most 50 next specs'),
  risks: list(50),
});

/** Style issues in the diff, grouped by rule. */
export const styleStateSchema = z.strictObject({
  issues: z
    .array(
      z.strictObject({ rule: text.min(1, 'name the rule'), count: z.number().int().min(0, 'a count is at least 0'), examples: list(10) }),
    )
    .max(100, 'at most 100 rules'),
});

export type BuildState = z.output<typeof buildStateSchema>;
export type AlignmentState = z.output<typeof alignmentStateSchema>;
export type BigPictureState = z.output<typeof bigPictureStateSchema>;
export type StyleState = z.output<typeof styleStateSchema>;

/** Each verifier's state type, by kind. */
export interface VerifierStates {
  readonly build: BuildState;
  readonly alignment: AlignmentState;
  readonly bigPicture: BigPictureState;
  readonly style: StyleState;
}

/** Each verifier's schema, by kind: what its model reply must fit. */
export const verifierSchemas: { readonly [K in VerifierKind]: z.ZodType<VerifierStates[K]> } = {
  build: buildStateSchema,
  alignment: alignmentStateSchema,
  bigPicture: bigPictureStateSchema,
  style: styleStateSchema,
};

/** The total count of style issues over every rule. */
export function styleTotal(style: StyleState): number {
  return style.issues.reduce((total, issue) => total + issue.count, 0);
}

/** Whether a build state says the build passed: it ran, exited 0 and reported no error. */
export function buildPassed(build: BuildState): boolean {
  return build.attempted && build.exitCode === 0 && build.errors.length === 0;
}

/** A verifier that produced no usable state: the adapter failed, or the reply never fit the schema. */
export interface VerifierFailure {
  readonly verifier: VerifierKind;
  /** `not_applicable`: the verifier must not be asked in this context (the build at depth 0 is run, not inferred). */
  readonly kind: 'adapter_failed' | 'invalid_output' | 'not_applicable';
  readonly message: string;
  /** The schema problems, for `invalid_output`. */
  readonly issues?: readonly string[];
}

import { type ModelAdapter, type ModelRequest } from '@conclave/core';
import { errorMessage } from '@conclave/core/internal';
import * as z from 'zod';
import { askStructured, type ModelExchange } from '../model/ask-structured.js';
import { ENV_NAME_PATTERN } from '../spec/task-spec-schema.js';

/** At most this many children per split: one per dominant failure, and failures beyond a few are one failure. */
export const MAX_SPLIT_CHILDREN = 4;

const line = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${what} must not be empty`)
    .max(max, `keep ${what} under ${max} characters`)
    .refine((text) => !/[\r\n]/.test(text), `${what} is one line`);

/** What the split planner must return: one child spec per dominant failure. */
export const splitReplySchema = z.strictObject({
  children: z
    .array(
      z.strictObject({
        title: line('a child title', 300),
        /** The failure this child fixes, as the parent's verifiers reported it. */
        failure: line('the failure', 600),
        acceptance: z
          .array(line('an acceptance criterion', 600))
          .min(1, 'give each child at least one acceptance criterion')
          .max(10, 'at most 10 criteria per child'),
        constraints: z.array(line('a constraint', 600)).max(10, 'at most 10 constraints per child').optional(),
        /** Environment variables the child needs; a grant strategy decides what it gets, never more than the parent holds. */
        env: z.array(z.string().regex(ENV_NAME_PATTERN, 'an environment variable name')).max(20).optional(),
      }),
    )
    .min(1, 'split into at least one child')
    .max(MAX_SPLIT_CHILDREN, `split into at most ${MAX_SPLIT_CHILDREN} children`)
    .refine(
      (children) => new Set(children.map((child) => child.title.toLowerCase())).size === children.length,
      'give each child a different title',
    ),
});

/** A child spec as the planner proposed it, validated. */
export type ChildSpecDraft = z.output<typeof splitReplySchema>['children'][number];

/** What the split planner is told: the parent's contract and why it keeps failing. */
export interface SplitRequest {
  readonly parent: {
    readonly id: string;
    readonly title: string;
    readonly acceptance: readonly string[];
    readonly constraints: readonly string[];
    readonly depth: number;
  };
  /** The dominant failures: the deciding rule's reasons and the failure fingerprint's messages. */
  readonly failures: readonly string[];
  readonly signal?: AbortSignal;
}

/**
 * The children, or why there are none; the exchanges go into the split's evidence either way.
 * `rejected`: the children a planner proposed that `planSplit` refused.
 */
export type SplitPlan =
  | { readonly ok: true; readonly children: readonly ChildSpecDraft[]; readonly exchanges: readonly ModelExchange[] }
  | { readonly ok: false; readonly message: string; readonly exchanges: readonly ModelExchange[]; readonly rejected?: unknown };

/** Synthesises child specs for a split; never throws or rejects. */
export type SplitPlanner = (request: SplitRequest) => Promise<SplitPlan>;

export interface SplitPlannerOptions {
  /** Deadline for each call (default `safeRun`'s). */
  readonly timeoutMs?: number;
}

/**
 * A split planner over any model adapter: one child spec per dominant failure, strict JSON
 * validated with zod, one bounded re-ask. It proposes; the orchestrator validates the children
 * again (ids, grants), appends them to plan.md and runs them.
 */
export function createModelSplitPlanner(adapter: ModelAdapter, options: SplitPlannerOptions = {}): SplitPlanner {
  return async (request) => {
    const asked = await askStructured(adapter, splitRequest(request), splitReplySchema, {
      ...options,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    if (!asked.ok)
      return {
        ok: false,
        message: `the split planner ${asked.kind === 'invalid_output' ? 'gave no valid children' : 'failed'}: ${asked.message}`,
        exchanges: asked.exchanges,
      };
    return { ok: true, children: asked.value.children, exchanges: asked.exchanges };
  };
}

/**
 * Asks any split planner, the loop's way: its plan is never trusted. The children must pass
 * `splitReplySchema`, the same check a model's reply passes (criteria, one-line titles, variable
 * names, at most `MAX_SPLIT_CHILDREN` children), so a custom planner cannot slip in a child the
 * model planner could not; otherwise the split fails closed, with the reason and the children it
 * refused. A planner that throws or returns no plan fails the split too. Never rejects.
 */
export async function planSplit(planner: SplitPlanner, request: SplitRequest): Promise<SplitPlan> {
  // Typed loosely on purpose: a planner written in plain JavaScript may return anything.
  let plan:
    { readonly ok?: unknown; readonly message?: unknown; readonly children?: unknown; readonly exchanges?: unknown } | null | undefined;
  try {
    plan = await planner(request);
  } catch (thrown) {
    return { ok: false, message: `the split planner threw: ${errorMessage(thrown)}`, exchanges: [] };
  }
  const exchanges = Array.isArray(plan?.exchanges) ? (plan.exchanges as ModelExchange[]) : [];
  if (plan?.ok !== true)
    return { ok: false, message: typeof plan?.message === 'string' ? plan.message : 'the split planner returned no plan', exchanges };
  const checked = splitReplySchema.safeParse({ children: plan.children });
  if (checked.success) return { ok: true, children: checked.data.children, exchanges };
  const issues = checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  return { ok: false, message: `the split planner's plan is invalid: ${issues.join('; ')}`, exchanges, rejected: plan.children };
}

/** The protocol tag of split requests, for scripted and offline adapters. */
export const SPLIT_PROTOCOL = 'conclave.taskloop.split.v1';

/** The split planner's request: the parent's contract and failures in, child specs out. */
export function splitRequest(request: SplitRequest): ModelRequest {
  const { parent } = request;
  return {
    system: [
      'You split a coding task that keeps failing the same way into smaller tasks, one per dominant failure, each checkable by automated gates.',
      'You never write code or files: your only output is the JSON object asked for.',
    ].join('\n'),
    messages: [
      {
        role: 'user',
        content: [
          `Task "${parent.title}" (${parent.id}), depth ${parent.depth}.`,
          `Acceptance criteria:\n${parent.acceptance.map((a) => `- ${a}`).join('\n')}`,
          parent.constraints.length > 0
            ? `Constraints (every child keeps them):\n${parent.constraints.map((c) => `- ${c}`).join('\n')}`
            : '',
          `Why it keeps failing:\n${request.failures.map((f) => `- ${f}`).join('\n')}`,
          `Reply with one JSON object: {"children": [{"title": "<one line>", "failure": "<the failure it fixes>", "acceptance": ["<criterion>"], "constraints": ["<optional>"], "env": ["<optional variable names it needs>"]}]}, at most ${MAX_SPLIT_CHILDREN} children, in the order they should be done.`,
        ]
          .filter((part) => part !== '')
          .join('\n\n'),
      },
    ],
    responseFormat: { type: 'json', name: 'task_split', schema: splitReplySchema },
    metadata: { protocol: SPLIT_PROTOCOL, taskId: parent.id },
  };
}

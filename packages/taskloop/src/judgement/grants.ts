import type { ChildSpecDraft } from './split-planner.js';

/** What a task may hand to its builder and gates: environment variables, and the secrets to redact. */
export interface TaskGrants {
  readonly env: readonly string[];
  readonly secrets: readonly string[];
}

/**
 * The strategy slot for a split child's grants: given the parent's grants and the child the
 * planner proposed, what the child asks for. Whatever it returns, `childGrants` caps it at the
 * parent's: a child never holds more than its parent.
 */
export type GrantStrategy = (parent: TaskGrants, child: ChildSpecDraft) => TaskGrants;

/** The default: the child gets exactly the parent's grants. */
export const inheritGrants: GrantStrategy = (parent) => parent;

/** The child gets only the parent's variables it asked for (`env` in its draft): least privilege. */
export const restrictGrants: GrantStrategy = (parent, child) => ({
  env: parent.env.filter((name) => (child.env ?? []).includes(name)),
  secrets: parent.secrets,
});

/** The built-in strategies by name, as a spec or the CLI names them. */
export const GRANT_STRATEGIES = { inherit: inheritGrants, restrict: restrictGrants } as const satisfies Record<string, GrantStrategy>;

/**
 * A child's grants: the strategy's proposal, intersected with the parent's variables (never
 * more), while every secret the parent redacts stays redacted (redaction is protection, not a
 * privilege, so it is never narrowed). A strategy that throws grants nothing.
 */
export function childGrants(parent: TaskGrants, child: ChildSpecDraft, strategy: GrantStrategy = inheritGrants): TaskGrants {
  let proposed: Partial<Record<keyof TaskGrants, unknown>> | null | undefined;
  try {
    proposed = strategy(parent, child);
  } catch {
    proposed = undefined;
  }
  return capGrants(parent, proposed);
}

/**
 * Grants proposed for a task below `parent`, capped at the parent's: only the parent's variables,
 * and every secret the parent redacts kept. Anything that is not a list of names grants nothing.
 */
export function capGrants(parent: TaskGrants, proposed: Partial<Record<keyof TaskGrants, unknown>> | null | undefined): TaskGrants {
  const names = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  const env = [...new Set(names(proposed?.env).filter((name) => parent.env.includes(name)))];
  const secrets = [...new Set([...parent.secrets, ...names(proposed?.secrets)])];
  return { env, secrets };
}

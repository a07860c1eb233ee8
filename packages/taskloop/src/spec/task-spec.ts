import { readFile } from 'node:fs/promises';
import { checkInputBounds, parseDataText } from '@conclave/core/data';
import { errorMessage, schemaIssueFix } from '@conclave/core/internal';
import { err, ok, type Result } from 'neverthrow';
import type { z } from 'zod';
import type { GateDefinition, Level } from '../gates/gate-definition.js';
import type { Tier } from '@conclave/verifier';
import { splitFrontMatter } from './front-matter.js';
import type { SpecIssue, SpecIssueCode, SpecPath } from './spec-issue.js';
import { SPEC_DEFAULTS, taskSpecInputSchema } from './task-spec-schema.js';

/** A validated task spec with every default filled in. */
export interface TaskSpec {
  readonly id: string;
  readonly title: string;
  readonly level: Level;
  readonly constraints: readonly string[];
  readonly acceptance: readonly string[];
  readonly tier: Tier;
  readonly budgets: {
    readonly maxRetries: number;
    readonly taskTimeoutMs: number;
    readonly gateTimeoutMs: number;
    readonly maxDepth: number;
    readonly childMaxRetries: number;
    readonly maxAttempts?: number;
    readonly runTimeoutMs?: number;
    readonly maxCostUsd?: number;
  };
  readonly policy: {
    readonly failOpen: boolean;
    readonly onExhausted: 'stop' | 'continue';
    readonly allowDirtyTree: boolean;
    /** The branch template as written, e.g. `conclave/{id}`. */
    readonly branch: string;
  };
  /** The branch the run works on: the template with `{id}` filled in. */
  readonly branch: string;
  readonly relationships: { readonly parent?: string; readonly next: readonly string[] };
  readonly gates: readonly GateDefinition[];
  readonly grants: { readonly env: readonly string[]; readonly secrets: readonly string[] };
  /** The markdown after the front-matter: the prompt context, and maybe a `## Tasks` list seeding the plan. */
  readonly body: string;
  /** 1-based line of the spec file on which `body` starts, to point into it. */
  readonly bodyLine: number;
  /** The whole spec text, exactly as given: what gets snapshotted. */
  readonly source: string;
  readonly file?: string;
}

/** @deprecated The shape of the deprecated `parseSpec` and `loadSpec`; `parseTaskSpec` and `loadTaskSpec` return a neverthrow `Result`. */
export type SpecParseResult =
  { readonly ok: true; readonly spec: TaskSpec } | { readonly ok: false; readonly issues: readonly SpecIssue[] };

/** An issue before it has a position: what `parseDataText` places for us. */
interface UnplacedIssue {
  readonly code: SpecIssueCode;
  readonly path: SpecPath;
  readonly message: string;
  readonly fix: string;
}

/**
 * Parses a task spec: markdown with `---`-fenced YAML front-matter. Every problem is reported
 * together, each with its path, the line and column in the spec file itself (front-matter lines
 * counted) and a fix: no front-matter, an unclosed one, YAML syntax, unknown keys and wrong types,
 * `failOpen` outside level `speed`, repeated gate names or grants, a spec naming itself as parent
 * or next, a gate timeout longer than the task's, a branch template that is not a branch name.
 */
export function parseTaskSpec(text: string, file?: string): Result<TaskSpec, SpecIssue[]> {
  const where = file === undefined ? {} : { file };
  const split = splitFrontMatter(text);
  if (!split.ok) return err([{ code: split.code, ...where, line: split.line, column: 1, message: split.message, fix: split.fix }]);

  const parsed = parseDataText(split.yaml, file, (data) => validate(data));
  if (parsed.isErr()) {
    return err(
      parsed.error.map((issue): SpecIssue => ({
        code: issue.code,
        ...where,
        // Lines of the YAML text count from its first line; the spec's count from the opening fence.
        line: issue.line === undefined ? 1 : issue.line + split.yamlLine - 1,
        column: issue.line === undefined ? 1 : (issue.column ?? 1),
        path: issue.path,
        message: issue.message,
        fix: issue.fix,
      })),
    );
  }
  const input = parsed.value;
  const defaults = SPEC_DEFAULTS;
  const policy = {
    failOpen: input.policy?.failOpen ?? defaults.policy.failOpen,
    onExhausted: input.policy?.onExhausted ?? defaults.policy.onExhausted,
    allowDirtyTree: input.policy?.allowDirtyTree ?? defaults.policy.allowDirtyTree,
    branch: input.policy?.branch ?? defaults.policy.branch,
  };
  const spec: TaskSpec = {
    id: input.id,
    title: input.title,
    level: input.level ?? SPEC_DEFAULTS.level,
    tier: input.tier ?? SPEC_DEFAULTS.tier,
    constraints: input.constraints ?? [],
    acceptance: input.acceptance,
    budgets: {
      maxRetries: input.budgets?.maxRetries ?? defaults.budgets.maxRetries,
      taskTimeoutMs: input.budgets?.taskTimeoutMs ?? defaults.budgets.taskTimeoutMs,
      gateTimeoutMs: input.budgets?.gateTimeoutMs ?? defaults.budgets.gateTimeoutMs,
      maxDepth: input.budgets?.maxDepth ?? defaults.budgets.maxDepth,
      childMaxRetries: input.budgets?.childMaxRetries ?? defaults.budgets.childMaxRetries,
      ...(input.budgets?.maxAttempts === undefined ? {} : { maxAttempts: input.budgets.maxAttempts }),
      ...(input.budgets?.runTimeoutMs === undefined ? {} : { runTimeoutMs: input.budgets.runTimeoutMs }),
      ...(input.budgets?.maxCostUsd === undefined ? {} : { maxCostUsd: input.budgets.maxCostUsd }),
    },
    policy,
    branch: resolveBranch(policy.branch, input.id),
    relationships: {
      ...(input.relationships?.parent === undefined ? {} : { parent: input.relationships.parent }),
      next: input.relationships?.next ?? [],
    },
    gates: input.gates ?? [],
    grants: { env: input.grants?.env ?? [], secrets: input.grants?.secrets ?? [] },
    body: split.body,
    bodyLine: split.bodyLine,
    source: text,
    ...where,
  };
  return ok(deepFreeze(spec));
}

/** @deprecated Use `parseTaskSpec`, which returns a neverthrow `Result` like every other loader; removed in the next release. */
export function parseSpec(text: string, file?: string): SpecParseResult {
  return fromResult(parseTaskSpec(text, file));
}

/** Reads and parses a spec file; a file that cannot be read is an issue too, never a throw. */
export async function loadTaskSpec(path: string): Promise<Result<TaskSpec, SpecIssue[]>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return err([
      {
        code: 'unreadable',
        file: path,
        line: 1,
        column: 1,
        message: `cannot read the spec: ${errorMessage(error)}`,
        fix: 'check the path and that the file is readable',
      },
    ]);
  }
  return parseTaskSpec(text, path);
}

/** @deprecated Use `loadTaskSpec`, which returns a neverthrow `Result` like every other loader; removed in the next release. */
export async function loadSpec(path: string): Promise<SpecParseResult> {
  return fromResult(await loadTaskSpec(path));
}

function fromResult(result: Result<TaskSpec, SpecIssue[]>): SpecParseResult {
  return result.match<SpecParseResult>(
    (spec) => ({ ok: true, spec }),
    (issues) => ({ ok: false, issues }),
  );
}

/** The branch name a template gives for a spec id. */
export function resolveBranch(template: string, id: string): string {
  return template.replaceAll('{id}', id);
}

type Input = z.output<typeof taskSpecInputSchema>;

function validate(data: unknown): Result<Input, UnplacedIssue[]> {
  // Over-limit data is refused before the schema reads it: its issues would drown the real ones.
  const beyond = checkInputBounds(data);
  if (beyond.length > 0) return err(beyond);
  const issues: UnplacedIssue[] = [];
  const parsed = taskSpecInputSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const root = issue.path.length === 0 && issue.code === 'invalid_type';
      if (issue.code === 'unrecognized_keys') {
        // One issue per key, placed on the key itself rather than on the map holding it.
        for (const key of issue.keys)
          issues.push({
            code: 'schema',
            path: [...(issue.path as SpecPath), key],
            message: `unknown key "${key}"`,
            fix: `remove "${key}" or fix the spelling`,
          });
        continue;
      }
      issues.push({
        code: 'schema',
        path: issue.path as SpecPath,
        message: root ? 'the front-matter must be a map of spec fields' : issue.message,
        fix: root
          ? 'write the spec fields (id, title, acceptance, ...) as "key: value" lines between the --- fences'
          : schemaIssueFix(issue),
      });
    }
  }
  // Cross-field rules run on the raw data too, so one pass reports every layer of problems.
  checkRules(asRecord(data), issues);
  return issues.length > 0 || !parsed.success ? err(issues) : ok(parsed.data);
}

function checkRules(raw: Record<string, unknown> | undefined, issues: UnplacedIssue[]): void {
  if (raw === undefined) return;
  const add = (code: SpecIssueCode, path: SpecPath, message: string, fix: string) => issues.push({ code, path, message, fix });
  const policy = asRecord(raw.policy);
  const level = typeof raw.level === 'string' ? raw.level : SPEC_DEFAULTS.level;
  if (policy?.failOpen === true && level !== 'speed') {
    add(
      'fail_open_level',
      ['policy', 'failOpen'],
      `failOpen is only allowed at level speed, and this spec is ${level}${raw.level === undefined ? ' (the default)' : ''}`,
      'remove failOpen (gates must pass), or set level: speed if unverified work is acceptable',
    );
  }

  const seenGates = new Map<string, number>();
  (Array.isArray(raw.gates) ? (raw.gates as unknown[]) : []).forEach((gate, i) => {
    const name = asRecord(gate)?.name;
    if (typeof name !== 'string') return;
    const first = seenGates.get(name);
    if (first === undefined) seenGates.set(name, i);
    else
      add(
        'duplicate_gate_name',
        ['gates', i, 'name'],
        `gate name "${name}" is already used by gates[${first}]`,
        'give every gate a distinct name (evidence and retries are keyed by it)',
      );
  });

  (Array.isArray(raw.gates) ? (raw.gates as unknown[]) : []).forEach((entry, i) => {
    const gate = asRecord(entry);
    if (gate?.type === 'regex' && typeof gate.pattern === 'string' && (gate.flags === undefined || typeof gate.flags === 'string')) {
      try {
        new RegExp(gate.pattern, /^[imsu]*$/.test(gate.flags ?? '') ? gate.flags : '');
      } catch (error) {
        add(
          'invalid_pattern',
          ['gates', i, 'pattern'],
          `the pattern /${gate.pattern}/ is not a valid regular expression: ${errorMessage(error)}`,
          'correct the pattern; escape a character meant literally with "\\" (in YAML, quote the pattern)',
        );
      }
    }
    // The gates refuse these when they run; found here, they cost no build.
    for (const list of ['paths', 'files'] as const) {
      (Array.isArray(gate?.[list]) ? (gate[list] as unknown[]) : []).forEach((path, j) => {
        if (typeof path !== 'string') return;
        const why = /^(?:[\\/]|[A-Za-z]:)/.test(path)
          ? 'is absolute'
          : path.split(/[\\/]/).includes('..')
            ? 'goes up with ".."'
            : undefined;
        if (why !== undefined)
          add(
            'outside_workspace',
            ['gates', i, list, j],
            `${path} ${why}: a gate only looks inside the workspace`,
            'give a path relative to the workspace, without ".."',
          );
      });
    }
  });

  const grants = asRecord(raw.grants);
  for (const list of ['env', 'secrets'] as const) {
    const seen = new Set<string>();
    (Array.isArray(grants?.[list]) ? (grants[list] as unknown[]) : []).forEach((name, i) => {
      if (typeof name !== 'string') return;
      if (seen.has(name)) add('duplicate_grant', ['grants', list, i], `"${name}" is listed twice`, 'list each variable once');
      seen.add(name);
    });
  }

  const relationships = asRecord(raw.relationships);
  if (typeof raw.id === 'string' && relationships !== undefined) {
    if (relationships.parent === raw.id)
      add(
        'self_relationship',
        ['relationships', 'parent'],
        'a spec cannot be its own parent',
        'name another spec as parent, or remove parent',
      );
    if (Array.isArray(relationships.next)) {
      (relationships.next as unknown[]).forEach((next, i) => {
        if (next === raw.id)
          add('self_relationship', ['relationships', 'next', i], 'a spec cannot come next after itself', 'remove its own id from next');
      });
    }
  }

  const budgets = asRecord(raw.budgets);
  const taskTimeout = typeof budgets?.taskTimeoutMs === 'number' ? budgets.taskTimeoutMs : SPEC_DEFAULTS.budgets.taskTimeoutMs;
  if (typeof budgets?.gateTimeoutMs === 'number' && budgets.gateTimeoutMs > taskTimeout) {
    add(
      'budget_order',
      ['budgets', 'gateTimeoutMs'],
      `gateTimeoutMs (${budgets.gateTimeoutMs}) is longer than taskTimeoutMs (${taskTimeout}), so one gate could use up the whole task`,
      'make gateTimeoutMs at most taskTimeoutMs',
    );
  }

  if (typeof policy?.branch === 'string' && policy.branch.trim() !== '') {
    const placeholder = /\{(?!id\})[^}]*\}/.exec(policy.branch);
    if (placeholder !== null) {
      add(
        'branch_template',
        ['policy', 'branch'],
        `the branch template uses ${placeholder[0]}, but only {id} is filled in`,
        'use {id} (the spec id) or a fixed name, e.g. "conclave/{id}"',
      );
    } else if (!isBranchName(resolveBranch(policy.branch, typeof raw.id === 'string' ? raw.id : 'id'))) {
      add(
        'branch_template',
        ['policy', 'branch'],
        `"${policy.branch}" does not give a valid git branch name`,
        'use letters, digits, "-", "_", "." and "/" (no spaces, "..", "~", "^", ":", "?", "*", "[" or "\\"), e.g. "conclave/{id}"',
      );
    }
  }
}

/** The rules of `git check-ref-format --branch`, the ones a template can break. */
function isBranchName(name: string): boolean {
  if (name === '' || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock'))
    return false;
  if (name.includes('..') || name.includes('//') || name.includes('@{') || name.includes('/.') || name.startsWith('.')) return false;
  // eslint-disable-next-line no-control-regex
  return !/[\x00-\x20\x7f~^:?*[\\]/.test(name);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

import { modelFamily, parseModelRef } from '@conclave/core';
import { readBoundedInput } from '@conclave/core/data';
import { schemaIssueFix } from '@conclave/core/internal';
import { err, ok, type Result } from 'neverthrow';
import type { IssuePath } from '@conclave/scoring';
import type { z } from 'zod';
import type { BriefIssue, BriefIssueCode } from './brief-issue.js';
import { briefInputSchema } from './brief-schema.js';

/** A candidate option on the table. */
export interface MeetingOption {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
}

/** One item of the condensed context pack. */
export interface ContextItem {
  readonly id: string;
  readonly text: string;
}

/** A validated panel member. Role, focus areas and disposition stay private to the member. */
export interface RosterMember {
  readonly id: string;
  readonly role: string;
  readonly focusAreas: readonly string[];
  readonly disposition: string;
  /** Ids of the context items this member sees (every item when the brief named none). */
  readonly context: readonly string[];
  readonly model: string;
  /** Its model family: declared in the brief, or derived from `model` (`modelFamily` in @conclave/core). */
  readonly family: string;
  readonly facilitator: boolean;
}

declare const loadedBrief: unique symbol;

/** A brief that passed `loadBrief` or `parseBrief`: unique ids, exactly one facilitator, known context ids. */
export interface Brief {
  readonly [loadedBrief]: true;
  readonly question: string;
  readonly options: readonly MeetingOption[];
  readonly constraints: readonly string[];
  readonly successCriteria: readonly string[];
  readonly context: readonly ContextItem[];
  readonly roster: readonly RosterMember[];
}

/** Options for loading a brief. */
export interface LoadBriefOptions {
  /** Named in every issue, so errors point at the file. */
  readonly file?: string;
}

const loadedBriefs = new WeakSet<object>();

/** Whether a value is a brief produced by the loader (and so known to be valid). */
export function isLoadedBrief(value: unknown): value is Brief {
  return typeof value === 'object' && value !== null && loadedBriefs.has(value);
}

/** The facilitator of a loaded brief (the loader guarantees exactly one). */
export function facilitatorOf(brief: Brief): RosterMember {
  return brief.roster.find((member) => member.facilitator) as RosterMember;
}

/**
 * Validates a brief given as data and returns every problem together, each with its path and a
 * fix: schema errors, duplicate option/member/context ids, not exactly one facilitator, a member
 * context id the pack does not have, a model that is not `provider:model`.
 */
export function loadBrief(given: unknown, options: LoadBriefOptions = {}): Result<Brief, BriefIssue[]> {
  const issues: BriefIssue[] = [];
  const add = (code: BriefIssueCode, path: IssuePath, message: string, fix: string): void => {
    issues.push({ code, path, message, fix, ...(options.file === undefined ? {} : { file: options.file }) });
  };
  // Data past the input limits is refused before the schema walks it (the walk cannot overflow);
  // from here on only the plain-data copy is read, so a getter that throws cannot reach the rules.
  const bounded = readBoundedInput(given);
  if (bounded.isErr()) {
    for (const issue of bounded.error) add(issue.code, issue.path, issue.message, issue.fix);
    return err(issues);
  }
  const input = bounded.value;
  const parsed = briefInputSchema.safeParse(input, { reportInput: true });
  if (!parsed.success)
    for (const issue of parsed.error.issues) add('schema', issue.path as IssuePath, issue.message, schemaIssueFix(issue));
  // Structural rules run on the raw input as well, so one pass reports every layer of problems.
  checkStructure(asRecord(input), add);
  if (issues.length > 0 || !parsed.success) return err(issues);
  const brief = normalise(parsed.data);
  loadedBriefs.add(brief);
  return ok(brief);
}

type Add = (code: BriefIssueCode, path: IssuePath, message: string, fix: string) => void;

function checkStructure(raw: Record<string, unknown> | undefined, add: Add): void {
  checkUnique(raw?.options, 'options', 'duplicate_option_id', 'option', add);
  const contextIds = checkUnique(raw?.context, 'context', 'duplicate_context_id', 'context item', add);
  checkUnique(raw?.roster, 'roster', 'duplicate_member_id', 'member', add);

  const roster = Array.isArray(raw?.roster) ? (raw.roster as unknown[]) : [];
  const facilitators: number[] = [];
  roster.forEach((memberRaw, m) => {
    const member = asRecord(memberRaw);
    if (!member) return;
    if (member.facilitator === true) facilitators.push(m);
    if (typeof member.model === 'string' && parseModelRef(member.model) === undefined) {
      add(
        'bad_model_ref',
        ['roster', m, 'model'],
        `"${member.model}" is not a model reference (expected provider:model)`,
        'write the model as provider:model, e.g. "anthropic:claude-sonnet-4-5"',
      );
    }
    if (Array.isArray(member.context)) {
      (member.context as unknown[]).forEach((ref, c) => {
        if (typeof ref === 'string' && !contextIds.has(ref)) {
          add(
            'unknown_context_id',
            ['roster', m, 'context', c],
            `the context pack has no item "${ref}"`,
            `use one of: ${[...contextIds].join(', ') || '(the pack is empty: add items under context)'}`,
          );
        }
      });
    }
  });
  if (roster.length > 0 && facilitators.length === 0) {
    add('facilitator_count', ['roster'], 'no member is the facilitator', 'mark exactly one member with facilitator: true');
  }
  for (const m of facilitators.slice(1)) {
    add(
      'facilitator_count',
      ['roster', m, 'facilitator'],
      `only one member may be the facilitator; roster[${facilitators[0]}] already is`,
      'remove facilitator: true from all but one member',
    );
  }
}

/** Reports repeated `id`s in a list and returns the set of ids seen. */
function checkUnique(list: unknown, key: string, code: BriefIssueCode, what: string, add: Add): Set<string> {
  const seen = new Map<string, number>();
  if (!Array.isArray(list)) return new Set();
  (list as unknown[]).forEach((entry, i) => {
    const value = asRecord(entry)?.id;
    if (typeof value !== 'string') return;
    const first = seen.get(value);
    if (first === undefined) seen.set(value, i);
    else add(code, [key, i, 'id'], `${what} id "${value}" is already used by ${key}[${first}]`, `give every ${what} a distinct id`);
  });
  return new Set(seen.keys());
}

function normalise(input: z.output<typeof briefInputSchema>): Brief {
  const context = (input.context ?? []).map((item) => Object.freeze({ ...item }));
  const allContext = context.map((item) => item.id);
  return Object.freeze({
    question: input.question,
    options: Object.freeze(input.options.map((option) => Object.freeze({ ...option }))),
    constraints: Object.freeze([...(input.constraints ?? [])]),
    successCriteria: Object.freeze([...(input.successCriteria ?? [])]),
    context: Object.freeze(context),
    roster: Object.freeze(
      input.roster.map((member) =>
        Object.freeze({
          id: member.id,
          role: member.role,
          focusAreas: Object.freeze([...member.focusAreas]),
          disposition: member.disposition,
          context: Object.freeze([...(member.context ?? allContext)]),
          model: member.model,
          family: member.family ?? modelFamily(member.model),
          facilitator: member.facilitator ?? false,
        }),
      ),
    ),
  }) as unknown as Brief;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

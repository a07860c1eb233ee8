import { validateRubric } from '@conclave/scoring';
import type { DecisionView } from './decision-view.js';
import { EVIDENCE_KINDS } from './evidence.js';
import { TIERS } from './tier.js';

/** Rubrics already validated; only frozen ones are remembered, since only they cannot change. */
const validRubrics = new WeakSet<object>();
/**
 * The last rubric found valid. A record parsed from JSON brings a rubric of its own each time,
 * which the view copies: one holding the very same data as the last valid one is valid too, and
 * comparing them costs a fifth of validating again.
 */
let lastValid: DecisionView['rubric'] | undefined;

function isValidRubric(rubric: DecisionView['rubric']): boolean {
  if (validRubrics.has(rubric)) return true;
  if (lastValid !== undefined && Object.isFrozen(rubric) && sameData(rubric, lastValid, 0)) return true;
  const valid = validateRubric(rubric).isOk();
  if (valid && Object.isFrozen(rubric)) {
    validRubrics.add(rubric);
    lastValid = rubric;
  }
  return valid;
}

/**
 * Whether two values hold the very same data: the same primitives (`Object.is`), and objects of
 * the same kind and prototype with the same own enumerable keys holding the same data. Only for
 * values a view holds, frozen plain data with no getters, so reading them runs nothing.
 */
function sameData(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || depth > MAX_RUBRIC_DEPTH) return false;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys)
    if (!Object.hasOwn(b, key) || !sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1))
      return false;
  return true;
}

/** Deeper than any rubric: past it two values are not compared, and the rubric is validated. */
const MAX_RUBRIC_DEPTH = 8;

/**
 * Every way a record's structure is wrong, one line each with its path; empty when it is
 * well formed. Oracles can then assume the types they are promised.
 */
export function recordShapeIssues(view: DecisionView): string[] {
  const issues: string[] = [];
  if (typeof view.id !== 'string' || view.id === '') issues.push('id: must be a non-empty string (the decision key)');
  if (!(TIERS as readonly unknown[]).includes(view.tier)) issues.push(`tier: must be one of ${TIERS.join(', ')}`);
  if (!isValidRubric(view.rubric)) issues.push('rubric: is not a valid rubric (validateRubric rejects it)');
  if (!Number.isInteger(view.minValidVotes) || view.minValidVotes < 1) issues.push('minValidVotes: must be a positive integer');
  const consensus = view.consensus as { status?: unknown; verdict?: unknown } | null;
  if (consensus === null || typeof consensus !== 'object' || (consensus.status !== 'scored' && consensus.status !== 'quorum_not_met')) {
    issues.push('consensus: must be a ConsensusResult (status "scored" or "quorum_not_met")');
  }
  const { evidence, claims } = view;
  for (let i = 0; i < evidence.length; i += 1) {
    const item = evidence[i] as (typeof evidence)[number];
    if (typeof item.id !== 'string' || typeof item.sourceId !== 'string' || typeof item.supports !== 'string') {
      issues.push(`evidence[${i}]: id, sourceId and supports must be strings`);
    }
    if (!(EVIDENCE_KINDS as readonly unknown[]).includes(item.kind))
      issues.push(`evidence[${i}].kind: must be one of ${EVIDENCE_KINDS.join(', ')}`);
    if (!isUnit(item.strength)) issues.push(`evidence[${i}].strength: must be a number in [0, 1]`);
    if (!isUnit(item.confidence)) issues.push(`evidence[${i}].confidence: must be a number in [0, 1]`);
    const { validation } = item;
    for (let j = 0; j < validation.length; j += 1) {
      const signal = validation[j] as (typeof validation)[number];
      if ((signal.kind !== 'gate' && signal.kind !== 'test') || typeof signal.name !== 'string' || typeof signal.passed !== 'boolean') {
        issues.push(`evidence[${i}].validation[${j}]: must be { kind: "gate" | "test", name, passed: boolean }`);
      }
    }
  }
  for (let i = 0; i < claims.length; i += 1) {
    const c = claims[i] as { id?: unknown; kind?: unknown; subject?: unknown } | null;
    if (c === null || typeof c !== 'object' || typeof c.id !== 'string' || typeof c.kind !== 'string' || typeof c.subject !== 'string') {
      issues.push(`claims[${i}]: must be { id, kind, subject, expected }`);
    }
  }
  return issues;
}

function isUnit(value: unknown): boolean {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

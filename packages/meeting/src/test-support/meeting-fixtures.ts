import type { ModelRequest } from '@conclave/core';
import { scriptedAdapter, type ScriptedAdapter, type ScriptedReply } from '@conclave/testing';
import { loadBrief, type Brief } from '../brief.js';
import type { BriefInput } from '../brief-schema.js';
import type { CurationReply } from '../curation.js';
import type { MeetingRequestMetadata, SynthesisReply } from '../prompt.js';
import type { Stance } from '../stance.js';

/** A valid five-member brief: two families, one facilitator, context subsets. */
export function briefInput(overrides: Partial<BriefInput> = {}): BriefInput {
  return {
    question: 'Which cloud should host the new data platform?',
    options: [
      { id: 'aws', title: 'AWS', summary: 'Stay on AWS with managed services.' },
      { id: 'gcp', title: 'GCP', summary: 'Move to GCP for BigQuery.' },
      { id: 'hybrid', title: 'Hybrid', summary: 'Keep compute on AWS, analytics on GCP.' },
    ],
    constraints: ['Budget is flat year over year.'],
    successCriteria: ['Queries under 5 s at p95.'],
    context: [
      { id: 'spend', text: 'AWS spend is 40k USD a month.' },
      { id: 'team', text: 'Two engineers know GCP.' },
    ],
    roster: [
      {
        id: 'sre',
        role: 'site reliability engineer',
        focusAreas: ['on-call load'],
        disposition: 'cautious',
        model: 'anthropic:claude-sonnet-4-5',
        facilitator: true,
      },
      {
        id: 'sec',
        role: 'security engineer',
        focusAreas: ['IAM'],
        disposition: 'methodical',
        model: 'openai:gpt-5-mini',
        context: ['spend'],
      },
      { id: 'cfo', role: 'finance lead', focusAreas: ['cost'], disposition: 'frugal', model: 'anthropic:claude-haiku-4-5' },
      { id: 'pm', role: 'product lead', focusAreas: ['time to market'], disposition: 'optimistic', model: 'openai:gpt-5' },
      { id: 'data', role: 'data engineer', focusAreas: ['query latency'], disposition: 'curious', model: 'anthropic:claude-sonnet-4-5' },
    ],
    ...overrides,
  };
}

/** Loads a brief that the test knows is valid. */
export function testBrief(overrides: Partial<BriefInput> = {}): Brief {
  return loadBrief(briefInput(overrides))._unsafeUnwrap();
}

/** A stance preferring `option`; `marker` makes its reasons identifiable in later requests. */
export function stance(option: string, confidence = 0.8, extra: Partial<Stance> = {}): Stance {
  return {
    preferredOption: option,
    confidence,
    reasons: [`reason for ${option}`],
    concerns: [],
    objections: [],
    proposedOptions: [],
    ...extra,
  };
}

/** What a member answers, by phase and round; `undefined` means "same as the last round given". */
export interface MemberPlan {
  /** Index 0 is the prep round, then meeting rounds; the last entry repeats for later rounds. */
  readonly rounds: readonly (Stance | ScriptedReply)[];
  readonly synthesis?: SynthesisReply | ScriptedReply;
  /** The facilitator's curation per meeting round (index 0 is round 1; the last entry repeats). */
  readonly curation?: readonly (CurationReply | ScriptedReply)[];
}

/** What a scripted facilitator curates when a test does not say: a plain summary, no merges. */
export const DEFAULT_CURATION: CurationReply = {
  summary: 'The table is split; the front-runner has the broadest support.',
  tensions: [],
  merges: [],
};

function isCuration(value: unknown): value is CurationReply {
  return typeof value === 'object' && value !== null && 'summary' in value && 'merges' in value;
}

const DEFAULT_SYNTHESIS: SynthesisReply = {
  rationale: 'The backers made the stronger case.',
  rejected: [],
  risks: [],
  followUps: ['Review in a quarter.'],
};

function isStance(value: unknown): value is Stance {
  return typeof value === 'object' && value !== null && 'preferredOption' in value;
}

function isSynthesisReply(value: unknown): value is SynthesisReply {
  return typeof value === 'object' && value !== null && 'rationale' in value;
}

/** A scripted adapter that answers each member by `metadata.phase` and `metadata.round`. */
export function meetingAdapter(plans: Readonly<Record<string, MemberPlan>>): ScriptedAdapter {
  return scriptedAdapter((request: ModelRequest): ScriptedReply => {
    const meta = request.metadata as unknown as MeetingRequestMetadata;
    const plan = plans[meta.memberId];
    if (plan === undefined) return { failure: { kind: 'invalid_output', message: `no plan for ${meta.memberId}` } };
    if (meta.phase === 'curation') {
      const reply = plan.curation?.[Math.min(meta.round - 1, plan.curation.length - 1)] ?? DEFAULT_CURATION;
      return isCuration(reply) ? { value: reply } : reply;
    }
    if (meta.phase === 'synthesis') {
      const reply = plan.synthesis ?? DEFAULT_SYNTHESIS;
      return isSynthesisReply(reply) ? { value: reply } : reply;
    }
    const entry = plan.rounds[Math.min(meta.round, plan.rounds.length - 1)];
    if (entry === undefined) return { failure: { kind: 'invalid_output', message: 'empty plan' } };
    return isStance(entry) ? { value: entry } : entry;
  });
}

/** The same stance every round for each member. */
export function steady(preferences: Readonly<Record<string, string>>, confidence = 0.8): Record<string, MemberPlan> {
  return Object.fromEntries(Object.entries(preferences).map(([id, option]) => [id, { rounds: [stance(option, confidence)] }]));
}

/** The metadata of a recorded request. */
export function metaOf(request: ModelRequest): MeetingRequestMetadata {
  return request.metadata as unknown as MeetingRequestMetadata;
}

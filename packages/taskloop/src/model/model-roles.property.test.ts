import type { ModelAdapter } from '@conclave/core';
import {
  fault,
  hostileAdapter,
  hostileAdapterKind,
  misbehavingAdapter,
  scriptedAdapter,
  type AdapterBehaviour,
  type HostileAdapterKind,
} from '@conclave/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInputPack } from '../judgement/input-pack.js';
import { runVerificationRound } from '../judgement/neural-verifiers.js';
import { createModelSplitPlanner } from '../judgement/split-planner.js';
import { VERIFIER_KINDS, type VerifierKind, type VerifierStates } from '../judgement/verifier-schemas.js';
import { createModelPlanner } from '../planner/model-planner.js';
import { parseSpec } from '../spec/task-spec.js';
import { sampleSpec } from '../test-support/temp-repo.js';

// The task loop's model roles (neural verifiers, split planner, planner) over every adapter
// misbehaviour, hostile replies (throwing getters and proxies at every depth) and hostile adapter
// objects: nothing rejects with what a hostile value threw, and only a well-behaved adapter's answer counts.

const VALID: VerifierStates = {
  build: { attempted: false, exitCode: null, errors: [], warnings: [], durationMs: 0, commands: [], logSample: '', inferred: true },
  alignment: {
    score: 0.9,
    coverage: [{ criterion: 'the CLI takes --flag', met: true, why: 'cli.ts exports the flag' }],
    constraintIssues: [],
  },
  bigPicture: { score: 0.85, supportsParent: true, supportsNext: [{ spec: 'docs', supports: true, why: 'the flag is named' }], risks: [] },
  style: { issues: [] },
};

const pack = buildInputPack({
  spec: { id: 'flag', title: 'Add a flag', acceptance: ['the CLI takes --flag'], constraints: [] },
  depth: 1,
  attempt: 1,
  budgets: { maxRetries: 2 },
  changedFiles: ['src/cli.ts'],
  diff: 'diff --git a/src/cli.ts b/src/cli.ts\n+export const flag = true;\n',
  parentExcerpt: { spec: 'cli', excerpt: 'Build the CLI.' },
  nextExcerpts: [{ spec: 'docs', excerpt: 'Document every flag.' }],
  policy: { level: 'balanced' },
}).pack;

const parsedSpec = parseSpec(sampleSpec(), 'greet.md');
if (!parsedSpec.ok) throw new Error('invalid test spec');
const spec = parsedSpec.spec;

/** Answers every role well: a verifier state, a split, a plan. */
const good = scriptedAdapter((request) => {
  const verifier = request.metadata?.['verifier'];
  if (typeof verifier === 'string' && (VERIFIER_KINDS as readonly string[]).includes(verifier))
    return { value: VALID[verifier as VerifierKind] };
  if (request.metadata?.['taskId'] !== undefined)
    return { value: { children: [{ title: 'Resolve it', failure: 'f', acceptance: ['done'] }] } };
  return { value: { tasks: [{ title: 'Write the greeter' }] } };
});

type Behaviour = { readonly kind: AdapterBehaviour } | { readonly object: HostileAdapterKind };
const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  fault().map((kind) => ({ kind })),
  hostileAdapterKind().map((object) => ({ object })),
);
const adapterFor = (b: Behaviour, seed: number): ModelAdapter =>
  'object' in b ? hostileAdapter(b.object, good) : misbehavingAdapter(b.kind, good, seed);
const answers = (b: Behaviour) => 'kind' in b && b.kind === 'ok';
const options = { timeoutMs: 20 };

describe('task loop model roles under hostile adapters', () => {
  it('verifiers: a round never rejects, and a state comes only from an answer', async () => {
    await fc.assert(
      fc.asyncProperty(behaviour, fc.nat(), async (b, seed) => {
        const round = await runVerificationRound(adapterFor(b, seed), pack, options);
        for (const result of round.results) expect(result.ok).toBe(answers(b));
        if (!answers(b)) expect(round.failures.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });

  it('split planner: never rejects, and children come only from an answer', async () => {
    const request = { parent: { id: 'p', title: 'Parent', acceptance: ['a'], constraints: [], depth: 0 }, failures: ['gate failed'] };
    await fc.assert(
      fc.asyncProperty(behaviour, fc.nat(), async (b, seed) => {
        const plan = await createModelSplitPlanner(adapterFor(b, seed), options)(request);
        expect(plan.ok).toBe(answers(b));
      }),
      { numRuns: 60 },
    );
  });

  it('planner: a task list comes only from an answer; otherwise it rejects with its own reason, never what a hostile value threw', async () => {
    await fc.assert(
      fc.asyncProperty(behaviour, fc.nat(), async (b, seed) => {
        const planned = createModelPlanner(adapterFor(b, seed), options)(spec);
        if (answers(b)) expect(await planned).toEqual(['Write the greeter']);
        else await expect(planned).rejects.toThrow(/^the planner/);
      }),
      { numRuns: 60 },
    );
  });
});

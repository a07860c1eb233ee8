/**
 * Task loop verification round: what the neural verifiers cost in prompt tokens for a 50-file
 * diff (~300 KB), and how much of the input pack is capped to get there. The pack is built with
 * the default caps (48 KiB of diff shared fairly between files, 1200-character excerpts of the
 * parent and next specs); each verifier's request goes to a scripted adapter that records it and
 * answers with a valid state. Tokens ≈ characters / 4 over system and messages.
 *
 * A round at depth > 0 asks four models (build inferred from the diff, alignment, bigPicture,
 * style); at depth 0 the build runs for real, so three. The issue gives no target: figures only.
 */
import type { ModelRequest } from '@conclave/core';
import {
  buildInputPack,
  modelVerifierKinds,
  runVerifier,
  type InputPack,
  type VerifierKind,
  type VerifierStates,
} from '@conclave/taskloop/judgement';
import { scriptedAdapter } from '@conclave/testing';
import { figure, type BenchResult } from './harness.js';

const FILES = 50;
const TARGET_DIFF_BYTES = 300 * 1024;

const REPLIES: VerifierStates = {
  build: { attempted: false, exitCode: null, errors: [], warnings: [], durationMs: 0, commands: [], logSample: '', inferred: true },
  alignment: {
    score: 0.9,
    coverage: [{ criterion: 'every handler validates its input', met: true, why: 'each handler parses with zod' }],
    constraintIssues: [],
  },
  bigPicture: {
    score: 0.85,
    supportsParent: true,
    supportsNext: [{ spec: 'api-docs', supports: true, why: 'handlers keep their names' }],
    risks: [],
  },
  style: { issues: [{ rule: 'no-console', count: 2, examples: ['console.log(body)'] }] },
};

/**
 * A deterministic unified diff of `FILES` files of uneven size (a few large, many small, as a
 * real change is) whose total is about `TARGET_DIFF_BYTES`.
 */
function syntheticDiff(): string {
  const weights = Array.from({ length: FILES }, (_, f) => 1 + ((f * 37) % 11) ** 2 / 8);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const line = (f: number, l: number, sign: string) =>
    `${sign}  const handler${l} = validate(request.body, schema${f}); // route ${f}.${l} keeps its contract\n`;
  const lineBytes = Buffer.byteLength(line(10, 10, '+'));
  return weights
    .map((weight, f) => {
      const name = `src/routes/route-${String(f).padStart(2, '0')}.ts`;
      const lines = Math.max(3, Math.round(((TARGET_DIFF_BYTES / lineBytes) * weight) / totalWeight));
      const body = Array.from({ length: lines }, (_, l) => line(f, l, l % 5 === 0 ? '-' : l % 5 === 4 ? ' ' : '+')).join('');
      const removed = Math.ceil(lines / 5);
      return `diff --git a/${name} b/${name}\nindex 3f2a9c1..8e4b7d2 100644\n--- a/${name}\n+++ b/${name}\n@@ -1,${removed + Math.floor(lines / 5)} +1,${lines - removed} @@\n${body}`;
    })
    .join('');
}

const promptChars = (request: ModelRequest) =>
  (request.system ?? '').length + request.messages.reduce((sum, m) => sum + m.content.length, 0);

async function round(
  pack: InputPack,
): Promise<{ readonly calls: number; readonly chars: number; readonly byKind: Record<string, number> }> {
  const adapter = scriptedAdapter((request) => ({ value: REPLIES[request.metadata?.verifier as VerifierKind] }));
  const results = await Promise.all(modelVerifierKinds(pack.context.depth).map((kind) => runVerifier(kind, adapter, pack)));
  const failed = results.find((result) => !result.ok);
  if (failed !== undefined) throw new Error(`the ${failed.kind} verifier failed: the figures would not describe a full round`);
  const byKind: Record<string, number> = {};
  for (const call of adapter.calls) byKind[String(call.request.metadata?.verifier)] = Math.round(promptChars(call.request) / 4);
  return { calls: adapter.calls.length, chars: adapter.calls.reduce((sum, call) => sum + promptChars(call.request), 0), byKind };
}

export async function taskloopVerifiers(): Promise<BenchResult> {
  const diff = syntheticDiff();
  const excerpt = 'Expose every route through one validated handler layer so the API can be documented and fuzzed. '.repeat(30);
  const source = {
    spec: {
      id: 'route-validation',
      title: 'Validate every route handler input',
      acceptance: [
        'every handler validates its input',
        'invalid input answers 400 with the issues',
        'no handler reads request.body unvalidated',
      ],
      constraints: ['no new runtime dependency', 'keep route names stable'],
    },
    attempt: 2,
    budgets: { maxRetries: 2, taskTimeoutMs: 1_800_000, gateTimeoutMs: 120_000 },
    changedFiles: Array.from({ length: FILES }, (_, f) => `src/routes/route-${String(f).padStart(2, '0')}.ts`),
    diff,
    parentExcerpt: { spec: 'api-hardening', excerpt },
    nextExcerpts: [
      { spec: 'api-docs', excerpt },
      { spec: 'api-fuzzing', excerpt },
    ],
    policy: { level: 'balanced', failOpen: false },
  };
  const child = buildInputPack({ ...source, depth: 1 });
  const top = buildInputPack({ ...source, depth: 0 });
  const deep = await round(child.pack);
  const shallow = await round(top.pack);
  const diffBytesIn = Buffer.byteLength(diff);
  const packDropped = child.stats.bytesIn - child.stats.bytesKept;

  return {
    name: 'taskloop-verifiers',
    figures: [
      figure(`diff in (${FILES} files)`, diffBytesIn / 1024, 'KiB'),
      figure('prompt tokens per verification round, depth > 0 (4 model verifiers, ≈ chars / 4)', deep.chars / 4, 'tokens'),
      figure('prompt tokens per verification round, depth 0 (3 model verifiers; the build runs)', shallow.chars / 4, 'tokens'),
      figure('model calls per round, depth > 0', deep.calls, 'calls'),
      figure('diff bytes dropped / diff bytes in', child.capped.diffBytesDropped / diffBytesIn, 'ratio'),
      figure('input pack capped: bytes dropped / bytes in', packDropped / child.stats.bytesIn, 'ratio'),
      figure('input pack kept', child.stats.bytesKept / 1024, 'KiB'),
    ],
    details: {
      files: FILES,
      diffBytesIn,
      diffBytesDropped: child.capped.diffBytesDropped,
      excerptsTruncated: child.capped.excerptsTruncated,
      packBytesIn: child.stats.bytesIn,
      packBytesKept: child.stats.bytesKept,
      tokensByVerifierDepth1: deep.byKind,
      tokensByVerifierDepth0: shallow.byKind,
    },
  };
}

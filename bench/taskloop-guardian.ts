/**
 * Guardian cost per evaluation: 20 progress reports against a realistic intent (a ~3 KB spec and
 * a ~6 KB ideation transcript), every verdict `aligned`. Prompt tokens ≈ characters / 4; the
 * completion is the aligned reply itself. The cacheable share is the part of each prompt a
 * provider's prompt cache can serve: the system prompt plus the messages marked `cacheable`
 * (the intent), over everything sent. No targets: the issue asks for the figures.
 */
import type { ModelRequest } from '@conclave/core';
import { createGuardian } from '@conclave/guardian';
import { scriptedAdapter } from '@conclave/testing';
import { figure, round, type BenchResult } from './harness.js';

const REPORTS = 20;
const ALIGNED_REPLY = JSON.stringify({ status: 'aligned' });

/** Deterministic filler text of about `chars` characters built from `lines`. */
function text(chars: number, lines: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0, length = 0; length < chars; i += 1) {
    const line = `${lines[i % lines.length] as string} (${i + 1})`;
    out.push(line);
    length += line.length + 1;
  }
  return out.join('\n');
}

const SPEC = text(3_000, [
  '- The importer reads CSV exports from the billing system and writes normalised rows to Postgres.',
  '- Acceptance: a 50 MB export imports in under a minute on the staging box; bad rows are reported with line numbers.',
  '- Constraint: no new infrastructure; reuse the existing job runner and its retry policy.',
  '- Out of scope: a web UI, real-time sync, and any change to the billing system itself.',
]);
const TRANSCRIPT = text(6_000, [
  'user: The finance team re-keys these exports by hand every month and it takes two days.',
  'assistant: Is the goal speed, or fewer mistakes? They pull the design in different directions.',
  'user: Fewer mistakes first. Speed is nice, but a wrong invoice costs us far more than a slow import.',
  'assistant: Then every rejected row should say why, and nothing partial should land in the table.',
  'user: Yes, all or nothing per file. And please no dashboard: they live in spreadsheets.',
]);

const promptChars = (request: ModelRequest) =>
  (request.system ?? '').length + request.messages.reduce((sum, m) => sum + m.content.length, 0);
const cacheableChars = (request: ModelRequest) =>
  (request.system ?? '').length + request.messages.reduce((sum, m) => sum + (m.cacheable === true ? m.content.length : 0), 0);

export async function taskloopGuardian(): Promise<BenchResult> {
  const adapter = scriptedAdapter(() => ({ text: ALIGNED_REPLY }));
  const guardian = createGuardian({ adapter, intent: { spec: SPEC, context: TRANSCRIPT } });
  for (let n = 1; n <= REPORTS; n += 1) {
    guardian.report({
      id: `attempt-${n}`,
      kind: n % 4 === 0 ? 'task_completed' : 'attempt',
      summary: `Task ${Math.ceil(n / 2)}: parsed the export, rejected 3 rows with line numbers, all-or-nothing insert passed the gate.`,
    });
  }
  await guardian.idle();
  const requests = adapter.calls.map((c) => c.request);
  if (requests.length !== REPORTS || guardian.status !== 'aligned')
    throw new Error(`expected ${REPORTS} aligned evaluations, got ${requests.length} (${guardian.status})`);
  const prompt = requests.reduce((sum, r) => sum + promptChars(r), 0);
  const cacheable = requests.reduce((sum, r) => sum + cacheableChars(r), 0);
  const prefixes = new Set(requests.map((r) => r.messages[0]?.content));
  return {
    name: 'taskloop-guardian',
    figures: [
      figure(`evaluations (${REPORTS} reports)`, requests.length, 'calls'),
      figure('prompt tokens per evaluation (≈ chars / 4)', prompt / REPORTS / 4, 'tokens'),
      figure('  of which cacheable (system + intent)', cacheable / REPORTS / 4, 'tokens'),
      figure('  of which per-report (trajectory + report)', (prompt - cacheable) / REPORTS / 4, 'tokens'),
      figure('completion tokens per aligned reply', ALIGNED_REPLY.length / 4, 'tokens'),
      figure('cacheable share of the prompt', cacheable / prompt, 'ratio'),
    ],
    details: {
      specChars: SPEC.length,
      transcriptChars: TRANSCRIPT.length,
      alignedReply: ALIGNED_REPLY,
      distinctIntentPrefixes: prefixes.size,
      firstPromptChars: promptChars(requests[0] as ModelRequest),
      lastPromptChars: promptChars(requests.at(-1) as ModelRequest),
      meanPromptChars: round(prompt / REPORTS, 1),
    },
  };
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelRequest } from '@conclave/core';
import { scriptedAdapter, type ScriptedAdapter } from '@conclave/testing';
import type { VerifierKind, VerifierStates } from '../judgement/verifier-schemas.js';
import type { EvidenceBundle } from '../loop/evidence-store.js';

/** The acceptance criteria a verifier request lists, so a scripted alignment can cover exactly them. */
export function criteriaOf(request: ModelRequest): string[] {
  const content = request.messages.map((message) => message.content).join('\n');
  const block = /Acceptance criteria:\n((?:- .*\n?)+)/.exec(content)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
}

/** A scripted reply's usage, priced as a real adapter prices a call; nothing when no cost is given. */
export const priced = (costUsd: number | undefined) =>
  costUsd === undefined ? {} : { usage: { inputTokens: 100, outputTokens: 20, costUsd } };

/** Verifiers that report a clean state for whatever they are shown, so the gates decide. Each call costs `costUsd` when given. */
export const satisfiedVerifiers = (costUsd?: number): ScriptedAdapter =>
  scriptedAdapter((request) => {
    const kind = request.metadata?.verifier as VerifierKind;
    const states: VerifierStates = {
      build: { attempted: false, exitCode: null, errors: [], warnings: [], durationMs: 0, commands: [], logSample: '', inferred: true },
      alignment: {
        score: 0.9,
        coverage: criteriaOf(request).map((criterion) => ({ criterion, met: true, why: 'the diff does it' })),
        constraintIssues: [],
      },
      bigPicture: { score: 0.9, supportsParent: true, supportsNext: [], risks: [] },
      style: { issues: [] },
    };
    return { value: states[kind], ...priced(costUsd) };
  });

/** A file of an attempt's evidence folder, parsed as JSON. */
export async function attemptFile<T>(dir: string, runId: string, task: string, attempt: number, file: string): Promise<T> {
  return JSON.parse(await readFile(join(dir, '.conclave/runs', runId, task, `attempt-${attempt}`, file), 'utf8')) as T;
}

/** An attempt's evidence bundle. */
export const attemptBundle = (dir: string, runId: string, task: string, attempt: number): Promise<EvidenceBundle> =>
  attemptFile<EvidenceBundle>(dir, runId, task, attempt, 'evidence.json');

/** The variable names the stand-in agent saw in an attempt (it lists them on stderr, kept in the transcript). */
export async function envSeen(dir: string, runId: string, task: string, attempt: number): Promise<string[]> {
  const transcript = await readFile(join(dir, '.conclave/runs', runId, task, `attempt-${attempt}`, 'transcript.txt'), 'utf8');
  return (/^env: (.*)$/m.exec(transcript)?.[1] ?? '').split(' ');
}

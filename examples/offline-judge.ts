import type { ModelRequest } from '@conclave/core';
import { scriptedAdapter } from '@conclave/testing';
import { SPLIT_PROTOCOL, VERIFIER_PROTOCOL, type VerifierKind, type VerifierStates } from '@conclave/taskloop/judgement';

/** The bulleted lines under a heading of a request, e.g. the acceptance criteria or the failures. */
function bullets(request: ModelRequest, heading: string): string[] {
  const content = request.messages.map((message) => message.content).join('\n');
  const block = new RegExp(`${heading}[^\\n]*:\\n((?:- .*\\n?)+)`).exec(content)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
}

/**
 * A deterministic stand-in for the models behind the task loop's judgement (no key, no network):
 * its verifiers report a clean state for whatever they are shown, so the deterministic gates
 * decide, and its split planner proposes one child per failed gate. Replace it with any adapter,
 * e.g. `createAnthropicAdapter({ model })`, for real verifiers.
 */
export function createOfflineJudge() {
  return scriptedAdapter((request) => {
    if (request.metadata?.protocol === SPLIT_PROTOCOL) {
      const gates = bullets(request, 'Why it keeps failing').filter((line) => line.startsWith('gate failed: '));
      const children = gates.slice(0, 4).map((line) => {
        const gate = line.slice('gate failed: '.length);
        return {
          title: `Make the ${gate.split(' ')[0] ?? 'failing'} gate pass`,
          failure: gate,
          acceptance: [`the ${gate.split(' ')[0] ?? ''} gate passes`],
        };
      });
      return { value: { children } };
    }
    if (request.metadata?.protocol !== VERIFIER_PROTOCOL)
      return { failure: { kind: 'refused', message: 'the offline judge only answers verifier and split requests' } };
    const states: VerifierStates = {
      build: { attempted: false, exitCode: null, errors: [], warnings: [], durationMs: 0, commands: [], logSample: '', inferred: true },
      alignment: {
        score: 0.9,
        coverage: bullets(request, 'Acceptance criteria').map((criterion) => ({ criterion, met: true, why: 'offline: the gates decide' })),
        constraintIssues: [],
      },
      bigPicture: { score: 0.9, supportsParent: true, supportsNext: [], risks: [] },
      style: { issues: [] },
    };
    return { value: states[request.metadata.verifier as VerifierKind] };
  });
}

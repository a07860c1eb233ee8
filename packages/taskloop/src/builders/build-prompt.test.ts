import { describe, expect, it } from 'vitest';
import { renderBuildPrompt } from './build-prompt.js';
import type { BuildFeedback, BuildTask } from './builder.js';

const task: BuildTask = {
  id: 'T2',
  text: 'Add a greeting endpoint',
  specId: 'greeting-api',
  specTitle: 'Greeting API',
  acceptance: ['GET /hello returns 200', 'the body says "hello"'],
  constraints: ['no new dependencies'],
  specBody: '# Greeting API\n\nServe a greeting.\n',
};

const feedback: BuildFeedback = {
  attempt: 2,
  maxRetries: 2,
  failedGates: [
    { name: 'unit-tests', type: 'shell', reason: 'exit code 1', excerpt: 'FAIL src/hello.test.ts\n  expected 200, got 404' },
    { name: 'no-todo', type: 'regex', reason: 'pattern matched in 1 file', excerpt: 'src/hello.ts:3: // TODO' },
  ],
};

describe('renderBuildPrompt', () => {
  it('carries the task, the spec, the acceptance criteria and the constraints', () => {
    const prompt = renderBuildPrompt(task, undefined);
    expect(prompt).toMatch(/^# Task T2: Add a greeting endpoint\n/);
    expect(prompt).toContain('"Greeting API" (greeting-api)');
    expect(prompt).toContain('## Acceptance criteria\n\n- GET /hello returns 200\n- the body says "hello"');
    expect(prompt).toContain('## Constraints\n\n- no new dependencies');
    expect(prompt).toContain('```markdown\n# Greeting API\n\nServe a greeting.\n```');
    expect(prompt).toContain('the orchestrator alone ticks plan items');
    expect(prompt).not.toContain('Previous attempt');
  });

  it('on a retry says which gates failed, why, with their excerpts, and which attempt this is', () => {
    const prompt = renderBuildPrompt(task, feedback);
    expect(prompt).toContain('## Previous attempt failed');
    expect(prompt).toContain('This is attempt 2 of 3. Attempt 1 did not pass these gates');
    expect(prompt).toContain(
      '### Gate "unit-tests" (shell) failed\n\nReason: exit code 1\n\n```text\nFAIL src/hello.test.ts\n  expected 200, got 404\n```',
    );
    expect(prompt).toContain('### Gate "no-todo" (regex) failed');
    expect(prompt.indexOf('unit-tests')).toBeLessThan(prompt.indexOf('no-todo'));
    // The feedback comes after the spec and before the rules.
    expect(prompt.indexOf('## Spec')).toBeLessThan(prompt.indexOf('## Previous attempt failed'));
    expect(prompt.indexOf('## Previous attempt failed')).toBeLessThan(prompt.indexOf('## Rules'));
  });

  it('is deterministic', () => {
    expect(renderBuildPrompt(task, feedback)).toBe(renderBuildPrompt({ ...task }, { ...feedback, failedGates: [...feedback.failedGates] }));
  });

  it('says so when there are no acceptance criteria, constraints or gate details', () => {
    const prompt = renderBuildPrompt({ ...task, acceptance: [], constraints: [] }, { attempt: 3, maxRetries: 2, failedGates: [] });
    expect(prompt).toContain('## Acceptance criteria\n\n(none listed)');
    expect(prompt).toContain('## Constraints\n\n(none listed)');
    expect(prompt).toContain('This is attempt 3 of 3.');
    expect(prompt).toContain('(The gates reported no details.)');
  });

  it('keeps list items on one line and fences excerpts that contain their own fences', () => {
    const excerpt = 'before\n```\nnot the end\n```\nafter';
    const prompt = renderBuildPrompt(
      { ...task, acceptance: ['one\ntwo'] },
      { attempt: 2, maxRetries: 1, failedGates: [{ name: 'g', type: 'shell', reason: 'r', excerpt }] },
    );
    expect(prompt).toContain('- one two');
    expect(prompt).toContain(`\`\`\`\`text\n${excerpt}\n\`\`\`\``);
  });
});

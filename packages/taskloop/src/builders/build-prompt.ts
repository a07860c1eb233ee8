import type { BuildFeedback, BuildTask } from './builder.js';

/**
 * Renders the prompt a builder receives. Everything the builder needs is in it (the task, the
 * spec, the acceptance criteria and constraints and, on a retry, which gates failed and their
 * evidence), so an attempt never depends on a chat history that may have drifted. It is
 * deterministic: the same task and feedback always give the same text, so prompts can be
 * recorded, diffed and replayed.
 */
export function renderBuildPrompt(task: BuildTask, feedback: BuildFeedback | undefined): string {
  const sections = [
    `# Task ${task.id}: ${oneLine(task.text)}`,
    [
      `You are doing one item of a plan, in the repository in your current working directory.`,
      `It belongs to the spec "${oneLine(task.specTitle)}" (${task.specId}).`,
      `Make the changes this task needs, and only those.`,
    ].join('\n'),
    `## Acceptance criteria\n\n${bullets(task.acceptance)}`,
    `## Constraints\n\n${bullets(task.constraints)}`,
    `## Spec\n\n${fenced(task.specBody.trim(), 'markdown')}`,
  ];
  if (feedback !== undefined) sections.push(renderFeedback(feedback));
  sections.push(
    [
      '## Rules',
      '',
      '- Do not edit the spec or the plan ledger: the orchestrator alone ticks plan items.',
      '- Saying the task is done does not complete it: automated gates check your work after you finish.',
      '- Do not weaken or delete checks, tests or gate configuration to make them pass.',
      '- Finish with a short summary of what you changed.',
    ].join('\n'),
  );
  return `${sections.join('\n\n')}\n`;
}

function renderFeedback(feedback: BuildFeedback): string {
  const total = feedback.maxRetries + 1;
  const lines = [
    `## Previous attempt failed`,
    '',
    `This is attempt ${feedback.attempt} of ${total}. Attempt ${feedback.attempt - 1} did not pass these gates; fix what they report.`,
  ];
  if (feedback.failedGates.length === 0) lines.push('', '(The gates reported no details.)');
  for (const gate of feedback.failedGates) {
    lines.push('', `### Gate "${gate.name}" (${gate.type}) failed`, '', `Reason: ${oneLine(gate.reason)}`);
    if (gate.excerpt.trim() !== '') lines.push('', fenced(gate.excerpt.trimEnd(), 'text'));
  }
  return lines.join('\n');
}

function bullets(items: readonly string[]): string {
  return items.length === 0 ? '(none listed)' : items.map((item) => `- ${oneLine(item)}`).join('\n');
}

/** Collapses line breaks so a list item or heading stays one line. */
function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ').trim();
}

/**
 * Fences text with a backtick run longer than any inside it, so tool output or a spec containing
 * its own code fences cannot close the block early.
 */
function fenced(text: string, info: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

import {
  type AgentReport,
  MAX_SUMMARY_CHARS,
  clipSummary,
  isRecord,
  isResultMessage,
  reportFromResult,
  type ResultMessage,
} from './agent-result.js';

/** How the agent's stdout was read. */
export type AgentOutputFormat = 'json' | 'jsonl' | 'text';

export interface ParsedAgentOutput extends AgentReport {
  readonly format: AgentOutputFormat;
}

/** Lines of plain output kept as the summary: the end of a CLI's output is where it says what it did. */
export const PLAIN_SUMMARY_LINES = 8;

/**
 * Reads what a coding-agent CLI printed. Tolerant on purpose: the output is another program's,
 * its shape changes between versions, and a parser that rejected it would turn a working build
 * into a failure. In order:
 *
 * - one JSON object (Claude Code `--output-format json`) or a JSON array of events (the same
 *   with `--verbose`);
 * - JSON lines with a `type` (Claude Code `stream-json`, ending in a `type: 'result'` line;
 *   Codex `exec --json`: `item.completed` agent messages, `turn.completed`, `turn.failed`,
 *   `error`), ignoring lines that are not JSON;
 * - anything else is plain text, and the summary is its last non-empty lines.
 */
export function parseAgentOutput(stdout: string): ParsedAgentOutput {
  const trimmed = stdout.trim();
  if (trimmed === '') return { format: 'text', summary: '', permissionDenials: [] };
  const whole = tryJson(trimmed);
  if (isRecord(whole) || Array.isArray(whole)) {
    const events = (Array.isArray(whole) ? whole : [whole]).filter(isRecord);
    const report = fromEvents(events);
    if (report !== undefined) return { format: 'json', ...report };
  }
  const events: Record<string, unknown>[] = [];
  const text: string[] = [];
  for (const line of trimmed.split(/\r?\n/)) {
    const parsed = line.trim().startsWith('{') ? tryJson(line.trim()) : undefined;
    if (isRecord(parsed) && typeof unwrap(parsed).type === 'string') events.push(parsed);
    else text.push(line);
  }
  const report = events.length > 0 ? fromEvents(events) : undefined;
  if (report !== undefined) return { format: 'jsonl', ...report, summary: report.summary !== '' ? report.summary : plainSummary(text) };
  return { format: 'text', summary: plainSummary(trimmed.split(/\r?\n/)), permissionDenials: [] };
}

/** The report the events make, or undefined when none of them is a shape this parser knows. */
function fromEvents(events: readonly Record<string, unknown>[]): AgentReport | undefined {
  let result: ResultMessage | undefined;
  let lastMessage: string | undefined;
  let error: string | undefined;
  let turns = 0;
  let known = false;
  for (const raw of events) {
    const event = unwrap(raw);
    switch (event.type) {
      case 'result':
        if (isResultMessage(event)) [result, known] = [event, true];
        break;
      case 'item.completed': {
        // Codex: the agent's messages are items; `item_type` and `assistant_message` are older spellings.
        const item = event.item;
        known = true;
        if (
          isRecord(item) &&
          ['agent_message', 'assistant_message'].includes(String(item.type ?? item.item_type)) &&
          typeof item.text === 'string' &&
          item.text.trim() !== ''
        )
          lastMessage = item.text.trim();
        break;
      }
      case 'turn.completed':
        // A completed turn supersedes a stream error that was retried before it.
        [turns, error, known] = [turns + 1, undefined, true];
        break;
      case 'turn.failed':
        [error, known] = [`the agent's turn failed: ${messageOf(event.error) ?? 'no reason given'}`, true];
        break;
      case 'error':
        [error, known] = [`the agent reported an error: ${messageOf(event) ?? 'no reason given'}`, true];
        break;
      case 'assistant': {
        // Claude Code stream-json: the message's text blocks; kept in case the result line is missing.
        const said = assistantText(event.message);
        known = true;
        if (said !== '') lastMessage = said;
        break;
      }
      case 'agent_message':
        // Codex's older `{ msg: { type: 'agent_message', message } }` lines.
        known = true;
        if (typeof event.message === 'string' && event.message.trim() !== '') lastMessage = event.message.trim();
        break;
      default:
        if (
          typeof event.type === 'string' &&
          ['thread.started', 'turn.started', 'item.started', 'item.updated', 'system', 'user', 'stream_event'].includes(event.type)
        )
          known = true;
    }
  }
  if (!known) return undefined;
  if (result !== undefined) {
    const report = reportFromResult(result);
    const summary = report.summary !== '' ? report.summary : clipSummary(lastMessage ?? '');
    return { ...report, summary, ...(report.turns === undefined && turns > 0 ? { turns } : {}) };
  }
  return {
    summary: clipSummary(lastMessage ?? ''),
    permissionDenials: [],
    ...(turns > 0 ? { turns } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}

/** Codex's older lines wrap the event in `msg`. */
function unwrap(event: Record<string, unknown>): Record<string, unknown> {
  return typeof event.type !== 'string' && isRecord(event.msg) ? event.msg : event;
}

function assistantText(message: unknown): string {
  if (!isRecord(message)) return '';
  const content = message.content;
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => String(block.text))
    .join('\n')
    .trim();
}

function messageOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (isRecord(value) && typeof value.message === 'string' && value.message.trim() !== '') return value.message.trim();
  return undefined;
}

/** The last few non-empty lines, without terminal colour codes, clipped from the front. */
function plainSummary(lines: readonly string[]): string {
  const kept = lines
    .map((line) => stripAnsi(line).trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(-PLAIN_SUMMARY_LINES)
    .join('\n');
  return kept.length <= MAX_SUMMARY_CHARS ? kept : `…${kept.slice(kept.length - MAX_SUMMARY_CHARS + 1)}`;
}

// eslint-disable-next-line no-control-regex -- matching terminal escape sequences is the point
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

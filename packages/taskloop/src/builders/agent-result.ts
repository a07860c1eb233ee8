import type { BuildResult } from './builder.js';

/**
 * What an agent said about its own run, in one shape whichever way it said it (Claude Code's
 * `--output-format json` result, the Agent SDK's result message, Codex's JSONL events, plain
 * text). Both builders map it into a BuildResult the same way, so a run reads the same in the
 * evidence whichever builder did it.
 */
export interface AgentReport {
  /** The agent's final words, clipped; empty when it said nothing. */
  readonly summary: string;
  /** Set when the agent itself reported an error (a turn limit, a failure mid-run). */
  readonly error?: string;
  readonly costUsd?: number;
  readonly turns?: number;
  /** Refused tool uses, one line each. */
  readonly permissionDenials: readonly string[];
}

/** Longest summary kept; the full text stays in the transcript. */
export const MAX_SUMMARY_CHARS = 4_000;

/**
 * The final `type: 'result'` message of Claude Code (`--output-format json`, the last line of
 * `stream-json`) and of the Agent SDK, typed structurally so this package does not depend on
 * the SDK. Only the fields read here are listed; all are optional because the shape is not ours.
 */
export interface ResultMessage {
  readonly type: 'result';
  readonly subtype?: unknown;
  readonly is_error?: unknown;
  readonly result?: unknown;
  readonly total_cost_usd?: unknown;
  readonly num_turns?: unknown;
  readonly permission_denials?: unknown;
  /** The SDK's error subtypes carry their messages here. */
  readonly errors?: unknown;
}

export function isResultMessage(value: unknown): value is ResultMessage {
  return isRecord(value) && value.type === 'result';
}

/**
 * Reads a result message. It is an error when `is_error` is true or the subtype is not
 * `success` (`error_max_turns`, `error_during_execution`, `error_max_budget_usd`, ...): the
 * agent stopped before it finished, whatever its text says.
 */
export function reportFromResult(message: ResultMessage): AgentReport {
  const subtype = typeof message.subtype === 'string' ? message.subtype : undefined;
  const text = typeof message.result === 'string' ? message.result.trim() : '';
  const errors = Array.isArray(message.errors) ? message.errors.filter((e): e is string => typeof e === 'string' && e.trim() !== '') : [];
  const failed = message.is_error === true || (subtype !== undefined && subtype !== 'success');
  const report = {
    summary: clipSummary(text),
    permissionDenials: readDenials(message.permission_denials),
    ...(isAmount(message.total_cost_usd) ? { costUsd: message.total_cost_usd } : {}),
    ...(isAmount(message.num_turns) ? { turns: message.num_turns } : {}),
  };
  if (!failed) return report;
  const detail = [...errors, ...(text !== '' ? [text] : [])].join('; ');
  const what = subtype !== undefined && subtype !== 'success' ? `the agent stopped with ${subtype}` : 'the agent reported an error';
  return { ...report, error: detail !== '' ? `${what}: ${clipSummary(detail)}` : what };
}

/**
 * The BuildResult for a builder process that ran to its end: `ok` unless the agent reported an
 * error (`agent_error`). Refused tool uses alone do not fail the build; they are listed, and the
 * gates judge what the agent managed to do.
 */
export function resultFromReport(report: AgentReport, transcript: string, durationMs: number): BuildResult {
  const extras = {
    ...(report.costUsd !== undefined ? { costUsd: report.costUsd } : {}),
    ...(report.turns !== undefined ? { turns: report.turns } : {}),
    ...(report.permissionDenials.length > 0 ? { permissionDenials: report.permissionDenials } : {}),
  };
  if (report.error === undefined) return { ok: true, summary: report.summary, transcript, durationMs, ...extras };
  return {
    ok: false,
    failure: { kind: 'agent_error', message: report.error },
    summary: report.summary !== '' ? report.summary : report.error,
    transcript,
    durationMs,
    ...extras,
  };
}

/**
 * Renders refused tool uses (`{ tool_name, tool_input }` in Claude Code and the SDK) as one line
 * each: the tool and what it was asked to do, so a reviewer sees which edit or command was
 * refused. Strings are kept as they are; other shapes are shown as JSON.
 */
export function readDenials(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((denial) => {
    if (typeof denial === 'string') return denial;
    if (!isRecord(denial)) return clip(JSON.stringify(denial) ?? String(denial), 300);
    const tool = typeof denial.tool_name === 'string' ? denial.tool_name : 'unknown tool';
    const input = denial.tool_input;
    if (isRecord(input)) {
      const target = ['command', 'file_path', 'path', 'url', 'pattern']
        .map((key) => input[key])
        .find((v): v is string => typeof v === 'string');
      return clip(target !== undefined ? `${tool}: ${target}` : `${tool}: ${JSON.stringify(input)}`, 300);
    }
    return tool;
  });
}

export function clipSummary(text: string): string {
  return clip(text, MAX_SUMMARY_CHARS);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

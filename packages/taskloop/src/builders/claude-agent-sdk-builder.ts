import { errorMessage } from '@conclave/core/internal';
import { KILL_GRACE_MS } from '../process/process-group.js';
import { redactSecrets } from '../security/redact.js';
import { type ResultMessage, clipSummary, isRecord, isResultMessage, reportFromResult, resultFromReport } from './agent-result.js';
import { renderBuildPrompt } from './build-prompt.js';
import type { BuildFailureKind, BuildResult, Builder } from './builder.js';

/** The optional peer dependency this builder drives. */
export const CLAUDE_AGENT_SDK_PACKAGE = '@anthropic-ai/claude-agent-sdk';

/**
 * The SDK's `query()`, typed structurally: it takes the prompt and options and yields messages.
 * Declared here rather than imported so this package builds, and its other builders work,
 * without the SDK installed.
 */
export type AgentSdkQuery = (params: { prompt: string; options: Record<string, unknown> }) => AsyncIterable<unknown>;

export interface ClaudeAgentSdkBuilderOptions {
  /**
   * The `query` function to use. Default: the SDK's own, loaded on first use; inject one to use
   * a wrapped or preconfigured SDK, or a fake in tests.
   */
  readonly query?: AgentSdkQuery;
  readonly model?: string;
  readonly maxTurns?: number;
  /** The SDK's permission mode (`default`, `acceptEdits`, `bypassPermissions`, `plan`). */
  readonly permissionMode?: string;
  readonly allowedTools?: readonly string[];
  /** Further SDK options passed through as they are; the options above and the workspace, env and abort controller win. */
  readonly sdkOptions?: Readonly<Record<string, unknown>>;
  /** Loads the SDK module when no `query` is injected. Default: `import('@anthropic-ai/claude-agent-sdk')`. */
  readonly loadSdk?: () => Promise<unknown>;
  /** For receipts; default `claude-agent-sdk`. */
  readonly name?: string;
  /**
   * After a timeout or abort, how long to wait for the SDK to close its stream (and stop the
   * Claude Code process it runs) before reporting, so the loop does not validate a workspace
   * the agent is still editing. Default {@link DEFAULT_SDK_CLOSE_GRACE_MS}.
   */
  readonly closeGraceMs?: number;
}

/** As long as runProcess gives a process tree between SIGTERM and SIGKILL. */
export const DEFAULT_SDK_CLOSE_GRACE_MS = KILL_GRACE_MS;

/** Longest transcript kept; the middle of a longer one is cut. */
export const MAX_SDK_TRANSCRIPT_CHARS = 1_000_000;

/** Longest rendering of one tool input or tool result in the transcript. */
const MAX_TOOL_CHARS = 2_000;

/**
 * A builder over the Claude Agent SDK's `query()`: it runs Claude Code in the workspace with the
 * rendered prompt and reads the message stream into a transcript and the final result message
 * into the BuildResult, the same way the command builder reads `claude --output-format json`.
 * The SDK is an optional peer dependency, loaded only when this builder first builds without an
 * injected `query`; when it is not installed the build fails (`spawn_failed`) with the install
 * command rather than the whole package failing to load.
 */
export function createClaudeAgentSdkBuilder(options: ClaudeAgentSdkBuilderOptions = {}): Builder {
  let loaded: Promise<AgentSdkQuery | string> | undefined;
  const loadQuery = (): Promise<AgentSdkQuery | string> => {
    if (options.query !== undefined) return Promise.resolve(options.query);
    loaded ??= loadSdkQuery(options.loadSdk ?? importSdk);
    return loaded;
  };
  return {
    name: options.name ?? 'claude-agent-sdk',
    async build(task, feedback, context) {
      const started = performance.now();
      const elapsed = (): number => Math.round(performance.now() - started);
      const redact = (text: string): string => redactSecrets(text, context.secretValues);
      const query = await loadQuery();
      if (typeof query === 'string')
        return { ok: false, failure: { kind: 'spawn_failed', message: query }, summary: query, transcript: '', durationMs: elapsed() };
      if (context.signal?.aborted === true)
        return {
          ok: false,
          failure: { kind: 'aborted', message: 'the build was aborted before the agent started' },
          summary: '',
          transcript: '',
          durationMs: elapsed(),
        };

      const controller = new AbortController();
      let stop: 'timeout' | 'aborted' | undefined;
      const halt = (why: 'timeout' | 'aborted'): void => {
        stop ??= why;
        controller.abort();
      };
      const timer = setTimeout(() => halt('timeout'), Math.max(0, context.timeoutMs));
      const onAbort = (): void => halt('aborted');
      context.signal?.addEventListener('abort', onAbort, { once: true });
      const stopped = new Promise<'stopped'>((resolve) =>
        controller.signal.addEventListener('abort', () => resolve('stopped'), { once: true }),
      );

      const transcript = new Transcript();
      let result: ResultMessage | undefined;
      let lastText = '';
      let thrown: string | undefined;
      try {
        const iterable = query({
          prompt: renderBuildPrompt(task, feedback),
          options: {
            ...options.sdkOptions,
            cwd: context.workspace,
            env: { ...context.env },
            abortController: controller,
            ...(options.model !== undefined ? { model: options.model } : {}),
            ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
            ...(options.permissionMode !== undefined ? { permissionMode: options.permissionMode } : {}),
            ...(options.allowedTools !== undefined ? { allowedTools: [...options.allowedTools] } : {}),
          },
        });
        const iterator = iterable[Symbol.asyncIterator]();
        for (;;) {
          const pending = iterator.next();
          // A step that rejects after we stopped waiting for it must not become an unhandled rejection.
          pending.catch(() => undefined);
          const step = await Promise.race([pending, stopped]);
          if (step === 'stopped') {
            await settleWithin(closeQuietly(iterator), options.closeGraceMs ?? DEFAULT_SDK_CLOSE_GRACE_MS);
            break;
          }
          if (step.done === true) break;
          const message = step.value;
          transcript.add(describe(message));
          if (isResultMessage(message)) result = message;
          const said = isRecord(message) && message.type === 'assistant' ? assistantText(message.message) : '';
          if (said !== '') lastText = said;
        }
      } catch (error) {
        thrown = errorMessage(error);
        transcript.add(`[the query failed] ${thrown}`);
      } finally {
        clearTimeout(timer);
        context.signal?.removeEventListener('abort', onAbort);
      }

      const text = redact(transcript.text());
      const report = result !== undefined ? reportFromResult(result) : { summary: clipSummary(lastText), permissionDenials: [] };
      const safeReport = {
        ...report,
        summary: redact(report.summary !== '' ? report.summary : clipSummary(lastText)),
        permissionDenials: report.permissionDenials.map(redact),
        ...(report.error !== undefined ? { error: redact(report.error) } : {}),
      };
      const built = resultFromReport(safeReport, text, elapsed());
      const failure: { kind: BuildFailureKind; message: string } | undefined =
        stop === 'timeout'
          ? { kind: 'timeout', message: `the agent took longer than ${context.timeoutMs} ms and was stopped` }
          : stop === 'aborted'
            ? { kind: 'aborted', message: 'the build was aborted and the agent was stopped' }
            : thrown !== undefined
              ? { kind: 'agent_error', message: redact(`the Agent SDK query failed: ${thrown}`) }
              : result === undefined
                ? { kind: 'agent_error', message: 'the Agent SDK query ended without a result message' }
                : undefined;
      if (failure === undefined) return built;
      const { ok: _ok, failure: _agentFailure, ...rest } = built;
      return { ...rest, ok: false, failure, summary: rest.summary !== '' ? rest.summary : failure.message } satisfies BuildResult;
    },
  };
}

/** The default loader. The specifier is a variable so TypeScript does not look for the (optional) package. */
function importSdk(): Promise<unknown> {
  const specifier: string = CLAUDE_AGENT_SDK_PACKAGE;
  return import(specifier) as Promise<unknown>;
}

/** The SDK's `query`, or the message to show when it cannot be loaded. */
async function loadSdkQuery(load: () => Promise<unknown>): Promise<AgentSdkQuery | string> {
  const hint = `it is an optional peer dependency of @conclave/taskloop: npm install ${CLAUDE_AGENT_SDK_PACKAGE}`;
  try {
    const module = await load();
    const query = isRecord(module) ? module.query : undefined;
    if (typeof query === 'function') return query as AgentSdkQuery;
    return `${CLAUDE_AGENT_SDK_PACKAGE} was loaded but has no query() function; ${hint}`;
  } catch (error) {
    return `could not load ${CLAUDE_AGENT_SDK_PACKAGE} (${errorMessage(error)}); ${hint}`;
  }
}

/** Asks the stream to close; settles when it has, never rejects. */
function closeQuietly(iterator: AsyncIterator<unknown>): Promise<unknown> {
  try {
    return Promise.resolve(iterator.return?.()).catch(() => undefined);
  } catch {
    // An iterator whose return() throws has nothing left for us to close.
    return Promise.resolve();
  }
}

/** Waits for the promise, but no longer than `ms`. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(timer);
}

/** One transcript line per SDK message: what the agent said, which tools it used, how it ended. */
function describe(message: unknown): string {
  if (!isRecord(message)) return `[message] ${clip(String(message), MAX_TOOL_CHARS)}`;
  switch (message.type) {
    case 'assistant': {
      const blocks = contentBlocks(message.message);
      const parts = blocks.map((block) =>
        block.type === 'text' && typeof block.text === 'string'
          ? `assistant: ${block.text}`
          : block.type === 'tool_use'
            ? `tool_use ${String(block.name)} ${clip(JSON.stringify(block.input) ?? '', MAX_TOOL_CHARS)}`
            : `assistant: [${String(block.type)}]`,
      );
      return parts.length > 0 ? parts.join('\n') : 'assistant: (no content)';
    }
    case 'user': {
      const blocks = contentBlocks(message.message).filter((block) => block.type === 'tool_result');
      return blocks.length > 0
        ? blocks
            .map((block) => `tool_result${block.is_error === true ? ' (error)' : ''}: ${clip(flatten(block.content), MAX_TOOL_CHARS)}`)
            .join('\n')
        : 'user: (message)';
    }
    case 'result': {
      const facts = [
        `subtype=${String(message.subtype)}`,
        `is_error=${String(message.is_error)}`,
        `num_turns=${String(message.num_turns)}`,
        `total_cost_usd=${String(message.total_cost_usd)}`,
      ];
      const text = typeof message.result === 'string' ? `\n${message.result}` : '';
      return `result: ${facts.join(' ')}${text}`;
    }
    default:
      return `[${String(message.type)}${typeof message.subtype === 'string' ? `:${message.subtype}` : ''}]`;
  }
}

function contentBlocks(message: unknown): Record<string, unknown>[] {
  if (!isRecord(message)) return [];
  const content = message.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

function assistantText(message: unknown): string {
  return contentBlocks(message)
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => String(block.text))
    .join('\n')
    .trim();
}

/** A tool result's content: a string, or text blocks. */
function flatten(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((block) => (isRecord(block) && typeof block.text === 'string' ? block.text : JSON.stringify(block))).join('\n');
  return JSON.stringify(content) ?? '';
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Transcript lines within {@link MAX_SDK_TRANSCRIPT_CHARS}: the start and the end are kept, the middle is cut. */
class Transcript {
  private readonly lines: string[] = [];

  add(line: string): void {
    this.lines.push(line);
  }

  text(): string {
    const all = this.lines.join('\n');
    if (all.length <= MAX_SDK_TRANSCRIPT_CHARS) return all;
    const half = Math.floor(MAX_SDK_TRANSCRIPT_CHARS / 2);
    return `${all.slice(0, half)}\n… [transcript cut: ${all.length - 2 * half} characters]\n${all.slice(all.length - half)}`;
  }
}

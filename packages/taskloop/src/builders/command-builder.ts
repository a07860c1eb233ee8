import { basename } from 'node:path';
import { runProcess, type ProcessOutcome } from '../process/run-process.js';
import { checkCommand } from '../security/command-policy.js';
import type { CommandPolicy } from '../security/command-policy-config.js';
import { redactSecrets } from '../security/redact.js';
import { resultFromReport } from './agent-result.js';
import { renderBuildPrompt } from './build-prompt.js';
import type { BuildContext, BuildFailureKind, Builder } from './builder.js';
import { parseAgentOutput } from './parse-agent-output.js';

/** The token a command uses to say where the prompt goes when it is passed as an argument. */
export const PROMPT_PLACEHOLDER = '{prompt}';

/**
 * Stands in for `{prompt}` while the command is checked: the policy refuses an unquoted brace
 * (a shell would expand it), but the placeholder is ours, not the shell's, so it may be written
 * bare (`claude -p {prompt}`) as well as quoted.
 */
const PROMPT_SENTINEL = 'CONCLAVE_TASKLOOP_PROMPT_PLACEHOLDER';

/**
 * Without a project policy the builder may run its own configured command and nothing else: the
 * command is fixed when the builder is created, so allowing "anything not denied" allows exactly
 * it. The command is still parsed, and refused if it needs a shell.
 */
const OWN_COMMAND_ONLY: CommandPolicy = { allowUnlisted: true };

/** Per stream. Generous: an agent's JSONL transcript of a long task is large, and its last line carries the result. */
export const DEFAULT_BUILDER_OUTPUT_BYTES = 4 * 1024 * 1024;

export interface CommandBuilderOptions {
  /**
   * The agent CLI to run, e.g. `claude -p --output-format json` or `codex exec --json -`. It is
   * parsed into an argv (shell-quote rules) and never handed to a shell.
   */
  readonly command: string;
  /**
   * `stdin`: the prompt is written to the process's stdin. `argument`: every `{prompt}` in the
   * command is replaced by the prompt inside its argv element (so `{prompt}` becomes exactly one
   * argument, whatever the prompt contains), or the prompt is appended as the last argument when
   * the command has no `{prompt}`. Prefer stdin for long specs: the OS caps a single argument
   * (128 KiB on Linux), and a prompt over it fails to start (`spawn_failed`).
   */
  readonly promptVia: 'stdin' | 'argument';
  /** Per output stream; beyond it the middle is cut. Default {@link DEFAULT_BUILDER_OUTPUT_BYTES}. */
  readonly maxOutputBytes?: number;
  /**
   * The project's command policy; when given, the builder's command must pass it like any gate's
   * (so a project can forbid, say, `--dangerously-skip-permissions`). Without one, the builder
   * runs only its own configured command.
   */
  readonly policy?: CommandPolicy;
  /** For receipts; default `command:<program>`. */
  readonly name?: string;
}

/**
 * A builder that runs a coding-agent CLI (Claude Code, Codex, or any program that edits the
 * workspace and prints what it did) as a child process in the workspace. The command is checked
 * against the command policy before anything runs, and the prompt never passes through a shell,
 * so nothing in a task or a gate's output can inject a command. The CLI's output is read
 * tolerantly (see {@link parseAgentOutput}); its exit code, a timeout, an abort and the agent's
 * own error report become the result's failure.
 */
export function createCommandBuilder(options: CommandBuilderOptions): Builder {
  const parsed = checkCommand(options.command.split(PROMPT_PLACEHOLDER).join(PROMPT_SENTINEL), { allowUnlisted: true });
  // The program's name as the shell would read it, quotes and all: `'/usr/bin/node' x.js` is `node`.
  const name = options.name ?? `command:${parsed.ok ? basename(parsed.file) : 'agent'}`;
  return {
    name,
    async build(task, feedback, context) {
      const started = performance.now();
      const elapsed = (): number => Math.round(performance.now() - started);
      const redact = (text: string): string => redactSecrets(text, context.secretValues);
      const check = checkCommand(options.command.split(PROMPT_PLACEHOLDER).join(PROMPT_SENTINEL), options.policy ?? OWN_COMMAND_ONLY);
      if (!check.ok) {
        const message = `the builder command is not allowed: ${check.reason}. Fix: ${check.fix}`
          .split(PROMPT_SENTINEL)
          .join(PROMPT_PLACEHOLDER);
        return {
          ok: false,
          failure: { kind: 'permission_denied', message: redact(message) },
          summary: redact(message),
          transcript: redact(`$ ${options.command}\n(refused by the command policy, not run)`),
          durationMs: elapsed(),
        };
      }
      const prompt = renderBuildPrompt(task, feedback);
      const hasPlaceholder = [check.file, ...check.args].some((word) => word.includes(PROMPT_SENTINEL));
      if (hasPlaceholder && (options.promptVia === 'stdin' || check.file.includes(PROMPT_SENTINEL))) {
        const message =
          options.promptVia === 'stdin'
            ? `the builder command contains ${PROMPT_PLACEHOLDER} but promptVia is "stdin"; use promptVia "argument" or remove the placeholder`
            : `the builder command must start with a program, not ${PROMPT_PLACEHOLDER}`;
        return {
          ok: false,
          failure: { kind: 'spawn_failed', message },
          summary: message,
          transcript: redact(`$ ${options.command}\n(not run)`),
          durationMs: elapsed(),
        };
      }
      const args = options.promptVia === 'stdin' ? check.args : withPrompt(check.args, prompt);
      const outcome = await runProcess({
        file: check.file,
        args,
        cwd: context.workspace,
        ...(options.promptVia === 'stdin' ? { input: prompt } : {}),
        env: context.env,
        timeoutMs: context.timeoutMs,
        ...(context.signal !== undefined ? { signal: context.signal } : {}),
        maxOutputBytes: options.maxOutputBytes ?? DEFAULT_BUILDER_OUTPUT_BYTES,
        ...(context.groups === undefined ? {} : { groups: context.groups }),
      });
      const transcript = redact(renderTranscript(options, prompt, outcome));
      const report = parseAgentOutput(outcome.stdout);
      const parsed = resultFromReport(
        {
          ...report,
          summary: redact(report.summary),
          ...(report.error !== undefined ? { error: redact(report.error) } : {}),
          permissionDenials: report.permissionDenials.map(redact),
        },
        transcript,
        elapsed(),
      );
      const failure = processFailure(check.file, outcome, context, parsed.failure?.message);
      if (failure === undefined) return parsed;
      const { ok: _ok, failure: _agentFailure, ...rest } = parsed;
      const message = redact(failure.message);
      return { ...rest, ok: false, failure: { kind: failure.kind, message }, summary: rest.summary !== '' ? rest.summary : message };
    },
  };
}

/** Puts the prompt into the argv: inside each `{prompt}`, or as a last argument. Never through a shell. */
function withPrompt(args: readonly string[], prompt: string): string[] {
  if (!args.some((arg) => arg.includes(PROMPT_SENTINEL))) return [...args, prompt];
  // split/join rather than replace(): a prompt containing `$&` must not be expanded.
  return args.map((arg) => arg.split(PROMPT_SENTINEL).join(prompt));
}

/**
 * Why the process did not run properly, if it did not. A structured error the agent printed
 * (`agent_error`, from the output) is more telling than its exit code, so an exit code only
 * counts when the output carries no error of its own.
 */
function processFailure(
  file: string,
  outcome: ProcessOutcome,
  context: BuildContext,
  agentError: string | undefined,
): { kind: BuildFailureKind; message: string } | undefined {
  if (outcome.timedOut) return { kind: 'timeout', message: `the agent process took longer than ${context.timeoutMs} ms and was killed` };
  if (outcome.aborted) return { kind: 'aborted', message: 'the build was aborted and the agent process was stopped' };
  if (outcome.spawnError !== undefined) return { kind: 'spawn_failed', message: `could not start the builder: ${outcome.spawnError}` };
  if (agentError !== undefined) return { kind: 'agent_error', message: agentError };
  if (outcome.exitCode === 0) return undefined;
  const how = outcome.exitCode !== undefined ? `exited with code ${outcome.exitCode}` : `was killed by ${outcome.signal ?? 'a signal'}`;
  const lastError = lastLine(outcome.stderr) ?? lastLine(outcome.stdout);
  return { kind: 'exit_nonzero', message: `${basename(file)} ${how}${lastError !== undefined ? `: ${lastError}` : ''}` };
}

function lastLine(text: string): string | undefined {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .at(-1);
  return line === undefined ? undefined : line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** The command, how the prompt went in (not the prompt itself: it is recorded separately), and both streams. */
function renderTranscript(options: CommandBuilderOptions, prompt: string, outcome: ProcessOutcome): string {
  const how =
    outcome.exitCode !== undefined
      ? `exit code ${outcome.exitCode}`
      : outcome.signal !== undefined
        ? `killed by ${outcome.signal}`
        : (outcome.spawnError ?? 'did not run');
  const flags = [outcome.timedOut ? 'timed out' : '', outcome.aborted ? 'aborted' : ''].filter((f) => f !== '');
  return [
    `$ ${options.command}`,
    `(prompt: ${prompt.length} characters ${options.promptVia === 'stdin' ? 'on stdin' : 'as an argument'})`,
    `--- stdout${outcome.stdoutTruncated ? ' (truncated)' : ''} ---`,
    outcome.stdout.trimEnd(),
    `--- stderr${outcome.stderrTruncated ? ' (truncated)' : ''} ---`,
    outcome.stderr.trimEnd(),
    `--- ${how}${flags.length > 0 ? `, ${flags.join(', ')}` : ''}, ${outcome.durationMs} ms ---`,
  ].join('\n');
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDenials, reportFromResult, resultFromReport } from './agent-result.js';
import { parseAgentOutput } from './parse-agent-output.js';

const lines = (...values: unknown[]): string => values.map((value) => JSON.stringify(value)).join('\n');

describe('parseAgentOutput: Claude Code --output-format json', () => {
  it('reads the result, cost, turns and permission denials', () => {
    const stdout = JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Added the endpoint.',
      total_cost_usd: 0.42,
      num_turns: 7,
      permission_denials: [
        { tool_name: 'Bash', tool_use_id: 'a', tool_input: { command: 'git push' } },
        { tool_name: 'Write', tool_use_id: 'b', tool_input: { file_path: '/etc/hosts', content: 'x' } },
      ],
    });
    expect(parseAgentOutput(`${stdout}\n`)).toEqual({
      format: 'json',
      summary: 'Added the endpoint.',
      costUsd: 0.42,
      turns: 7,
      permissionDenials: ['Bash: git push', 'Write: /etc/hosts'],
    });
  });

  it('treats an error subtype as an agent error even when is_error is missing', () => {
    const report = parseAgentOutput(JSON.stringify({ type: 'result', subtype: 'error_max_turns', num_turns: 30, total_cost_usd: 1.5 }));
    expect(report.error).toBe('the agent stopped with error_max_turns');
    expect(report.turns).toBe(30);
  });

  it('treats is_error with a success subtype as an agent error carrying the text', () => {
    const report = parseAgentOutput(
      JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: 'API Error: 529 overloaded' }),
    );
    expect(report.error).toBe('the agent reported an error: API Error: 529 overloaded');
  });

  it('includes the SDK-style errors list', () => {
    expect(reportFromResult({ type: 'result', subtype: 'error_during_execution', is_error: true, errors: ['tool crashed'] }).error).toBe(
      'the agent stopped with error_during_execution: tool crashed',
    );
  });

  it('reads a JSON array of events (--verbose)', () => {
    const stdout = JSON.stringify([
      { type: 'system', subtype: 'init' },
      { type: 'result', subtype: 'success', is_error: false, result: 'ok', num_turns: 1 },
    ]);
    expect(parseAgentOutput(stdout)).toEqual(expect.objectContaining({ format: 'json', summary: 'ok', turns: 1 }));
  });
});

describe('parseAgentOutput: JSON lines', () => {
  it('reads Claude Code stream-json, ending with the result line', () => {
    const stdout = lines(
      { type: 'system', subtype: 'init' },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'Working.' }] } },
      { type: 'result', subtype: 'success', is_error: false, result: 'Finished.', total_cost_usd: 0.1, num_turns: 2 },
    );
    expect(parseAgentOutput(stdout)).toEqual({ format: 'jsonl', summary: 'Finished.', costUsd: 0.1, turns: 2, permissionDenials: [] });
  });

  it('falls back to the last assistant text when the result line is missing', () => {
    const stdout = lines(
      { type: 'system', subtype: 'init' },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'Half way.' }] } },
    );
    expect(parseAgentOutput(stdout)).toEqual({ format: 'jsonl', summary: 'Half way.', permissionDenials: [] });
  });

  it('reads Codex exec --json: the last agent message, the turns, and ignores non-JSON noise', () => {
    const stdout = [
      'Reading prompt from stdin...',
      lines(
        { type: 'thread.started', thread_id: 't' },
        { type: 'turn.started' },
        { type: 'item.completed', item: { id: '0', type: 'agent_message', text: 'First.' } },
        { type: 'item.completed', item: { id: '1', type: 'command_execution', command: 'ls' } },
        { type: 'item.completed', item: { id: '2', type: 'agent_message', text: 'Second and last.' } },
        { type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } },
      ),
    ].join('\n');
    expect(parseAgentOutput(stdout)).toEqual({ format: 'jsonl', summary: 'Second and last.', turns: 1, permissionDenials: [] });
  });

  it('reports a failed Codex turn and a fatal error event', () => {
    expect(parseAgentOutput(lines({ type: 'turn.started' }, { type: 'turn.failed', error: { message: 'quota exceeded' } })).error).toBe(
      "the agent's turn failed: quota exceeded",
    );
    expect(parseAgentOutput(lines({ type: 'thread.started' }, { type: 'error', message: 'bad auth' })).error).toBe(
      'the agent reported an error: bad auth',
    );
  });

  it('forgets a stream error that a later completed turn superseded', () => {
    const report = parseAgentOutput(
      lines(
        { type: 'error', message: 'reconnecting 1/5' },
        { type: 'item.completed', item: { type: 'agent_message', text: 'ok' } },
        { type: 'turn.completed' },
      ),
    );
    expect(report.error).toBeUndefined();
    expect(report.summary).toBe('ok');
  });

  it("reads Codex's older msg-wrapped lines", () => {
    const stdout = lines({ id: '0', msg: { type: 'task_started' } }, { id: '1', msg: { type: 'agent_message', message: 'Old style.' } });
    expect(parseAgentOutput(stdout).summary).toBe('Old style.');
  });
});

describe('parseAgentOutput: plain text and unknown shapes', () => {
  it('keeps the last non-empty lines, without colour codes', () => {
    const stdout = ['\u001b[32mline 0\u001b[0m', '', ...Array.from({ length: 10 }, (_, i) => `line ${i + 1}`), '', ''].join('\n');
    const report = parseAgentOutput(stdout);
    expect(report.format).toBe('text');
    expect(report.summary.split('\n')).toEqual(['line 3', 'line 4', 'line 5', 'line 6', 'line 7', 'line 8', 'line 9', 'line 10']);
    expect(parseAgentOutput('\u001b[1mbold\u001b[0m done').summary).toBe('bold done');
  });

  it('treats JSON it does not know as text', () => {
    expect(parseAgentOutput('{"hello": "world"}')).toEqual({ format: 'text', summary: '{"hello": "world"}', permissionDenials: [] });
    expect(parseAgentOutput('{"type": "mystery"}\nsome text')).toEqual({
      format: 'text',
      summary: '{"type": "mystery"}\nsome text',
      permissionDenials: [],
    });
  });

  it('is empty for empty output', () => {
    expect(parseAgentOutput('  \n')).toEqual({ format: 'text', summary: '', permissionDenials: [] });
  });

  it('never throws, whatever it is given', () => {
    const jsonish = fc.oneof(
      fc.string(),
      fc.json(),
      fc.array(fc.json()).map((values) => values.join('\n')),
    );
    fc.assert(
      fc.property(jsonish, (stdout) => {
        const report = parseAgentOutput(stdout);
        expect(typeof report.summary).toBe('string');
        expect(Array.isArray(report.permissionDenials)).toBe(true);
      }),
    );
  });
});

describe('agent results', () => {
  it('renders denials of any shape as one line each', () => {
    expect(
      readDenials([
        'raw',
        { tool_name: 'WebFetch', tool_input: { url: 'https://x' } },
        { tool_name: 'Mystery', tool_input: { a: 1 } },
        { tool_name: 'NoInput' },
        7,
      ]),
    ).toEqual(['raw', 'WebFetch: https://x', 'Mystery: {"a":1}', 'NoInput', '7']);
    expect(readDenials(undefined)).toEqual([]);
  });

  it('maps a report with an error to an agent_error, keeping cost and turns', () => {
    expect(
      resultFromReport(
        { summary: '', error: 'the agent stopped with error_max_turns', costUsd: 1, turns: 9, permissionDenials: ['Bash: x'] },
        't',
        5,
      ),
    ).toEqual({
      ok: false,
      failure: { kind: 'agent_error', message: 'the agent stopped with error_max_turns' },
      summary: 'the agent stopped with error_max_turns',
      transcript: 't',
      durationMs: 5,
      costUsd: 1,
      turns: 9,
      permissionDenials: ['Bash: x'],
    });
  });
});

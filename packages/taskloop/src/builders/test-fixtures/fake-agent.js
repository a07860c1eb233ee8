// A stand-in for a coding-agent CLI, run as a real child process by the command builder tests.
// Usage: node fake-agent.js <mode> [prompt]. Without a prompt argument it reads the prompt from
// stdin. Every mode records what it received in .fake-agent/received.json in its working
// directory, so a test can check the prompt arrived whole.
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';

const [mode = 'claude-json', promptArg] = process.argv.slice(2);
const prompt = promptArg ?? (await readStdin());
mkdirSync('.fake-agent', { recursive: true });
writeFileSync('.fake-agent/received.json', JSON.stringify({ args: process.argv.slice(2), prompt, via: promptArg === undefined ? 'stdin' : 'argument' }));

const out = (text) => process.stdout.write(`${text}\n`);
const json = (value) => out(JSON.stringify(value));
const taskLine = prompt.split('\n')[0] ?? '';

function editWorkspace() {
  mkdirSync('src', { recursive: true });
  writeFileSync('src/hello.txt', `hello from the fake agent\n${taskLine}\n`);
}

switch (mode) {
  case 'claude-json':
    editWorkspace();
    json({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'I wrote src/hello.txt.',
      total_cost_usd: 0.0123,
      num_turns: 3,
      duration_ms: 1200,
      session_id: 'fake-session',
      permission_denials: [{ tool_name: 'Bash', tool_use_id: 'toolu_1', tool_input: { command: 'rm -rf build' } }],
    });
    break;
  case 'claude-max-turns':
    json({ type: 'result', subtype: 'error_max_turns', is_error: true, total_cost_usd: 0.5, num_turns: 10, session_id: 'fake-session', permission_denials: [] });
    process.exitCode = 1;
    break;
  case 'stream-json':
    editWorkspace();
    json({ type: 'system', subtype: 'init', session_id: 'fake-session', cwd: process.cwd() });
    json({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Writing the file.' }, { type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: 'src/hello.txt' } }] } });
    json({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] } });
    json({ type: 'result', subtype: 'success', is_error: false, result: 'Done: src/hello.txt written.', total_cost_usd: 0.02, num_turns: 2 });
    break;
  case 'codex-jsonl':
    editWorkspace();
    json({ type: 'thread.started', thread_id: 'th_1' });
    json({ type: 'turn.started' });
    json({ type: 'item.completed', item: { id: 'item_0', type: 'command_execution', command: 'ls', aggregated_output: 'src\n', exit_code: 0, status: 'completed' } });
    json({ type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Created src/hello.txt with a greeting.' } });
    json({ type: 'turn.completed', usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 20 } });
    break;
  case 'codex-failed':
    json({ type: 'thread.started', thread_id: 'th_1' });
    json({ type: 'turn.started' });
    json({ type: 'error', message: 'stream disconnected before completion' });
    json({ type: 'turn.failed', error: { message: 'stream disconnected before completion' } });
    process.exitCode = 1;
    break;
  case 'text':
    editWorkspace();
    out('\u001b[32mthinking...\u001b[0m');
    out('');
    out('Edited src/hello.txt');
    out('All done.');
    break;
  case 'fail':
    out('starting');
    process.stderr.write('fatal: the model is not available\n');
    process.exitCode = 3;
    break;
  case 'sleep':
    out('working on it');
    await sleep(30_000);
    break;
  case 'secret':
    out(`using key ${process.env.FAKE_SECRET ?? 'none'}`);
    process.stderr.write(`debug: token=${process.env.FAKE_SECRET ?? 'none'}\n`);
    json({ type: 'result', subtype: 'success', is_error: false, result: `configured with ${process.env.FAKE_SECRET ?? 'none'}`, num_turns: 1 });
    break;
  default:
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exitCode = 2;
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

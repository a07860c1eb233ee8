// A deterministic stand-in for a coding agent (no model, no key, no network), for
// examples/taskloop.ts. The task loop's command builder runs it in the workspace with the prompt
// on stdin, exactly as it would run `claude -p --output-format json`. It reads the task id from
// the prompt's first line (`# Task <id>: ...`) and edits the workspace to do that task.
//
// Its first attempt at `farewell` leaves a TODO in src/greet.js: the tests pass, the agent says
// it is done, and the `no-todo` gate still fails the attempt. The retry prompt ("This is attempt
// 2 of 3", with the gate's evidence) gets the finished version. In examples/taskloop-split.ts the
// task splits after that first failure instead, and the child `farewell.1` finishes the work.
import { Buffer } from 'node:buffer';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const prompt = Buffer.concat(chunks).toString('utf8');
const task = /^# Task ([^:]+):/.exec(prompt)?.[1];
const attempt = Number(/This is attempt (\d+) of/.exec(prompt)?.[1] ?? '1');

const FAREWELL_DRAFT = `
/**
 * Says goodbye to someone by name.
 *
 * @param {string} name
 * @returns {string}
 */
export function farewell(name) {
  // TODO: say goodbye to "friend" when the name is empty
  return \`Goodbye, \${name}!\`;
}
`;

const FAREWELL = `
/**
 * Says goodbye to someone by name ("friend" when the name is empty).
 *
 * @param {string} name
 * @returns {string}
 */
export function farewell(name) {
  return \`Goodbye, \${name.trim() === '' ? 'friend' : name}!\`;
}
`;

const CLI = `#!/usr/bin/env node
// Usage: node bin/greet.js [--bye] <name>
import { farewell, greet } from '../src/greet.js';

const args = process.argv.slice(2);
const name = args.find((arg) => !arg.startsWith('--')) ?? 'world';
console.log(args.includes('--bye') ? farewell(name) : greet(name));
`;

const CLI_TEST = `import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

const run = (...args) => execFileSync(process.execPath, ['bin/greet.js', ...args], { encoding: 'utf8' }).trim();

test('the command line greets, and says goodbye with --bye', () => {
  assert.equal(run('Ada'), 'Hello, Ada!');
  assert.equal(run('--bye', 'Ada'), 'Goodbye, Ada!');
});
`;

/** Replaces the farewell function in src/greet.js (or appends it), so a retry rewrites rather than duplicates. */
function writeFarewell(code) {
  const source = readFileSync('src/greet.js', 'utf8');
  const start = source.indexOf('\n/**\n * Says goodbye');
  writeFileSync('src/greet.js', `${(start === -1 ? source : source.slice(0, start)).trimEnd()}\n${code}`);
}

let summary;
let failed = false;
switch (task) {
  case 'farewell':
    if (attempt === 1) {
      writeFarewell(FAREWELL_DRAFT);
      summary = 'Added farewell(name) to src/greet.js. Done: the tests pass.';
    } else {
      writeFarewell(FAREWELL);
      summary = `Attempt ${attempt}: the no-todo gate found my TODO; farewell now handles an empty name and the TODO is gone.`;
    }
    break;
  // A child a split created (examples/taskloop-split.ts): the split planner asked it to resolve the TODO.
  case 'farewell.1':
    writeFarewell(FAREWELL);
    summary = 'Resolved the TODO: farewell now says goodbye to "friend" when the name is empty.';
    break;
  case 'cli-script':
    mkdirSync('bin', { recursive: true });
    writeFileSync('bin/greet.js', CLI);
    writeFileSync('test/cli.test.js', CLI_TEST);
    summary = 'Wrote bin/greet.js and test/cli.test.js.';
    break;
  default:
    failed = true;
    summary = `The offline agent does not know how to do task "${task ?? '(no task id in the prompt)'}".`;
}

process.stdout.write(`${JSON.stringify({ type: 'result', subtype: failed ? 'error_during_execution' : 'success', is_error: failed, result: summary, num_turns: 1, total_cost_usd: 0 })}\n`);
process.exitCode = failed ? 1 : 0;

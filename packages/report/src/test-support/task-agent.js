// A stand-in coding agent for the report's task-run fixture, run as a real child process by the
// command builder (no model, no key, no network). It reads the task id and attempt number from
// the prompt on stdin and writes out/<task>.txt. Its first attempt at `parse` is broken, so the
// shell gate fails with exit code 1 and the retry, with the gate's evidence, fixes it (or, in the
// split fixture, a child task split off the failing one does).
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import process from 'node:process';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const prompt = Buffer.concat(chunks).toString('utf8');
const task = /^# Task ([^:]+):/m.exec(prompt)?.[1] ?? 'unknown';
const attempt = Number(/This is attempt (\d+) of/.exec(prompt)?.[1] ?? '1');
const broken = task === 'parse' && attempt === 1;
mkdirSync('out', { recursive: true });
writeFileSync(`out/${task}.txt`, broken ? `BROKEN ${task}\n` : `ok ${task}\n`);
// A child a split created (`parse.1`) repairs its parent's file too: that is what it was split off to do.
if (task.startsWith('parse.')) writeFileSync('out/parse.txt', 'ok parse\n');
const summary = broken ? `Done: wrote out/${task}.txt, all good <script>alert("agent")</script>` : `Wrote out/${task}.txt`;
process.stdout.write(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: summary, num_turns: 1, total_cost_usd: 0.0012 }) + '\n');

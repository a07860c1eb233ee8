// Runs the task loop once in the workspace given as argv[2], for the kill-and-resume test, and
// prints the outcome as JSON. The parent kills it with SIGKILL at random moments and reruns it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCommandBuilder } from '../../builders/command-builder.js';
import { parseSpec } from '../../spec/task-spec.js';
import { TASK_AGENT } from '../../test-support/temp-repo.js';
import { runTaskLoop } from '../run-task-loop.js';

const workspace = process.argv[2] as string;
const parsed = parseSpec(await readFile(join(workspace, 'spec.md'), 'utf8'), 'spec.md');
if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
const result = await runTaskLoop({
  workspace,
  spec: parsed.spec,
  builder: createCommandBuilder({ command: `${process.execPath} ${TASK_AGENT} ${process.argv[3] ?? 'flaky'}`, promptVia: 'stdin' }),
  commandPolicy: { allow: ['node scripts/check.mjs'] },
});
process.stdout.write(`${JSON.stringify(result)}\n`);

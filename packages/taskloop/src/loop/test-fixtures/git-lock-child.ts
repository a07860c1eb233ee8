// A conclave run killed while git held its locks, for the stale-lock test: runs one git command
// of the loop in the workspace given as argv[2] (so this process is on record as the one running
// git there), leaves the lock files a git killed mid-write leaves, prints "ready" and waits for
// the parent's SIGKILL.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { committedEvidence, openGitShell } from '../git.js';

const workspace = process.argv[2] as string;
openGitShell(workspace);
await committedEvidence(workspace);
for (const lock of process.argv.slice(3)) writeFileSync(join(workspace, '.git', lock), '');
process.stdout.write('ready\n');
setInterval(() => undefined, 1_000);

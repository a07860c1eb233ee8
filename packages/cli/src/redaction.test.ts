import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { examples, offlineEnv, removeTempDirs, runMain, sampleRepo, tempDir } from './test-support/run-main.js';

afterAll(removeTempDirs);

/**
 * Secrets planted in what a builder and a gate print, assembled at run time from parts so that
 * no file of the test (nor the gate script committed to the workspace) holds them literally.
 */
const part = (...parts: readonly string[]): string => parts.join('');
const ENV_TOKEN = part('dT9xK2m', 'Q7vL4pR8', 'sW3zNq6');
const ENV_DATABASE_PASSWORD = part('Pg-Secret', '-77x');
const ENV_DATABASE_URL = `postgres://app:${ENV_DATABASE_PASSWORD}@db.internal:5432/app`;
const GITHUB_TOKEN = part('gh', 'p_', 'R7mK2xQ9vL4pT8sW3zN6', 'bY1cD5fH0jA2gE4i');
const AWS_KEY = part('AK', 'IA', 'Q3ZT7NL2', 'HX5WBR4P');
const PASSWORD = part('Xk2-Lq9', '-Wm4-Zr7');
const PLANTED = [ENV_TOKEN, ENV_DATABASE_PASSWORD, GITHUB_TOKEN, AWS_KEY, PASSWORD];

/** A script line printing the planted secrets, each rebuilt from two halves at run time. */
function printing(stream: 'stdout' | 'stderr'): string {
  const halves = (value: string): string => `${JSON.stringify(value.slice(0, 4))} + ${JSON.stringify(value.slice(4))}`;
  return [
    `process.${stream}.write('env token: ' + ${halves(ENV_TOKEN)} + '\\n');`,
    `process.${stream}.write('DATABASE_URL=postgres://app:' + ${halves(ENV_DATABASE_PASSWORD)} + '@db.internal:5432/app\\n');`,
    `process.${stream}.write('pushing with ' + ${halves(GITHUB_TOKEN)} + ' and ' + ${halves(AWS_KEY)} + '\\n');`,
    `process.${stream}.write('config: password=' + ${halves(PASSWORD)} + '\\n');`,
  ].join('\n');
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('no planted secret survives a task run', () => {
  it('greps the run folder, the git history, the run record, the HTML report and the CLI output', async () => {
    const workspace = await sampleRepo();
    const cwd = await tempDir();
    // The gate prints the secrets on both streams, then runs the real tests.
    await writeFile(join(workspace, 'leaky-gate.mjs'), `${printing('stdout')}\n${printing('stderr')}\n`);
    execFileSync('git', ['add', 'leaky-gate.mjs'], { cwd: workspace });
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@localhost', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'leaky gate'],
      { cwd: workspace },
    );
    // The builder prints them on stderr (its transcript), then does the work as the offline agent.
    const builder = join(cwd, 'leaky-agent.mjs');
    await writeFile(builder, `${printing('stderr')}\nawait import(${JSON.stringify(join(examples, 'tasks/offline-agent.js'))});\n`);
    const spec = join(cwd, 'spec.md');
    const base = await readFile(join(examples, 'tasks/add-farewell.md'), 'utf8');
    await writeFile(spec, base.replace('gates:\n', 'gates:\n  - { type: shell, name: leaky, run: node leaky-gate.mjs }\n'));
    const env = offlineEnv({ DEPLOY_TOKEN: ENV_TOKEN, DATABASE_URL: ENV_DATABASE_URL });

    const run = await runMain(
      [
        'task',
        'run',
        spec,
        '--workspace',
        workspace,
        '--builder',
        `'${process.execPath}' '${builder}'`,
        '--allow',
        'node --test',
        '--allow',
        'node leaky-gate.mjs',
        '--out',
        'task.json',
        '--json',
      ],
      { cwd, env },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = await runMain(['report', 'task.json', '-o', 'task.html'], { cwd, env });
    expect(report.code, report.stderr).toBe(0);

    const runFiles = await filesUnder(join(workspace, '.conclave'));
    const texts: [string, string][] = [
      ...(await Promise.all(runFiles.map(async (file): Promise<[string, string]> => [file, await readFile(file, 'utf8')]))),
      [
        'git history',
        execFileSync('git', ['log', '-p', '--all', '--format=fuller%n%B'], {
          cwd: workspace,
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        }),
      ],
      ['task.json', await readFile(join(cwd, 'task.json'), 'utf8')],
      ['task.html', await readFile(join(cwd, 'task.html'), 'utf8')],
      ['task run output', run.stdout + run.stderr],
      ['report output', report.stdout + report.stderr],
    ];
    for (const [where, text] of texts) {
      for (const secret of PLANTED) expect(text.includes(secret), `${secret.slice(0, 4)}… found in ${where}`).toBe(false);
    }
    // The secrets did pass through: the gate's evidence and the builder's transcript hold the markers.
    const evidence = texts
      .filter(([file]) => file.endsWith('evidence.json'))
      .map(([, text]) => text)
      .join('\n');
    const transcripts = texts
      .filter(([file]) => file.endsWith('transcript.txt'))
      .map(([, text]) => text)
      .join('\n');
    for (const kind of ['[REDACTED:secret]', '[REDACTED:github]', '[REDACTED:aws_access_key]', '[REDACTED:password]']) {
      expect(evidence, `gate evidence lacks ${kind}`).toContain(kind);
      expect(transcripts, `builder transcript lacks ${kind}`).toContain(kind);
    }
  }, 120_000);
});

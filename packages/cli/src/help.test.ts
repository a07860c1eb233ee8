import { readdir, readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runMain, tempDir } from './test-support/run-main.js';

const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** The options listed under one heading of a help text, e.g. `Global options:`. */
function group(help: string, heading: string): string[] {
  const start = help.indexOf(`\n${heading}\n`);
  if (start < 0) return [];
  const body = help.slice(start + heading.length + 2).split('\n\n')[0] ?? '';
  return [...body.matchAll(/^ {2}(-\w, )?(--[\w-]+)/gm)].map((match) => match[2] ?? '');
}

afterAll(removeTempDirs);

describe('conclave --version', () => {
  it('prints the version of packages/cli/package.json, with --version and -V, and exits 0', async () => {
    const cwd = await tempDir();
    for (const flag of ['--version', '-V']) {
      const { code, stdout, stderr } = await runMain([flag], { cwd });
      expect(code).toBe(0);
      expect(stdout).toBe(`${version}\n`);
      expect(stderr).toBe('');
    }
  });
});

describe('conclave help', () => {
  it('`help`, `help <command>` and `help task run` print help on stdout and exit 0', async () => {
    const cwd = await tempDir();
    const top = await runMain(['help'], { cwd });
    expect(top.code).toBe(0);
    expect(top.stdout).toBe((await runMain(['--help'], { cwd })).stdout);
    const debate = await runMain(['help', 'debate'], { cwd });
    expect(debate.code).toBe(0);
    expect(debate.stdout).toBe((await runMain(['debate', '--help'], { cwd })).stdout);
    const taskRun = await runMain(['help', 'task', 'run'], { cwd });
    expect(taskRun.code).toBe(0);
    expect(taskRun.stdout).toContain('Usage: conclave task run [options] <spec.md>');
    expect(taskRun.stderr).toBe('');
  });

  it('a command that is not there, or a group without its subcommand, is a usage error (exit 2)', async () => {
    const cwd = await tempDir();
    const bogus = await runMain(['help', 'bogus'], { cwd });
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toBe("conclave: unknown command 'bogus'\n    fix: check the spelling; `conclave help` lists the commands\n");
    const task = await runMain(['task'], { cwd });
    expect(task.code).toBe(2);
    expect(task.stdout).toBe('');
    expect(task.stderr).toContain('Usage: conclave task');
  });

  it('prints the exit codes once, in the top-level help only', async () => {
    const cwd = await tempDir();
    const top = await runMain(['--help'], { cwd });
    expect(top.stdout.split('Exit codes:')).toHaveLength(2);
    for (const argv of [
      ['debate'],
      ['verify'],
      ['gate'],
      ['meet'],
      ['adr', 'approve'],
      ['task', 'run'],
      ['task', 'status'],
      ['task', 'unblock'],
      ['task', 'resume'],
      ['report'],
      ['demo'],
    ]) {
      const { code, stdout } = await runMain([...argv, '--help'], { cwd });
      expect(code).toBe(0);
      expect(stdout).toContain('Examples:');
      expect(stdout, argv.join(' ')).not.toContain('Exit codes:');
    }
  });

  it("lists a command's own flags apart from the global ones, and --provider/--model only where a model is called", async () => {
    const cwd = await tempDir();
    const help = async (argv: string[]) => (await runMain([...argv, '--help'], { cwd })).stdout;
    const model = [['debate'], ['meet'], ['task', 'run'], ['task', 'resume'], ['demo']];
    const noModel = [['verify'], ['gate'], ['report'], ['adr', 'approve'], ['task', 'status'], ['task', 'unblock']];
    for (const argv of [...model, ...noModel]) {
      const text = await help(argv);
      expect(group(text, 'Global options:'), argv.join(' ')).toEqual(['--json', '--debug', '--help']);
      expect(group(text, 'Options:')).not.toContain('--json');
      expect(group(text, 'Model options:')).toEqual(model.some((m) => m.join(' ') === argv.join(' ')) ? ['--provider', '--model'] : []);
      // The model flags are nowhere else in the help of a command that calls no model.
      if (noModel.includes(argv)) expect(text).not.toMatch(/--provider|--model/);
      // Help an installed user reads names no file of this repository.
      expect(text).not.toMatch(/examples\/|docs\//);
    }
    expect(group(await help(['debate']), 'Options:')).toEqual(['--question', '--tier', '--passed', '--out', '--track']);
    expect(group(await help([]), 'Options:')).toEqual(['--version', '--help']);
    expect(await help([])).not.toMatch(/examples\/|docs\//);
  });

  it('spells the output file --out everywhere; report keeps -o as its short form', async () => {
    const cwd = await tempDir();
    for (const argv of [['debate'], ['verify'], ['gate'], ['meet'], ['task', 'run'], ['task', 'resume'], ['report'], ['demo']]) {
      const text = (await runMain([...argv, '--help'], { cwd })).stdout;
      expect(group(text, 'Options:'), argv.join(' ')).toContain('--out');
      expect(text).not.toMatch(/--output(?![\w-])/);
    }
    expect((await runMain(['report', '--help'], { cwd })).stdout).toMatch(/^ {2}-o, --out <file>/m);
  });
});

describe('messages an installed user reads', () => {
  it('name no file of this repository (examples/, docs/): the package ships neither', async () => {
    const src = new URL('./', import.meta.url);
    const sources = (await readdir(src, { recursive: true })).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('test-support'),
    );
    expect(sources).toContain('main.ts');
    for (const file of sources) {
      const text = await readFile(new URL(file, src), 'utf8');
      // String literals only: a comment may say where a rule is written down.
      const literals = [...text.matchAll(/(['"`])(?:(?!\1)[^\\\n]|\\.)*\1/g)].map((match) => match[0]);
      expect(
        literals.filter((literal) => /\b(examples|docs)\//.test(literal)),
        file,
      ).toEqual([]);
    }
  });
});

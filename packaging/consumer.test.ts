import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createFakeAnthropicServer,
  createFakeOpenAIServer,
  type FakeAnthropicServer,
  type FakeOpenAIServer,
} from '@conclave/testing/servers';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { npmEnv, runCommand, type CommandRun } from './run-command.js';
import { dependencyClosure, readWorkspaces, repoRoot, type Manifest } from './workspaces.js';

/**
 * A user's project: every packed tarball installed with npm into a fresh folder (third-party
 * packages from npm's cache or the registry, never from this repository), then the first example
 * of the root README, of every package README and of every guide they link to is type-checked
 * there (moduleResolution nodenext and bundler) and run with node. The
 * provider examples talk over real HTTP to conclave's fake Anthropic and OpenAI servers.
 */

const packed = inject('packed');
const workRoot = inject('workRoot');
const workspaces = await readWorkspaces();
const manifest = (dir: string): Promise<Manifest> =>
  readFile(join(repoRoot, dir, 'package.json'), 'utf8').then((text) => JSON.parse(text) as Manifest);
const rootManifest = await manifest('.');
const aiSdkManifest = await manifest('packages/ai-sdk');

/** Guides whose examples are shell commands, run by global-install.test.ts and below (the report guide's input). */
const SHELL_ONLY_GUIDES = ['docs/cli.md'];

/** One example: where it comes from and its code. */
interface Example {
  readonly slug: string;
  readonly from: string;
  readonly code: string;
}

/** The first ```ts block of a markdown text. */
function firstTsBlock(markdown: string): string | undefined {
  return /^```ts\n([\s\S]*?)^```$/m.exec(markdown)?.[1];
}

/** The root README's, every package README's and every linked guide's first example, each once. */
async function collectExamples(): Promise<Example[]> {
  const sources: { slug: string; from: string }[] = [{ slug: 'root-readme', from: 'README.md' }];
  const guides = new Set<string>();
  for (const workspace of workspaces) {
    const readme = `${workspace.dir}/README.md`;
    sources.push({ slug: `readme-${workspace.dir.split('/')[1] ?? ''}`, from: readme });
    const guide = /\/blob\/main\/(docs\/[\w/-]+\.md)\)/.exec(await readFile(join(repoRoot, readme), 'utf8'))?.[1];
    if (guide === undefined) throw new Error(`${readme} links to no guide under docs/`);
    guides.add(guide);
  }
  for (const guide of [...guides].sort())
    if (!SHELL_ONLY_GUIDES.includes(guide))
      sources.push({ slug: `guide-${guide.slice('docs/'.length, -'.md'.length).replace(/\//g, '-')}`, from: guide });
  const examples: Example[] = [];
  for (const source of sources) {
    const code = firstTsBlock(await readFile(join(repoRoot, source.from), 'utf8'));
    if (code === undefined) throw new Error(`${source.from} has no \`\`\`ts example`);
    if (!examples.some((example) => example.code === code)) examples.push({ ...source, code });
  }
  return examples;
}

/** The packages a README's Install section tells the user to install. */
function installedBy(readme: string): Set<string> {
  const section = /^## Install\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const commands = section.split('\n').filter((line) => line.startsWith('npm i '));
  return new Set(
    commands.flatMap((line) =>
      (line.split('#')[0] ?? '')
        .trim()
        .split(/\s+/)
        .slice(2)
        .filter((word) => !word.startsWith('-')),
    ),
  );
}

/** The npm packages (not node: built-ins) a piece of code imports. */
function importedBy(code: string): string[] {
  const specifiers = [...code.matchAll(/from '([^']+)'/g)]
    .map((match) => match[1] ?? '')
    .filter((specifier) => !specifier.startsWith('node:') && !specifier.startsWith('.'));
  return specifiers.map((specifier) =>
    specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/'),
  );
}

/** What each example must print (one that prints nothing must still exit 0 without a stack trace). */
const PRINTS: Readonly<Record<string, RegExp>> = {
  'root-readme': /^(GO|PIVOT|NO_GO) \d+\.\d\d$/m,
  'readme-core': /^hello$/m,
  'readme-scoring': /^GO 7\.00$/m,
  'readme-council': /^(GO|PIVOT|NO_GO) cfo \d/m,
  'readme-verifier': /^(GO|PIVOT|NO_GO): (may act|do not act) \(/m,
  'readme-meeting': /^decided # /m,
  'readme-guardian': /^status: misaligned, may start: false$/m,
  'readme-taskloop': /^add-farewell: 1 gate\(s\), level balanced$/m,
  'readme-cli': /^0\.\d+\.\d+/m,
  'readme-report': /^<!doctype html> \d+ characters$/m,
  'readme-restate': /^workflow: debate; submit with function$/m,
  'readme-ai-sdk': /^hello$/m,
  'readme-anthropic': /^hello from the fake server$/m,
  'readme-openai': /^hello from the fake server$/m,
  'readme-providers': /^keys for: none; verdict (GO|PIVOT|NO_GO)$/m,
  'readme-testing': /^property holds/m,
  'guide-ai-sdk': /prime: true[\s\S]*^(GO|PIVOT|NO_GO)$/m,
  'guide-guardian': /^status: /m,
  'guide-meeting': /^outcome: /m,
  'guide-providers': /^configured: \[\][\s\S]*^NO_GO \[/m,
  'guide-providers-anthropic': /^hello from the fake server$/m,
  'guide-providers-openai': /^hello from the fake server$/m,
  'guide-taskloop': /^outcome: completed$/m,
  'guide-verifier': /: (may act|do not act) \(panel /m,
};

/** The fake servers' one script: a greeting, a structured answer, or a member's vote. */
function replyTo(body: unknown): string {
  const text = JSON.stringify(body);
  if (text.includes('Say hello') || text.includes('"Hello"')) return 'hello from the fake server';
  if (text.includes('prime')) return JSON.stringify({ prime: true, why: 'only 1 and 17 divide it' });
  const scores = Object.fromEntries(['feasibility', 'revenue', 'cx', 'ttm', 'risk'].map((axis) => [axis, 7]));
  return JSON.stringify({ statement: 'the numbers work', scores });
}

const consumer = await mkdtemp(join(workRoot, 'consumer-'));
const examples = await collectExamples();
let typeChecks: { nodenext: CommandRun; bundler: CommandRun } | undefined;
let anthropic: FakeAnthropicServer | undefined;
let openai: FakeOpenAIServer | undefined;
const timings: string[] = [];

/** npm install into `folder`, from the packed tarballs and npm's cache. */
async function npmInstall(folder: string, specs: readonly string[]): Promise<void> {
  const started = Date.now();
  await writeFile(
    join(folder, 'package.json'),
    `${JSON.stringify({ name: 'conclave-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  const install = await runCommand('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error', ...specs], {
    cwd: folder,
    env: npmEnv(),
  });
  if (install.code !== 0) throw new Error(`npm install in ${folder} failed:\n${install.stderr}`);
  timings.push(`npm install (${specs.length} specs) ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

/** Type-checks every example under one resolution mode (nodenext also compiles each next to its source, for node to run). */
const typeCheck = (config: string) =>
  runCommand(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', config], { cwd: consumer });

/** A user's environment: a fresh HOME and temp folder, no key unless the example talks to a provider. */
function exampleEnv(example: Example): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: join(consumer, 'home'),
    TMPDIR: join(consumer, 'tmp'),
    CONCLAVE_STATE_DIR: join(consumer, 'state'),
  };
  if (!/from '(@conclave\/(anthropic|openai)|@ai-sdk\/[\w-]+)'/.test(example.code) || anthropic === undefined || openai === undefined)
    return env;
  // The official Anthropic SDK appends /v1 itself; @ai-sdk/anthropic expects it in the base URL.
  const anthropicBase = example.code.includes("'@ai-sdk/anthropic'") ? `${anthropic.url}/v1` : anthropic.url;
  return {
    ...env,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: anthropicBase,
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: openai.baseURL,
  };
}

beforeAll(async () => {
  anthropic = await createFakeAnthropicServer((request) => ({
    kind: 'reply',
    text: replyTo(request.body),
    usage: { input_tokens: 12, output_tokens: 5 },
  }));
  openai = await createFakeOpenAIServer((request) => ({ kind: 'reply', content: replyTo(request.body) }));
  for (const folder of ['home', 'tmp', 'state', 'examples', 'runs']) await mkdir(join(consumer, folder));
  for (const data of ['boards', 'briefs', 'tasks'])
    await cp(join(repoRoot, 'examples', data), join(consumer, 'examples', data), { recursive: true });
  await copyFile(join(repoRoot, 'examples/sample-workspace.ts'), join(consumer, 'examples/sample-workspace.ts'));
  for (const example of examples) await writeFile(join(consumer, 'examples', `${example.slug}.ts`), example.code);

  const thirdParty = [
    `@types/node@${rootManifest.devDependencies?.['@types/node'] ?? ''}`,
    `fast-check@${rootManifest.devDependencies?.['fast-check'] ?? ''}`,
    ...['ai', '@ai-sdk/openai', '@ai-sdk/anthropic'].map((name) => `${name}@${aiSdkManifest.devDependencies?.[name] ?? ''}`),
  ];
  await npmInstall(consumer, [...packed.map((pkg) => pkg.tarball), ...thirdParty]);

  // A user's usual settings: strict, and skipLibCheck, since checking every SDK's declarations
  // would triple the time (attw already checks that ours resolve in both modes).
  const strict = {
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    verbatimModuleSyntax: true,
  };
  await writeFile(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...strict, module: 'NodeNext', moduleResolution: 'NodeNext' }, include: ['examples/*.ts'] }),
  );
  await writeFile(
    join(consumer, 'tsconfig.bundler.json'),
    JSON.stringify({
      compilerOptions: { ...strict, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true },
      include: ['examples/*.ts'],
    }),
  );
  const started = Date.now();
  const [nodenext, bundler] = await Promise.all([typeCheck('tsconfig.json'), typeCheck('tsconfig.bundler.json')]);
  typeChecks = { nodenext, bundler };
  timings.push(`tsc nodenext + bundler ${((Date.now() - started) / 1000).toFixed(1)}s`);
  // The report guide renders a saved run: the installed `conclave` writes one, as a user would.
  const debate = await runCommand(
    join(consumer, 'node_modules/.bin/conclave'),
    ['debate', 'examples/boards/product-launch.yaml', '-q', 'Tasca Pay', '--out', 'runs/demo.json'],
    { cwd: consumer, env: exampleEnv(examples[0] as Example) },
  );
  if (!existsSync(join(consumer, 'runs/demo.json')))
    throw new Error(`conclave debate --out runs/demo.json wrote nothing:\n${debate.stderr}`);
}, 240_000);

afterAll(async () => {
  console.log(`consumer.test.ts: ${timings.join(', ')}`);
  await Promise.all([anthropic?.close(), openai?.close()]);
});

describe('a project that installs every packed package', () => {
  it('installs, per package README, every package its example imports', async () => {
    const missing: string[] = [];
    for (const example of examples.filter((candidate) => candidate.slug.startsWith('readme-'))) {
      const named = installedBy(await readFile(join(repoRoot, example.from), 'utf8'));
      for (const imported of importedBy(example.code))
        if (!named.has(imported)) missing.push(`${example.from}: the example imports ${imported}, which its Install section does not name`);
    }
    expect(missing).toEqual([]);
  });

  it('finds one example in every package README and every guide they link to', () => {
    expect(examples.filter((example) => example.from.startsWith('packages/'))).toHaveLength(workspaces.length);
    expect(examples.length).toBeGreaterThan(workspaces.length + 8);
    expect(
      Object.keys(PRINTS).filter((slug) => !examples.some((example) => example.slug === slug)),
      'expected output for an example that does not exist',
    ).toEqual([]);
  });

  it('type-checks every example with moduleResolution nodenext and bundler', () => {
    expect(typeChecks?.nodenext.stdout, 'nodenext').toBe('');
    expect(typeChecks?.bundler.stdout, 'bundler').toBe('');
    expect([typeChecks?.nodenext.code, typeChecks?.bundler.code]).toEqual([0, 0]);
  });

  describe.concurrent.each(examples.map((example) => [example.from, example] as const))('%s, first example', (_from, example) => {
    it('runs with node against the installed packages', async () => {
      const compiled = join(consumer, 'examples', `${example.slug}.js`);
      expect(existsSync(compiled), 'compiled by the nodenext type-check in beforeAll').toBe(true);
      const run = await runCommand(process.execPath, [compiled], { cwd: consumer, env: exampleEnv(example) });
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.code, run.stderr).toBe(0);
      const prints = PRINTS[example.slug];
      if (prints !== undefined) expect(run.stdout).toMatch(prints);
      if (example.from === 'docs/report.md') expect(await readFile(join(consumer, 'runs/demo.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    });
  });
});

describe('a project that installs only @conclave/report (ADR 0029)', () => {
  it('gets neither the meeting nor the task loop, and renders a debate', async () => {
    const lean = await mkdtemp(join(workRoot, 'report-only-'));
    const closure = dependencyClosure(workspaces, '@conclave/report').map((workspace) => workspace.manifest.name);
    await npmInstall(
      lean,
      packed.filter((pkg) => closure.includes(pkg.name)).map((pkg) => pkg.tarball),
    );
    for (const left of ['@conclave/meeting', '@conclave/taskloop']) expect(existsSync(join(lean, 'node_modules', left)), left).toBe(false);
    // The README example, as the nodenext type-check compiled it for the full project.
    await copyFile(join(consumer, 'examples/readme-report.js'), join(lean, 'readme-report.js'));
    const run = await runCommand(process.execPath, ['readme-report.js'], { cwd: lean, env: { PATH: process.env.PATH } });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(PRINTS['readme-report'] as RegExp);
  }, 120_000);
});

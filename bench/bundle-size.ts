/**
 * Browser bundle size of the pure packages: two small apps, each importing only what it uses from
 * the built packages (dist/, as a user installs them), bundled by esbuild for the browser (ESM,
 * minified, tree-shaken) and gzipped at level 9:
 * - debate-only: `defineBoard`, `DebateEngine` and `createOfflineAdapter` from @conclave/council,
 *   running one debate (target < 60 KB gzipped);
 * - verifier-only: `verifyDecision` and `emissionGate` from @conclave/verifier;
 * - guardian-only: `createGuardian` from @conclave/guardian, judging one report with an adapter
 *   the app writes itself (it fails to bundle if the guardian ever reaches a Node built-in).
 * What each package contributes to the minified output is kept in the JSON, so a regression
 * (a whole-library import, a module with top-level side effects) shows who caused it.
 */
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { figure, type BenchResult, type Figure } from './harness.js';

const KB = 1024;
const DEBATE_TARGET_KB = 60;

/** The apps, as a user would write them. */
const APPS = {
  'debate-only': `import { createOfflineAdapter, DebateEngine, defineBoard } from '@conclave/council';
const board = defineBoard({
  id: 'pricing',
  question: 'Should we {{question}}?',
  phases: [
    { name: 'analysis', members: [{ id: 'cfo', persona: 'The CFO', model: 'offline:analyst' }, { id: 'pm', persona: 'The PM', model: 'offline:analyst' }, { id: 'cto', persona: 'The CTO', model: 'offline:analyst' }] },
    { name: 'challenge', contrarian: true, members: [{ id: 'skeptic', persona: 'Finds the flaw', model: 'offline:contrarian' }] },
  ],
});
const result = await DebateEngine.run(board, { question: 'raise prices 10%', adapters: { offline: createOfflineAdapter() } });
document.body.textContent = result.verdict;
`,
  'verifier-only': `import { emissionGate, verifyDecision } from '@conclave/verifier';
export function check(record) {
  const report = verifyDecision(record);
  return { report, gate: emissionGate(record) };
}
`,
  'guardian-only': `import { createGuardian } from '@conclave/guardian';
const adapter = { specificationVersion: 'v1', id: 'page', run: async () => ({ ok: true, text: '{"status":"aligned"}', usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, modelId: 'page' }) };
const guardian = createGuardian({ adapter, intent: { spec: 'A greeter CLI.', context: '' } });
guardian.report({ id: 'job-1', kind: 'external', summary: 'parsed the name argument' });
await guardian.idle();
document.body.textContent = guardian.status;
`,
} as const;

interface AppSize {
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
  /** Minified bytes in the output per package (node_modules package, or packages/<name>). */
  readonly byPackage: Readonly<Record<string, number>>;
}

/** The package a bundled file belongs to: `zod`, `@scope/name`, or `packages/<name>` for ours. */
function packageOf(file: string): string {
  const inModules = file.split('node_modules/').at(-1) ?? file;
  if (inModules !== file)
    return inModules
      .split('/')
      .slice(0, inModules.startsWith('@') ? 2 : 1)
      .join('/');
  const ours = /packages\/([^/]+)\//.exec(file);
  return ours === null ? '(the app)' : `@conclave/${ours[1] ?? ''}`;
}

async function bundle(source: string): Promise<AppSize> {
  const result = await build({
    stdin: { contents: source, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js', sourcefile: 'app.js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    treeShaking: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  const byPackage: Record<string, number> = {};
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [file, input] of Object.entries(output.inputs))
      byPackage[packageOf(file)] = (byPackage[packageOf(file)] ?? 0) + input.bytesInOutput;
  }
  const sorted = Object.fromEntries(
    Object.entries(byPackage)
      .filter(([, bytes]) => bytes > 0)
      .sort((a, b) => b[1] - a[1]),
  );
  return { minifiedBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, byPackage: sorted };
}

export async function bundleSize(): Promise<BenchResult> {
  // The apps import the built packages, as an installed user would: without dist/ there is nothing to measure.
  for (const name of ['council', 'verifier', 'guardian']) {
    const entry = fileURLToPath(new URL(`../packages/${name}/dist/index.js`, import.meta.url));
    await access(entry).catch(() => {
      throw new Error(`${entry} is missing: run npm run build first (npm run bench does)`);
    });
  }
  const debate = await bundle(APPS['debate-only']);
  const verifier = await bundle(APPS['verifier-only']);
  const guardian = await bundle(APPS['guardian-only']);
  const share = (size: AppSize, pkg: string) => (100 * (size.byPackage[pkg] ?? 0)) / size.minifiedBytes;
  const figures: Figure[] = [
    figure('debate-only app, gzipped', debate.gzipBytes / KB, 'KB', { op: '<', value: DEBATE_TARGET_KB }),
    figure('debate-only app, minified', debate.minifiedBytes / KB, 'KB'),
    figure('zod share of the debate-only app (minified)', share(debate, 'zod'), '%'),
    figure('verifier-only app, gzipped', verifier.gzipBytes / KB, 'KB'),
    figure('verifier-only app, minified', verifier.minifiedBytes / KB, 'KB'),
    figure('guardian-only app, gzipped', guardian.gzipBytes / KB, 'KB'),
  ];
  return {
    name: 'bundle-size',
    figures,
    details: {
      bundler: 'esbuild, platform browser, ESM, es2022, minify, tree shaking; gzip level 9',
      apps: { 'debate-only': debate, 'verifier-only': verifier, 'guardian-only': guardian },
    },
  };
}

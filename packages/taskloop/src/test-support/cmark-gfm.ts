import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The part of the `cmark-gfm` bindings the differential test uses. */
export interface CmarkGfm {
  renderHtmlSync(markdown: string, options: object): string;
}

const require = createRequire(import.meta.url);

/**
 * GitHub's markdown parser, the cmark-gfm C library through its Node bindings, built here on
 * first use. The root package.json denies the bindings' install script (`allowScripts`): it first
 * tries to download a prebuilt binary from GitHub and then has node-gyp download Node's headers,
 * and either download fails `npm ci` on a machine without that network. Here node-gyp compiles the
 * vendored C sources against the headers of the Node that runs the tests when they sit beside it
 * (`<prefix>/include/node`, as Node's own installers put them), and only otherwise downloads them.
 * The build lands in the package's own `build/` folder, so later runs load it at once.
 */
export function loadCmarkGfm(): CmarkGfm {
  try {
    return require('cmark-gfm') as CmarkGfm;
  } catch {
    build();
    return require('cmark-gfm') as CmarkGfm;
  }
}

function build(): void {
  const packageDir = dirname(require.resolve('cmark-gfm/package.json'));
  const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');
  const prefix = dirname(dirname(process.execPath));
  const headers = existsSync(join(prefix, 'include', 'node', 'common.gypi')) ? [`--nodedir=${prefix}`] : [];
  const run = spawnSync(process.execPath, [nodeGyp, 'rebuild', ...headers], { cwd: packageDir, encoding: 'utf8', timeout: 600_000 });
  if (run.status !== 0) {
    const said = `${run.stderr}\n${run.stdout}`
      .trim()
      .split('\n')
      .filter((line) => line.trim() !== '');
    throw new Error(
      `cmark-gfm (GitHub's markdown parser, a devDependency) could not be built: install python3, make and a C/C++ compiler, then run the tests again (node-gyp: ${said.at(-1) ?? run.error?.message ?? 'no output'})`,
    );
  }
}

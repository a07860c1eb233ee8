import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_DIR } from './commands/demo.js';
import { examples } from './test-support/run-main.js';

const packageDir = fileURLToPath(new URL('../', import.meta.url));

/** Every file under a folder, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe("the demo's files shipped in @conclave/cli", () => {
  it("are byte for byte the repository's examples/ (examples/ is the source: copy it over the shipped file)", async () => {
    const shipped = await filesUnder(DEMO_DIR);
    expect(shipped).toEqual([
      'boards/product-launch.yaml',
      'briefs/data-platform.yaml',
      'tasks/add-farewell.md',
      'tasks/offline-agent.js',
      'tasks/sample-project/package.json',
      'tasks/sample-project/src/greet.js',
      'tasks/sample-project/test/greet.test.js',
    ]);
    // The sample project is copied whole, so a file added to it in examples/ must ship too.
    expect(shipped.filter((file) => file.startsWith('tasks/sample-project/'))).toEqual(
      (await filesUnder(join(examples, 'tasks/sample-project'))).map((file) => `tasks/sample-project/${file}`),
    );
    for (const file of shipped) {
      const [copy, source] = await Promise.all([readFile(join(DEMO_DIR, file), 'utf8'), readFile(join(examples, file), 'utf8')]);
      expect(copy, `packages/cli/demo/${file} differs from examples/${file}: run cp examples/${file} packages/cli/demo/${file}`).toBe(
        source,
      );
    }
  });

  it('are in the package\'s "files", so npm pack ships them', async () => {
    const { files } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { files: string[] };
    expect(files).toContain('demo');
    expect(relative(packageDir, DEMO_DIR)).toBe('demo');
  });
});

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, runTs } from '../run-example.js';

// Every recipe page shows code from its example: each ```ts block must be a verbatim excerpt, so
// the docs cannot drift from the code the test suite runs.
const pages = join(root, 'docs/recipes');
const recipes = (await readdir(join(root, 'examples/integrations'))).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => f.replace(/\.ts$/, ''));

describe('docs/recipes', () => {
  it('has a page for every recipe, each linked from the index and from the README', async () => {
    const index = await readFile(join(pages, 'README.md'), 'utf8');
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    expect(recipes.length).toBeGreaterThanOrEqual(4);
    for (const recipe of recipes) {
      expect(index).toContain(`](${recipe}.md)`);
      expect(readme).toContain(`docs/recipes/${recipe}.md`);
    }
  });

  it.each(recipes)('%s.md quotes its example verbatim', async (recipe) => {
    const page = await readFile(join(pages, `${recipe}.md`), 'utf8');
    const source = await readFile(join(root, 'examples/integrations', `${recipe}.ts`), 'utf8');
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(source).toContain(block);
  });

  it.each(recipes)('%s.md shows what the script really prints', async (recipe) => {
    const page = await readFile(join(pages, `${recipe}.md`), 'utf8');
    const shown = /```\n\$ (node [^\n]+)\n([\s\S]*?)```/.exec(page);
    expect(shown).not.toBeNull();
    const [, command, output] = shown as unknown as [string, string, string];
    const args = command.split(' ').slice(4);
    const run = await runTs(args[0] as string, args.slice(1));
    expect(run.stdout).toBe(output);
  });
});

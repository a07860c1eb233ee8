import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRelatedSpecs } from './related-specs.js';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function folder(files: Readonly<Record<string, string>> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'conclave-related-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const specText = (id: string, title: string, acceptance: readonly string[]) =>
  `---\nid: ${id}\ntitle: ${title}\nacceptance: [${acceptance.join(', ')}]\n---\nBody text that is not part of the excerpt.\n`;

describe('loadRelatedSpecs', () => {
  it('reads <id>.md beside the spec: a spec becomes its title and criteria, any other text its start, each capped', async () => {
    const workspace = await folder({
      'tasks/parent.md': specText('parent', 'Ship the greeter', ['it greets', 'it says goodbye']),
      'tasks/next-a.md': 'Plain notes about what comes next.\n',
      'tasks/next-b.md': 'x'.repeat(5_000),
    });
    const related = await loadRelatedSpecs(
      { file: join(workspace, 'tasks/child.md'), relationships: { parent: 'parent', next: ['next-a', 'next-b'] } },
      workspace,
      100,
    );
    expect(related).toEqual({
      parent: { spec: 'parent', excerpt: 'Ship the greeter\n- it greets\n- it says goodbye' },
      next: [
        { spec: 'next-a', excerpt: 'Plain notes about what comes next.\n' },
        { spec: 'next-b', excerpt: `${'x'.repeat(99)}…` },
      ],
      unavailable: [],
    });
  });

  it('never waits on a FIFO in place of a related spec: it is not a regular file', async () => {
    const workspace = await folder({ 'tasks/parent.md': specText('parent', 'Ship it', ['done']) });
    execFileSync('mkfifo', [join(workspace, 'tasks/next.md')]);
    const related = await loadRelatedSpecs(
      { file: join(workspace, 'tasks/child.md'), relationships: { parent: 'parent', next: ['next'] } },
      workspace,
      100,
    );
    expect(related.parent?.spec).toBe('parent');
    expect(related.next).toEqual([]);
    expect(related.unavailable).toEqual([expect.objectContaining({ spec: 'next', reason: 'tasks/next.md is not a regular file' })]);
  });

  it('a relative spec path is taken from the working directory, as loadSpec reads it', async () => {
    const workspace = await folder({ 'tasks/parent.md': specText('parent', 'Ship it', ['done']) });
    const related = await loadRelatedSpecs(
      { file: relative(process.cwd(), join(workspace, 'tasks/child.md')), relationships: { parent: 'parent', next: [] } },
      workspace,
    );
    expect(related.parent).toEqual({ spec: 'parent', excerpt: 'Ship it\n- done' });
  });

  it('records a missing file, a spec outside the workspace, a symbolic link leaving it and a spec without a file; never throws', async () => {
    const outside = await folder({ 'secret.md': 'OUTSIDE\n', 'tasks/parent.md': specText('parent', 'Elsewhere', ['x']) });
    const workspace = await folder({ 'tasks/placeholder.txt': '' });
    await symlink(join(outside, 'secret.md'), join(workspace, 'tasks/linked.md'));
    const inWorkspace = await loadRelatedSpecs(
      { file: join(workspace, 'tasks/child.md'), relationships: { next: ['gone', 'linked'] } },
      workspace,
    );
    expect(inWorkspace.next).toEqual([]);
    expect(inWorkspace.unavailable).toEqual([
      { spec: 'gone', reason: 'missing: tasks/gone.md' },
      { spec: 'linked', reason: expect.stringMatching(/outside the workspace/) as string },
    ]);
    // The spec itself lives outside the workspace: its neighbours are never read, whatever they hold.
    const specOutside = await loadRelatedSpecs(
      { file: join(outside, 'tasks/child.md'), relationships: { parent: 'parent', next: [] } },
      workspace,
    );
    expect(specOutside).toEqual({
      next: [],
      unavailable: [{ spec: 'parent', reason: expect.stringMatching(/is outside the workspace$/) as string }],
    });
    const noFile = await loadRelatedSpecs({ relationships: { parent: 'parent', next: [] } }, workspace);
    expect(noFile.unavailable).toEqual([{ spec: 'parent', reason: expect.stringMatching(/not loaded from a file/) as string }]);
  });
});

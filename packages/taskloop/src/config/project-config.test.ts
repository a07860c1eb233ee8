import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatSpecIssue } from '../spec/spec-issue.js';
import { loadProjectConfig, PROJECT_CONFIG_FILE } from './project-config.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'taskloop-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadProjectConfig', () => {
  it('reads the command policy', async () => {
    await writeFile(join(dir, PROJECT_CONFIG_FILE), 'commands:\n  allow: ["npm test"]\n  deny: ["npm publish"]\n');
    expect(await loadProjectConfig(dir)).toEqual({
      ok: true,
      config: { commands: { allow: ['npm test'], deny: ['npm publish'] } },
      file: join(dir, PROJECT_CONFIG_FILE),
    });
  });

  it('an absent file is an empty config (shell gates stay refused)', async () => {
    expect(await loadProjectConfig(dir)).toEqual({ ok: true, config: {} });
  });

  it('reports a misspelt key and a wrong type with line, column and fix', async () => {
    await writeFile(join(dir, PROJECT_CONFIG_FILE), 'commands:\n  alow: ["npm test"]\n  allowUnlisted: yes please\n');
    const result = await loadProjectConfig(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const printed = result.issues.map(formatSpecIssue);
    expect(printed[0]).toMatch(/conclave\.config\.yaml:2:3 commands\.alow: unknown key "alow"\n {4}fix: remove "alow"/);
    expect(printed[1]).toMatch(
      /conclave\.config\.yaml:3:3 commands\.allowUnlisted: allowUnlisted must be true or false\n {4}fix: give a value of type boolean/,
    );
  });

  it('reports YAML syntax errors with their position', async () => {
    await writeFile(join(dir, PROJECT_CONFIG_FILE), 'commands:\n  allow: ["npm test"\n');
    const result = await loadProjectConfig(dir);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]?.code).toBe('syntax');
  });
});

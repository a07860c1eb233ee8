import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunKey, readRunKey, runKeyPath, stateRoot } from './run-key.js';

const made: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the run key', () => {
  it('state folder: the option, then CONCLAVE_STATE_DIR, XDG_STATE_HOME/conclave, ~/.local/state/conclave', () => {
    expect(stateRoot({ CONCLAVE_STATE_DIR: '/s' }, '/o')).toBe('/o');
    expect(stateRoot({ CONCLAVE_STATE_DIR: '/s', XDG_STATE_HOME: '/x' })).toBe('/s');
    expect(stateRoot({ XDG_STATE_HOME: '/x', HOME: '/h' })).toBe('/x/conclave');
    expect(stateRoot({ HOME: '/h' })).toBe('/h/.local/state/conclave');
  });

  it('is created 0600 in a 0700 folder outside the workspace, read back equal, and reported missing once gone', () => {
    const workspace = temp('conclave-key-ws-');
    const state = temp('conclave-key-state-');
    const created = createRunKey(workspace, 'run-1', {}, state);
    if ('ok' in created) throw new Error(created.message);
    expect(created.path).toBe(runKeyPath(workspace, 'run-1', {}, state));
    expect(statSync(created.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(created.path)).mode & 0o777).toBe(0o700);
    const read = readRunKey(workspace, 'run-1', {}, state);
    expect('key' in read && read.key.equals(created.key)).toBe(true);
    writeFileSync(created.path, 'not a key\n');
    expect(readRunKey(workspace, 'run-1', {}, state)).toMatchObject({ ok: false, kind: 'key_invalid' });
    rmSync(created.path);
    const missing = readRunKey(workspace, 'run-1', {}, state);
    expect(missing).toMatchObject({ ok: false, kind: 'key_missing', fix: expect.any(String) as string });
    // The message names where the key was, never a key.
    expect(JSON.stringify(missing)).not.toContain(created.key.toString('hex'));
  });

  it('refuses a state folder inside the workspace, and a run id cannot climb out of its folder', () => {
    const workspace = temp('conclave-key-ws-');
    expect(createRunKey(workspace, 'run-1', {}, join(workspace, 'state'))).toMatchObject({ ok: false, kind: 'inside_workspace' });
    expect(readRunKey(workspace, 'run-1', { CONCLAVE_STATE_DIR: join(workspace, '.cache') })).toMatchObject({
      ok: false,
      kind: 'inside_workspace',
    });
    const state = temp('conclave-key-state-');
    expect(dirname(runKeyPath(workspace, '../../etc/passwd', {}, state)).startsWith(state)).toBe(true);
    const created = createRunKey(workspace, '../x', {}, state);
    expect('key' in created && created.path.startsWith(state)).toBe(true);
    expect(readFileSync((created as { path: string }).path, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });
});

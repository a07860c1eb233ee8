import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../ledger/sha256.js';
import { checkSpec, snapshotSpec } from './spec-snapshot.js';

const SPEC = '---\nid: x\ntitle: X\nacceptance: [a]\n---\nbody\n';

describe('spec snapshot', () => {
  let workspace: string;
  beforeEach(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'taskloop-snapshot-'));
  });
  afterEach(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  it('writes spec.md and spec.sha256, and checkSpec agrees', async () => {
    const snap = await snapshotSpec(workspace, SPEC);
    expect(snap).toEqual({ ok: true, sha256: sha256(SPEC) });
    expect(await readFile(join(workspace, '.conclave', 'spec.md'), 'utf8')).toBe(SPEC);
    expect(await readFile(join(workspace, '.conclave', 'spec.sha256'), 'utf8')).toBe(`${sha256(SPEC)}  spec.md\n`);
    expect(await checkSpec(workspace)).toEqual({ ok: true, sha256: sha256(SPEC) });
    expect((await readdir(join(workspace, '.conclave'))).sort()).toEqual(['spec.md', 'spec.sha256']);
  });

  it('detects a one-byte edit', async () => {
    await snapshotSpec(workspace, SPEC);
    const edited = SPEC.replace('body', 'bodY');
    await writeFile(join(workspace, '.conclave', 'spec.md'), edited);
    expect(await checkSpec(workspace)).toMatchObject({ ok: false, kind: 'spec_modified', expected: sha256(SPEC), actual: sha256(edited) });
  });

  it('is idempotent for the same spec and refuses a different one', async () => {
    await snapshotSpec(workspace, SPEC);
    expect(await snapshotSpec(workspace, SPEC)).toEqual({ ok: true, sha256: sha256(SPEC) });
    expect(await snapshotSpec(workspace, `${SPEC}more\n`)).toMatchObject({ ok: false, kind: 'spec_exists' });
    expect(await readFile(join(workspace, '.conclave', 'spec.md'), 'utf8')).toBe(SPEC);
  });

  it('reports a missing snapshot', async () => {
    expect(await checkSpec(workspace)).toMatchObject({ ok: false, kind: 'spec_missing' });
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initLedger, openLedger } from './plan-ledger.js';
import { sha256 } from './sha256.js';

const PLAN = '# Plan\n\n- [ ] One {#one}\n- [ ] Two {#two}\n';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function signedLedger(key: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'conclave-ledger-signed-'));
  dirs.push(dir);
  const init = await initLedger(dir, PLAN, { durable: false, key });
  if (!init.ok) throw new Error(init.kind);
  const flipped = await init.ledger.flip('one');
  expect(flipped.ok).toBe(true);
  return dir;
}

describe('a signed plan ledger (ADR 0025)', () => {
  it('reopens with its key; every record it writes carries a mac', async () => {
    const key = randomBytes(32);
    const dir = await signedLedger(key);
    expect(JSON.parse(readFileSync(join(dir, '.conclave/ledger.json'), 'utf8'))).toMatchObject({
      mac: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
    });
    const opened = await openLedger(dir, { key });
    expect(opened.ok && opened.ledger.plan.items.map((item) => item.checked)).toEqual([true, false]);
  });

  it('plan.md and ledger.json forged to match: ledger_unauthenticated with a fix, never opened', async () => {
    const key = randomBytes(32);
    const dir = await signedLedger(key);
    const text = readFileSync(join(dir, '.conclave/plan.md'), 'utf8').replace('- [ ] Two', '- [x] Two');
    writeFileSync(join(dir, '.conclave/plan.md'), text);
    writeFileSync(join(dir, `.conclave/ledger-base-${sha256(text)}.md`), text);
    writeFileSync(
      join(dir, '.conclave/ledger.json'),
      `${JSON.stringify({ version: 2, current: { sha256: sha256(text), base: sha256(text), ticks: [] } })}\n`,
    );
    expect(await openLedger(dir, { key })).toMatchObject({
      ok: false,
      kind: 'ledger_unauthenticated',
      fix: expect.stringContaining('git checkout') as unknown,
    });
    // Another run's key is no better than none.
    expect(await openLedger(dir, { key: randomBytes(32) })).toMatchObject({ ok: false, kind: 'ledger_unauthenticated' });
  });

  it('a base plan rewritten under a signed record (and plan.md to match): ledger_corrupt, never opened', async () => {
    const key = randomBytes(32);
    const dir = await signedLedger(key);
    const conclave = join(dir, '.conclave');
    const base = readdirSync(conclave).find((name) => name.startsWith('ledger-base-')) as string;
    // The builder unticks nothing and ticks "Two" in the base: the record's own tick of "One" then lands as before.
    const forgedBase = readFileSync(join(conclave, base), 'utf8').replace('- [ ] Two', '- [x] Two');
    writeFileSync(join(conclave, base), forgedBase);
    writeFileSync(join(conclave, 'plan.md'), forgedBase.replace('- [ ] One', '- [x] One'));
    const opened = await openLedger(dir, { key });
    expect(opened).toMatchObject({ ok: false, kind: 'ledger_corrupt' });
    expect(!opened.ok && 'message' in opened && opened.message).toContain('base plan');
  });
});

import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paint, wantsColour } from './colour.js';
import type { CliIo } from './io.js';
import { main } from './main.js';
import { examples, offlineEnv, removeTempDirs, tempDir } from './test-support/run-main.js';

const green = (text: string) => `\x1b[32m${text}\x1b[39m`;
const yellow = (text: string) => `\x1b[33m${text}\x1b[39m`;
const red = (text: string) => `\x1b[31m${text}\x1b[39m`;
const ESC = '\x1b[';

/** `main` with stdout as a terminal or not; stderr is never a terminal here, so progress has no escapes. */
async function runOn(
  argv: string[],
  stdoutIsTTY: boolean,
  env: Record<string, string | undefined> = offlineEnv(),
): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const cwd = await tempDir();
  const io: CliIo = { stdout: (text) => void (stdout += text), stderr: () => undefined, env, cwd, isTTY: false, stdoutIsTTY };
  return { code: await main(argv, io), stdout };
}

const debate = ['debate', join(examples, 'boards/product-launch.yaml'), '-q', 'Tasca Pay'];

afterAll(removeTempDirs);

describe('paint', () => {
  it('colours verdicts: GO green, PIVOT yellow, NO_GO red, as whole words only', () => {
    expect(paint('Verdict: GO')).toBe(`Verdict: ${green('GO')}`);
    expect(paint('Consensus: PIVOT at 6.10')).toBe(`Consensus: ${yellow('PIVOT')} at 6.10`);
    expect(paint('verdict NO_GO')).toBe(`verdict ${red('NO_GO')}`);
    expect(paint('GOAL, GOING, NO_GOOD, ago, go, PIVOTAL')).toBe('GOAL, GOING, NO_GOOD, ago, go, PIVOTAL');
  });

  it('colours the answers a person acts on, a phrase as a whole', () => {
    expect(paint('Emission gate (T2): GO and APPROVED: the decision may be acted on')).toBe(
      `Emission gate (T2): ${green('GO')} and ${green('APPROVED')}: the decision ${green('may be acted on')}`,
    );
    expect(paint('the verdict is PIVOT: not a GO: do not act')).toBe(`the verdict is ${yellow('PIVOT')}: ${red('not a GO: do not act')}`);
    expect(paint('BLOCKED (verdict NO_GO): do not act on this decision')).toBe(
      `${red('BLOCKED')} (verdict ${red('NO_GO')}): ${red('do not act')} on this decision`,
    );
    expect(paint('ESCALATED: a person must decide; do not act')).toBe(`${yellow('ESCALATED')}: a person must decide; ${red('do not act')}`);
  });

  it("colours the verifier's and the panel's statuses, and never half of NOT APPROVED", () => {
    expect(paint('Verifier: NOT APPROVED')).toBe(`Verifier: ${red('NOT APPROVED')}`);
    expect(paint('Panel: VETOED with 2 approvals; REJECTED')).toBe(`Panel: ${red('VETOED')} with 2 approvals; ${red('REJECTED')}`);
  });

  it('leaves text without a token as it is', () => {
    expect(paint('outcome: completed\nreport: /tmp/r.html')).toBe('outcome: completed\nreport: /tmp/r.html');
  });
});

describe('wantsColour', () => {
  const io = (stdoutIsTTY: boolean | undefined, env: Record<string, string | undefined> = {}): CliIo => ({
    stdout: () => undefined,
    stderr: () => undefined,
    env,
    cwd: '/',
    isTTY: true,
    ...(stdoutIsTTY === undefined ? {} : { stdoutIsTTY }),
  });

  it('is on for a terminal, and off for a pipe, an unknown stdout, --json, a non-empty NO_COLOR and TERM=dumb', () => {
    expect(wantsColour(io(true), false)).toBe(true);
    expect(wantsColour(io(true, { NO_COLOR: '' }), false)).toBe(true); // no-color.org: only a non-empty value counts
    expect(wantsColour(io(false), false)).toBe(false);
    expect(wantsColour(io(undefined), false)).toBe(false);
    expect(wantsColour(io(true), true)).toBe(false);
    expect(wantsColour(io(true, { NO_COLOR: '1' }), false)).toBe(false);
    expect(wantsColour(io(true, { NO_COLOR: 'false' }), false)).toBe(false);
    expect(wantsColour(io(true, { TERM: 'dumb' }), false)).toBe(false);
  });
});

describe('colour through main', () => {
  it("paints the debate's verdict and answer when stdout is a terminal", async () => {
    const { code, stdout } = await runOn(debate, true);
    expect(code).toBe(1);
    expect(stdout).toContain(`Consensus: ${yellow('PIVOT')} at`);
    expect(stdout).toContain(`the verdict is ${yellow('PIVOT')}: ${red('not a GO: do not act')}`);
  }, 60_000);

  it('writes no escape code when stdout is not a terminal, with NO_COLOR, or with --json', async () => {
    const plain = await runOn(debate, false);
    expect(plain.stdout).toContain('not a GO: do not act');
    expect(plain.stdout).not.toContain(ESC);
    const noColor = await runOn(debate, true, offlineEnv({ NO_COLOR: '1' }));
    expect(noColor.stdout).toBe(plain.stdout);
    const json = await runOn([...debate, '--json'], true);
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'PIVOT' });
    expect(json.stdout).not.toContain(ESC);
  }, 60_000);
});

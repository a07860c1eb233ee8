import { describe, expect, it } from 'vitest';
import { recordSteps, replaySteps, runStepDirectly } from './step-runner.js';

describe('step runner', () => {
  it('runs the effect directly by default', async () => {
    let calls = 0;
    const result = await runStepDirectly('a', () => Promise.resolve(++calls));
    expect(result).toBe(1);
    expect(calls).toBe(1);
  });

  it('records results as JSON and replays them without running any effect', async () => {
    const recorder = recordSteps();
    await recorder.runStep('phase-1/member-a', () => Promise.resolve({ ok: true, text: 'GO' }));
    await recorder.runStep('phase-1/member-b', () => Promise.resolve({ ok: false, kind: 'timeout' }));
    expect(recorder.journal.map((entry) => entry.name)).toEqual(['phase-1/member-a', 'phase-1/member-b']);

    const replay = replaySteps(recorder.journal);
    let ran = false;
    const effect = () => {
      ran = true;
      return Promise.resolve({ ok: true, text: 'live' });
    };
    expect(await replay('phase-1/member-b', effect)).toEqual({ ok: false, kind: 'timeout' });
    expect(await replay('phase-1/member-a', effect)).toEqual({ ok: true, text: 'GO' });
    expect(ran).toBe(false);
  });

  it('refuses a name used twice and a step missing from the journal', async () => {
    const recorder = recordSteps();
    await recorder.runStep('x', () => Promise.resolve(1));
    await expect(recorder.runStep('x', () => Promise.resolve(2))).rejects.toThrow('used twice');
    await expect(replaySteps(recorder.journal)('y', () => Promise.resolve(3))).rejects.toThrow('"y" is not in the journal');
  });
});

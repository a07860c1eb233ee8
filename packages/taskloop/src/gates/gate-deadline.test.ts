import { describe, expect, it } from 'vitest';
import { GateDeadline } from './gate-deadline.js';

describe('GateDeadline', () => {
  it('gives the work its value in time', async () => {
    const deadline = new GateDeadline(1000);
    expect(await deadline.race(Promise.resolve(42))).toEqual({ done: true, value: 42 });
    expect(deadline.passed).toBeUndefined();
    deadline.dispose();
  });

  it('stops waiting at the timeout, runs its hooks, and hands a late value over for release', async () => {
    const deadline = new GateDeadline(20);
    let hooked = 0;
    deadline.onPassed(() => (hooked += 1));
    let finish: (value: string) => void = () => undefined;
    const late: string[] = [];
    const work = new Promise<string>((resolve) => (finish = resolve));
    expect(await deadline.race(work, (value) => late.push(value))).toEqual({ done: false, why: 'timeout' });
    expect([deadline.passed, hooked]).toEqual(['timeout', 1]);
    finish('handle');
    await work;
    await Promise.resolve();
    expect(late).toEqual(['handle']);
    // Once passed, nothing is waited for.
    expect(await deadline.race(new Promise<never>(() => undefined))).toEqual({ done: false, why: 'timeout' });
  });

  it('passes as aborted with the signal, at once when already aborted', async () => {
    const controller = new AbortController();
    const deadline = new GateDeadline(60_000, controller.signal);
    setTimeout(() => controller.abort(), 10);
    expect(await deadline.race(new Promise<never>(() => undefined))).toEqual({ done: false, why: 'aborted' });
    expect(new GateDeadline(60_000, controller.signal).passed).toBe('aborted');
  });

  it('passes a rejection of work in time on to the caller', async () => {
    const deadline = new GateDeadline(1000);
    await expect(deadline.race(Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    deadline.dispose();
  });
});

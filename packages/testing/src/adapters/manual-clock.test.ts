import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualClock } from './manual-clock.js';

describe('manualClock', () => {
  it('starts where it is told and moves only when advanced', () => {
    const clock = manualClock(100);
    expect(clock.now()).toBe(100);
    clock.advance(25);
    expect(clock.now()).toBe(125);
  });

  it('fires due timers in due order, ties in the order they were set, each at its due time', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 50 }), { maxLength: 20 }), fc.nat({ max: 60 }), (delays, step) => {
        const clock = manualClock();
        const fired: { i: number; at: number }[] = [];
        delays.forEach((delay, i) => clock.setTimeout(() => fired.push({ i, at: clock.now() }), delay));
        clock.advance(step);
        const expected = delays
          .map((delay, i) => ({ i, at: delay }))
          .filter(({ at }) => at <= step)
          .sort((a, b) => a.at - b.at || a.i - b.i);
        expect(fired).toEqual(expected);
        expect(clock.pendingTimers).toBe(delays.length - expected.length);
        expect(clock.now()).toBe(step);
      }),
    );
  });

  it('never fires a cleared timer', () => {
    const clock = manualClock();
    const fired: string[] = [];
    const a = clock.setTimeout(() => fired.push('a'), 5);
    clock.setTimeout(() => fired.push('b'), 5);
    clock.clearTimeout(a);
    clock.advance(10);
    expect(fired).toEqual(['b']);
  });

  it('fires timers set by a callback when they fall due within the same advance', () => {
    const clock = manualClock();
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 3);
    }, 2);
    clock.advance(4);
    expect(fired).toEqual([2]);
    clock.advance(1);
    expect(fired).toEqual([2, 5]);
  });

  it('treats negative and NaN delays as zero and never fires an infinite one', () => {
    const clock = manualClock();
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('negative'), -5);
    clock.setTimeout(() => fired.push('nan'), Number.NaN);
    clock.setTimeout(() => fired.push('infinite'), Infinity);
    clock.advance(0);
    expect(fired).toEqual(['negative', 'nan']);
    clock.advance(1e12);
    expect(fired).toEqual(['negative', 'nan']);
  });

  it('advanceAsync lets promise callbacks run between timers', async () => {
    const clock = manualClock();
    const log: string[] = [];
    const wait = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
    void wait(5).then(() => {
      log.push(`first at ${clock.now()}`);
      return wait(5).then(() => log.push(`second at ${clock.now()}`));
    });
    clock.setTimeout(() => log.push(`plain at ${clock.now()}`), 7);
    await clock.advanceAsync(20);
    expect(log).toEqual(['first at 5', 'plain at 7', 'second at 10']);
  });

  it('with a synchronous advance, a chained timer set after the advance is not fired yet', async () => {
    const clock = manualClock();
    const log: number[] = [];
    void new Promise<void>((resolve) => clock.setTimeout(resolve, 5)).then(() => {
      clock.setTimeout(() => log.push(clock.now()), 1);
    });
    clock.advance(20);
    await Promise.resolve();
    expect(log).toEqual([]);
    expect(clock.pendingTimers).toBe(1);
  });

  it('refuses to go backwards or to an infinite time', () => {
    const clock = manualClock();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Infinity)).toThrow(RangeError);
    expect(() => manualClock(Number.NaN)).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.js';

describe('systemClock', () => {
  it('never goes backwards', () => {
    let previous = systemClock.now();
    for (let i = 0; i < 1_000; i++) {
      const now = systemClock.now();
      expect(now).toBeGreaterThanOrEqual(previous);
      previous = now;
    }
  });

  it('fires a timer and lets one be cleared', async () => {
    const fired: string[] = [];
    systemClock.setTimeout(() => fired.push('kept'), 1);
    const cleared = systemClock.setTimeout(() => fired.push('cleared'), 1);
    systemClock.clearTimeout(cleared);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fired).toEqual(['kept']);
  });

  it('does not fire a delay beyond the 32-bit timer range early', async () => {
    // Runtimes fire such delays after 1 ms; a deadline of weeks must not become "at once".
    let fired = false;
    const handle = systemClock.setTimeout(() => (fired = true), 2 ** 31 + 1_000);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fired).toBe(false);
    systemClock.clearTimeout(handle);
  });

  it('clears a long timer', async () => {
    let fired = false;
    const handle = systemClock.setTimeout(() => (fired = true), 2 ** 32);
    systemClock.clearTimeout(handle);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fired).toBe(false);
  });
});

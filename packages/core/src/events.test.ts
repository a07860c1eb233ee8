import { describe, expect, it } from 'vitest';
import { createEventSink, type EventBase } from './events.js';

type TestEvent = EventBase<'start' | 'step' | 'end'> & { readonly n?: number };

describe('createEventSink', () => {
  it('records every event in the order emitted and hands each to the listener', () => {
    const heard: TestEvent[] = [];
    const sink = createEventSink<TestEvent>((event) => heard.push(event));
    const emitted: TestEvent[] = [
      { type: 'start', at: 0 },
      { type: 'step', at: 5, n: 1 },
      { type: 'step', at: 5, n: 2 },
      { type: 'end', at: 9 },
    ];
    for (const event of emitted) sink.emit(event);
    expect(sink.events).toEqual(emitted);
    expect(heard).toEqual(emitted);
    expect(sink.listenerErrors).toEqual([]);
  });

  it('records events without a listener', () => {
    const sink = createEventSink<TestEvent>();
    sink.emit({ type: 'start', at: 1 });
    expect(sink.events).toEqual([{ type: 'start', at: 1 }]);
  });

  it('collects errors from a throwing listener and keeps delivering later events', () => {
    const heard: string[] = [];
    const sink = createEventSink<TestEvent>((event) => {
      heard.push(event.type);
      if (event.type === 'step') throw new Error(`listener broke on ${event.n}`);
    });
    sink.emit({ type: 'start', at: 0 });
    sink.emit({ type: 'step', at: 1, n: 1 });
    sink.emit({ type: 'step', at: 2, n: 2 });
    sink.emit({ type: 'end', at: 3 });
    expect(heard).toEqual(['start', 'step', 'step', 'end']);
    expect(sink.events.map((event) => event.type)).toEqual(['start', 'step', 'step', 'end']);
    expect(sink.listenerErrors).toEqual(['step: listener broke on 1', 'step: listener broke on 2']);
  });

  it('survives a listener that throws something that is not an Error', () => {
    const sink = createEventSink<TestEvent>(() => {
      // Listeners are caller code and may throw anything.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw 'plain string';
    });
    sink.emit({ type: 'end', at: 0 });
    expect(sink.listenerErrors).toEqual(['end: plain string']);
  });

  it('collects the rejection of an async listener instead of leaving it unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // An async function is a valid listener (its promise is ignored): its rejection must not crash the process.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a caller without this lint rule writes exactly this
      const sink = createEventSink<TestEvent>(async (event) => {
        await Promise.resolve();
        if (event.type === 'step') throw new Error(`async listener broke on ${event.n}`);
      });
      sink.emit({ type: 'start', at: 0 });
      sink.emit({ type: 'step', at: 1, n: 1 });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
      expect(sink.listenerErrors).toEqual(['step: async listener broke on 1']);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reads a returned thenable at most once and survives one whose then throws', () => {
    let reads = 0;
    const sink = createEventSink<TestEvent>(
      () =>
        ({
          get then() {
            reads += 1;
            throw new Error('then getter');
          },
        }) as unknown as void,
    );
    sink.emit({ type: 'end', at: 0 });
    expect(reads).toBe(1);
    expect(sink.listenerErrors).toEqual(['end: then getter']);
  });
});

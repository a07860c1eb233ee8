import { errorMessage } from './errors.js';

/** What every event has: a discriminating `type` and the clock time it happened at. */
export interface EventBase<T extends string = string> {
  readonly type: T;
  /** `Clock.now()` when the event happened. */
  readonly at: number;
}

/** Receives events as they happen. */
export type EventListener<E extends EventBase> = (event: E) => void;

/** Delivers events to an optional listener and remembers every event it delivered. */
export interface EventSink<E extends EventBase> {
  emit(event: E): void;
  /** Every event emitted so far, in order: the trace of the run. */
  readonly events: readonly E[];
  /** Messages of listener calls that threw or whose promise rejected; a broken listener never breaks the run. */
  readonly listenerErrors: readonly string[];
}

/**
 * Creates an event sink. A listener that throws is a bug in the caller's code, but it must not
 * turn a deliberation into a crash, so its errors are collected instead of propagated.
 */
export function createEventSink<E extends EventBase>(listener?: EventListener<E>): EventSink<E> {
  const events: E[] = [];
  const listenerErrors: string[] = [];
  return {
    events,
    listenerErrors,
    emit(event) {
      events.push(event);
      if (!listener) return;
      try {
        const returned: unknown = listener(event);
        // An async listener is a listener too: its promise's rejection would otherwise go unhandled and end the process.
        if (returned !== null && typeof returned === 'object') {
          const then: unknown = (returned as { then?: unknown }).then;
          if (typeof then === 'function')
            Reflect.apply(then, returned, [undefined, (thrown: unknown) => listenerErrors.push(`${event.type}: ${errorMessage(thrown)}`)]);
        }
      } catch (thrown) {
        listenerErrors.push(`${event.type}: ${errorMessage(thrown)}`);
      }
    },
  };
}

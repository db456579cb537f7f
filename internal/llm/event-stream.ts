// Async generators of events: `pumpEvents` turns work that reports through callbacks (stream deltas, tool results
// delivered by dispatch) into events yielded while the work runs, and `drainEvents` hands every event of a generator
// to a listener and returns what the generator returned.

/** Queues an event; resolves once the consumer has taken it (asked for the next one), so the work keeps its pace. */
export type PushEvent<T> = (event: T) => Promise<void>;

/**
 * Runs `work`, yielding each event it pushes, in order, and returns the work's result (or throws its error) once every
 * pushed event is yielded. The consumer must keep pulling until the end: a push waits until its event is taken.
 */
export async function* pumpEvents<T, R>(work: (push: PushEvent<T>) => Promise<R>): AsyncGenerator<T, R> {
  const queue: Array<{ event: T; taken: () => void }> = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let closed = false;
  const push: PushEvent<T> = (event) => {
    if (closed) return Promise.resolve(); // a late callback after the work ended (or the consumer left): dropped
    return new Promise<void>((taken) => {
      queue.push({ event, taken });
      wake?.();
    });
  };
  const running = work(push).finally(() => {
    finished = true;
    wake?.();
  });
  running.catch(() => undefined); // rethrown below, after the queue is empty; never an unhandled rejection meanwhile
  try {
    for (;;) {
      const next = queue.shift();
      if (next) {
        try {
          yield next.event;
        } finally {
          next.taken();
        }
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    return await running;
  } finally {
    // A consumer that stops early must not leave the work waiting on events nobody will take.
    closed = true;
    for (const item of queue.splice(0)) item.taken();
  }
}

/** Hands every event to `onEvent` and returns the generator's result. `onEvent` must not throw (catch inside it). */
export async function drainEvents<T, R>(events: AsyncGenerator<T, R>, onEvent: (event: T) => void): Promise<R> {
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
    onEvent(next.value);
  }
}

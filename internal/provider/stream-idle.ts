// The stream idle watchdog: a reply body that sends no bytes for `idleMs` is given up at once instead of after
// undici's body timeout (300 s by default, meant for the slowest local model). It measures silence between chunks,
// never the length of the whole reply, so a slow but steady stream runs to its end.

/** Thrown by `withIdleTimeout` when the source went silent; the provider turns it into CallError('stalled'). */
export class StreamStalled extends Error {
  readonly idleMs: number;
  constructor(idleMs: number) {
    super(`no data for ${idleMs} ms`);
    this.name = 'StreamStalled';
    this.idleMs = idleMs;
  }
}

export interface IdleOptions {
  idleMs: number;
  /** Called once when the timer fires, before StreamStalled is thrown: abort the request so its socket is freed. */
  onIdle?: () => void;
}

/** Yields `source`'s chunks; throws StreamStalled when the next one takes longer than `idleMs` to arrive. */
export async function* withIdleTimeout<T>(
  source: AsyncIterable<T> | Iterable<T>,
  options: IdleOptions,
): AsyncGenerator<T> {
  const iterator: AsyncIterator<T> | Iterator<T> =
    Symbol.asyncIterator in source
      ? (source as AsyncIterable<T>)[Symbol.asyncIterator]()
      : (source as Iterable<T>)[Symbol.iterator]();
  let finished = false;
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<'idle'>((resolve) => {
        timer = setTimeout(() => resolve('idle'), options.idleMs);
      });
      let next: IteratorResult<T> | 'idle';
      try {
        next = await Promise.race([Promise.resolve(iterator.next()), idle]);
      } finally {
        clearTimeout(timer);
      }
      if (next === 'idle') {
        options.onIdle?.();
        // The pending read is left to the abort above: awaiting return() on a stalled stream could hang as well.
        finished = true;
        void Promise.resolve(iterator.return?.()).catch(() => {});
        throw new StreamStalled(options.idleMs);
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // The consumer stopped early (an error of its own, a break): release the source.
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}

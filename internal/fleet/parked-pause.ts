// A parked captain's pause between looks: it ends at the first of a wake (resume, stop), its time, or the captain's
// signal — and leaves nothing behind. The old pause added an abort listener to the signal every look and never took
// it off (one a second per parked captain: Node's MaxListeners warning after ~11 s, memory growing all day).
/** Resolves at the first of: `wake` handing back its resolver being called, `ms` passing, `signal` aborting; then
 * removes its listener and clears its timer. `wake` receives the resolver, to be called by whoever wakes the pause. */
export function parkedPause(options: {
  ms: number;
  signal: AbortSignal;
  wake: (resolve: () => void) => void;
}): Promise<void> {
  const { ms, signal } = options;
  return new Promise<void>((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
    options.wake(done);
  });
}

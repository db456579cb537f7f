// A store that went away (PostgreSQL restarting, a connection cut): whoever plays waits until it is back before it
// acts again — a captain whose move cannot be written does not move. The store says when it is down and back
// (Store.onHealth); this only waits for it, and looks again now and then in case a word was missed.
import { isStoreUnavailable, sleep } from '../shared/index.js';
import type { Store } from '../store/index.js';

export { isStoreUnavailable };

export type StoreHealthSource = Pick<Store, 'health' | 'onHealth'>;

/** How often the wait looks at the store's health besides listening to it. */
const LOOK_MS = 1000;

/** Resolves once the store is up (at once when it is); rejects with the signal's reason when aborted first. */
export async function waitForStore(store: StoreHealthSource, signal: AbortSignal): Promise<void> {
  while (store.health().state !== 'up') {
    signal.throwIfAborted();
    const back = new Promise<void>((resolve) => {
      const off = store.onHealth((health) => {
        if (health.state === 'up') {
          off();
          resolve();
        }
      });
      void sleep(LOOK_MS, signal)
        .catch(() => undefined)
        .then(() => {
          off();
          resolve();
        });
    });
    await back;
  }
}

/** How long a record waits for the store to come back before it is given up (and logged by its caller). */
export const RECORD_WAIT_MS = 120_000;

/**
 * A record written once the store can take it: tried, and while the database cannot be reached tried again each time
 * the store is back, for up to `giveUpMs`. For writes that are safe to repeat (a turn's row and snapshot replace
 * themselves; a usage row is written twice only when the database committed it but its answer was lost).
 */
export async function writeWhenUp<T>(
  store: StoreHealthSource,
  write: () => Promise<T>,
  giveUpMs: number = RECORD_WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + giveUpMs;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      const left = deadline - Date.now();
      if (!isStoreUnavailable(error) || left <= 0) throw error;
      await waitForStore(store, AbortSignal.timeout(left)).catch(() => undefined);
    }
  }
}

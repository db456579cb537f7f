// A clock for connection tests: every wait (rate limit, reconnect or re-login backoff) is recorded and returns at
// once, moving `now` on by its length, so no unit test really sleeps; an aborted signal still ends a wait at once.
import type { GameClock } from '../../../internal/game/index.js';
import { AbortedError } from '../../../internal/shared/index.js';

export interface FakeClock extends GameClock {
  /** Every wait asked for, in ms, in order. */
  readonly waits: number[];
}

export function fakeClock(options: { start?: number; onSleep?: (ms: number) => void } = {}): FakeClock {
  let now = options.start ?? Date.parse('2025-01-01T00:00:00Z');
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new AbortedError();
      waits.push(ms);
      options.onSleep?.(ms);
      now += ms;
    },
  };
}

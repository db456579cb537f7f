// Drives vitest's fake clock until a promise settles: the code's waits pass at once and in order, without sleeping.
import { vi } from 'vitest';

export async function settleWithFakeTimers<T>(pending: Promise<T>, maxTimers = 10_000): Promise<T> {
  let settled = false;
  pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let steps = 0; !settled; steps += 1) {
    if (steps > maxTimers) throw new Error(`still pending after ${maxTimers} timers`);
    await vi.advanceTimersToNextTimerAsync();
  }
  return pending;
}

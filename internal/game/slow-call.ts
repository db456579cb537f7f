// Never silent: a game call still unanswered after a while is said once (a line for people, a `game-wait` event for
// scripts), so a game that does not answer is not a long stretch of nothing on the screen. The call itself goes on
// until its own timeout; this only watches it.

/** How long a game call may go unanswered before it is said (issue 48: 10 s). */
export const SLOW_CALL_NOTICE_MS = 10_000;

/** Settles with `work`; if it has not settled after `afterMs`, calls `notice(afterMs)` once. The timer is cleared as
 * soon as the work settles and never keeps the process alive. */
export async function noticeIfSlow<T>(
  work: Promise<T>,
  options: { afterMs: number; notice: (waitedMs: number) => void },
): Promise<T> {
  const { afterMs } = options;
  if (!Number.isFinite(afterMs) || afterMs <= 0) return work;
  const timer = setTimeout(() => options.notice(afterMs), afterMs);
  timer.unref();
  try {
    return await work;
  } finally {
    clearTimeout(timer);
  }
}

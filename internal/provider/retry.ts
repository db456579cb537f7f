// The one retry layer for model calls: exponential backoff with full jitter, Retry-After honoured (capped), a
// bounded number of attempts, and an abort that stops waiting at once. What is worth retrying is decided by the
// caller's `classify`, so this stays free of HTTP details.
import { AbortedError, sleep as abortableSleep } from '../shared/index.js';

export interface RetryPolicy {
  /** Total attempts including the first. */
  maxAttempts: number;
  /** First backoff ceiling; doubles each attempt. */
  baseMs: number;
  /** Largest backoff ceiling. */
  maxMs: number;
  /** Largest Retry-After we will wait; longer requests are capped to this. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryPolicy> = {
  maxAttempts: 4,
  baseMs: 500,
  maxMs: 20_000,
  maxRetryAfterMs: 60_000,
};

export interface RetryDecision {
  retry: boolean;
  /** The server's Retry-After, when it sent one. */
  retryAfterMs?: number;
}

export interface RetryOptions extends Partial<RetryPolicy> {
  signal?: AbortSignal;
  classify: (error: unknown) => RetryDecision;
  /** Called before each wait; lets the caller log and the UI show "retrying in …". */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** Injected for tests: a fake clock and a fixed random source. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** Thrown when the attempts ran out; `cause` is the last error and `attempts` how many were made. */
export class RetriesExhausted extends Error {
  readonly attempts: number;
  constructor(attempts: number, cause: unknown) {
    super(`gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}`, { cause });
    this.name = 'RetriesExhausted';
    this.attempts = attempts;
  }
}

/** Full jitter: a uniform wait in [0, min(maxMs, baseMs·2^(attempt-1))). `attempt` is the one that just failed. */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

// One Retry-After reader for every boundary (milliseconds): kept exported here for this module's callers.
export { parseRetryAfter } from '../shared/index.js';

/**
 * Runs `operation` until it succeeds, `classify` says an error is final, the attempts run out (RetriesExhausted),
 * or the signal fires (AbortedError, at once, even mid-wait).
 */
export async function withRetry<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const policy = { ...DEFAULT_RETRY, ...definedOnly(options) };
  const wait = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
  for (let attempt = 1; ; attempt += 1) {
    if (options.signal?.aborted) throw new AbortedError();
    try {
      return await operation(attempt);
    } catch (error) {
      if (options.signal?.aborted) throw new AbortedError();
      const decision = options.classify(error);
      if (!decision.retry) throw error;
      if (attempt >= maxAttempts) throw new RetriesExhausted(attempt, error);
      const delayMs =
        decision.retryAfterMs !== undefined
          ? Math.min(decision.retryAfterMs, policy.maxRetryAfterMs)
          : backoffDelay(attempt, policy, random);
      options.onRetry?.({ attempt, delayMs, error });
      await wait(delayMs, options.signal);
    }
  }
}

function definedOnly(options: Partial<RetryPolicy>): Partial<RetryPolicy> {
  const out: Partial<RetryPolicy> = {};
  if (options.maxAttempts !== undefined) out.maxAttempts = options.maxAttempts;
  if (options.baseMs !== undefined) out.baseMs = options.baseMs;
  if (options.maxMs !== undefined) out.maxMs = options.maxMs;
  if (options.maxRetryAfterMs !== undefined) out.maxRetryAfterMs = options.maxRetryAfterMs;
  return out;
}

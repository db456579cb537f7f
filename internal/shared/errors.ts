// Error classes shared by every module. Messages say what happened and what to do.

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  /** Ctrl+C (SIGINT). */
  interrupted: 130,
  /** SIGTERM: 128 + 15, as shells report a terminated process. */
  terminated: 143,
} as const;

export class SkipperError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SkipperError';
    this.code = code;
  }
}

/** An error that ends the program with an exit code (config, auth, storage, usage). */
export class FatalError extends SkipperError {
  readonly exitCode: number;
  constructor(code: string, message: string, options?: { cause?: unknown; exitCode?: number }) {
    super(code, message, options);
    this.name = 'FatalError';
    this.exitCode = options?.exitCode ?? ExitCode.failure;
  }
}

export class UsageError extends FatalError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('usage', message, { ...options, exitCode: ExitCode.usage });
    this.name = 'UsageError';
  }
}

/** Thrown when a turn's AbortSignal fires. */
export class AbortedError extends SkipperError {
  constructor(message = 'cancelled') {
    super('cancelled', message);
    this.name = 'AbortedError';
  }
}

export function isAbortError(error: unknown): boolean {
  if (error instanceof AbortedError) return true;
  if (error instanceof Error) {
    return error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR';
  }
  return false;
}

/** Throws AbortedError if the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortedError();
}

/** Sleeps, rejecting with AbortedError at once when the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface ScopedSignal {
  signal: AbortSignal;
  /** True when the timeout (not the parent) fired. */
  readonly timedOut: boolean;
  /** Clears the timer and unhooks from the parent: call it when the work is done. */
  dispose(): void;
}

/**
 * A signal for one call: aborts when `parent` aborts or after `timeoutMs`. Unlike AbortSignal.any/timeout it leaves
 * nothing behind once disposed — no timer running for minutes, no dependent or listener kept by a parent signal
 * that lives as long as the session (thousands of calls in an autoplay run would otherwise pile up).
 */
export function scopedSignal(parent: AbortSignal | undefined, timeoutMs?: number): ScopedSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onParentAbort = (): void => controller.abort(parent?.reason);
  const timer =
    timeoutMs !== undefined && Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new AbortedError('timed out'));
        }, timeoutMs)
      : undefined;
  timer?.unref?.();
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut(): boolean {
      return timedOut;
    },
    dispose: (): void => {
      if (timer) clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}

/** Settles with the promise, or rejects with AbortedError the moment the signal fires (the late value is ignored). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      promise.catch(() => undefined);
      reject(new AbortedError());
      return;
    }
    const onAbort = (): void => reject(new AbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

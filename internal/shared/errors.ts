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

/** How an error that ends the program ends it: the exit code of each kind, in one place. */
export const EXIT_CODE_BY_KIND = {
  failure: ExitCode.failure,
  usage: ExitCode.usage,
  interrupted: ExitCode.interrupted,
} as const;

export type ErrorKind = keyof typeof EXIT_CODE_BY_KIND;

/**
 * Every code Skipper's own errors carry (SkipperError and its subclasses), snake_case like the game's, each with its
 * kind. The game's own error codes (`not_docked`, `rate_limited` in a tool result…) are the game's: they stay strings.
 */
export const SKIPPER_ERROR_CODES = {
  // The person's to fix: flags, the config file. Exit 2.
  usage: 'usage',
  config: 'usage',
  // A turn's signal fired: Ctrl+C, /stop, a timeout inside a call.
  cancelled: 'interrupted',
  // Provider accounts and the model endpoint (CallError: the retry layer decides on each).
  auth: 'failure',
  missing_key: 'failure',
  quota: 'failure',
  model_not_found: 'failure',
  tools_unsupported: 'failure',
  unreachable: 'failure',
  timeout: 'failure',
  stalled: 'failure',
  network: 'failure',
  stream_interrupted: 'failure',
  bad_request: 'failure',
  bad_response: 'failure',
  context_length: 'failure',
  rate_limited: 'failure',
  server_error: 'failure',
  provider_error: 'failure',
  /** A scripted provider (tests) has no reply left: a test that asks more than it scripted fails loudly. */
  script_exhausted: 'failure',
  // The game connection.
  game_not_mcp: 'failure',
  game_unreachable: 'failure',
  game_rate_limited: 'failure',
  game_tools: 'failure',
  disconnected: 'failure',
  relogin: 'failure',
  relogin_refused: 'failure',
  cannot_register: 'failure',
  fleet_login: 'failure',
  login_refused: 'failure',
  /** The game refused the API key (SKIPPER_GAME_API_KEY / --api-key), as login_refused for a password. */
  api_key_refused: 'failure',
  /** The API key owns no such player, or several and none was named. */
  api_key_player: 'failure',
  /** The game's auth stayed down (HTTP 503) longer than Skipper waits. */
  auth_unavailable: 'failure',
  /** The key API answered something unreadable, or could not be reached. */
  key_api: 'failure',
  // The store and the files Skipper writes.
  store_open: 'failure',
  store_foreign: 'failure',
  store_newer: 'failure',
  store_old: 'failure',
  store_corrupt: 'failure',
  store_row_invalid: 'failure',
  store_busy: 'failure',
  store_read: 'failure',
  store_write: 'failure',
  store_duplicate: 'failure',
  store_migrations: 'failure',
  /** The PostgreSQL store's connection (or the worker thread that holds it) is gone. */
  store_connection: 'failure',
  /** The database could not be reached (PostgreSQL restarting, a connection cut): nothing was written; the store
   * reconnects by itself, and players wait until it is back. */
  store_unavailable: 'failure',
  session_leased: 'failure',
  account_leased: 'failure',
  not_found: 'failure',
  busy: 'failure',
  write_failed: 'failure',
  /** `skipper doctor --from DIR`: a capture folder whose files are not what --capture writes. */
  capture_unreadable: 'failure',
  // `skipper serve` and the web view.
  world_db: 'failure',
  bad_host: 'failure',
  port_denied: 'failure',
  port_in_use: 'failure',
} as const satisfies Record<string, ErrorKind>;

export type SkipperErrorCode = keyof typeof SKIPPER_ERROR_CODES;

/** The exit code an error with this code ends the program with. */
export function exitCodeFor(code: SkipperErrorCode): number {
  return EXIT_CODE_BY_KIND[SKIPPER_ERROR_CODES[code]];
}

export class SkipperError extends Error {
  readonly code: SkipperErrorCode;
  constructor(code: SkipperErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SkipperError';
    this.code = code;
  }
}

/** An error that ends the program (config, auth, storage, usage), with its code's exit code (exitCodeFor). */
export class FatalError extends SkipperError {
  readonly exitCode: number;
  constructor(code: SkipperErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'FatalError';
    this.exitCode = exitCodeFor(code);
  }
}

export class UsageError extends FatalError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('usage', message, options);
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

/** Whether an error (or one of its causes) says the store's database could not be reached (`store_unavailable`):
 * nothing was written, and whoever plays waits for the store instead of counting a failure. */
export function isStoreUnavailable(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth += 1) {
    if (cause instanceof SkipperError && cause.code === 'store_unavailable') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
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

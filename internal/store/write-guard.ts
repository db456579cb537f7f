// One guard around every write to the database: SQLite failures become errors that say what happened. A missing
// session is the caller's mistake, a duplicate id a conflict, a full disk or anything else a storage failure, which is
// fatal (a full disk says so and how to go on).
import { FatalError, SkipperError, UsageError } from '../shared/index.js';

export function guardedWrite(options: { path: string; sessionId: string; run: () => unknown }): void {
  try {
    options.run();
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw new UsageError(`no session with id ${options.sessionId}; create it first`, { cause: error });
    }
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      throw new SkipperError('store_duplicate', `already stored: ${(error as Error).message}`, { cause: error });
    }
    if (isDiskFull(error)) throw diskFullError(options.path, error);
    throw new FatalError('store_write', `could not write to ${options.path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Whether a write failed for lack of space (SQLite's SQLITE_FULL, or the file system's ENOSPC), in its causes too. */
export function isDiskFull(error: unknown): boolean {
  for (let cause = error, depth = 0; cause !== undefined && cause !== null && depth < 8; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The one message for a full disk: play stops at once (a run that went on would only collect more writes it cannot
 * keep), what was stored before stays, and a resume carries on from it once there is room.
 */
export function diskFullError(path: string | undefined, cause: unknown): FatalError {
  return new FatalError(
    'store_write',
    `could not write to ${path ?? 'the store'}: the disk is full. Nothing already stored is lost; ` +
      'free some space, then resume the session with -s NAME',
    { cause },
  );
}

// One guard around every write to the database: SQLite failures become errors that say what happened. A missing
// session is the caller's mistake, a duplicate id a conflict, anything else a storage failure, which is fatal.
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
    throw new FatalError('store_write', `could not write to ${options.path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

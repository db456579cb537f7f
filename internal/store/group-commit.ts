// A group commit: writes handed in while the event loop turns are committed together, in one transaction, right after
// it (setImmediate). A fleet's captains write around the same moments (each tick, each answer), and one commit each
// cost more than the rest of their writes: a commit appends its pages to the WAL and, every thousand pages, copies
// them back into the database. A failed batch is tried again one write at a time, so each caller hears its own answer
// and one bad write costs no other.
import type Database from 'better-sqlite3';
import { guardedWrite } from './write-guard.js';

interface Pending {
  sessionId: string;
  write: () => unknown;
  committed: () => void;
  failed: (error: unknown) => void;
}

export class GroupCommit {
  private pending: Pending[] = [];

  constructor(
    private readonly db: Database.Database,
    private readonly path: string,
  ) {}

  /** Queues a write; `committed` is called once the transaction holding it has committed, `failed` if it did not. */
  add(
    sessionId: string,
    write: () => unknown,
    outcome: { committed?: () => void; failed: (error: unknown) => void },
  ): void {
    if (this.pending.length === 0) setImmediate(() => this.commit());
    this.pending.push({ sessionId, write, committed: outcome.committed ?? (() => {}), failed: outcome.failed });
  }

  /** Commits what waits now (a read that must see it, and closing the store, call this too). */
  commit(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    try {
      guardedWrite({
        path: this.path,
        sessionId: batch[0]!.sessionId,
        run: () =>
          this.db.transaction(() => {
            for (const item of batch) item.write();
          })(),
      });
    } catch {
      for (const item of batch) {
        try {
          guardedWrite({ path: this.path, sessionId: item.sessionId, run: item.write });
        } catch (error) {
          item.failed(error);
          continue;
        }
        item.committed();
      }
      return;
    }
    for (const item of batch) item.committed();
  }
}

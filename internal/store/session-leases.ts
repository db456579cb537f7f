// Session leases (rule 19): one process plays a session at a time. A lease row names its holder (pid, host, a random
// token); taking one is a single BEGIN IMMEDIATE transaction, so of two processes racing for it exactly one wins.
// A holder that stops renewing (killed, frozen) loses the lease after `staleMs`; one on this host whose pid no longer
// exists loses it at once, so a resume after `kill -9` need not wait.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type Database from 'better-sqlite3';
import type { LeaseHolder, LeaseRecord, LeaseResult, TakeLeaseOptions } from './types.js';

/** A lease not renewed for this long may be taken over. */
export const defaultLeaseStaleMs = 30_000;
/** How often a holder renews: a third of the stale time, so two missed renewals still keep it. */
export const leaseRenewMs = 10_000;

/** The holder this process is: its pid, this host and a fresh token. */
export function currentLeaseHolder(): LeaseHolder {
  return { pid: process.pid, host: os.hostname(), token: randomUUID() };
}

/** False only when the process surely does not exist (ESRCH); EPERM means it exists under another user. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Whether `lease` may be taken over: not renewed for `staleMs`, or held on `host` by a pid that is gone. */
export function isLeaseStale(options: {
  lease: LeaseRecord;
  now: number;
  staleMs: number;
  host: string;
  processExists: (pid: number) => boolean;
}): boolean {
  const { lease } = options;
  if (options.now - lease.renewedAt >= options.staleMs) return true;
  return lease.host === options.host && !options.processExists(lease.pid);
}

interface LeaseRow {
  session_id: string;
  pid: number;
  host: string;
  token: string;
  taken_at: number;
  renewed_at: number;
}

function fromLeaseRow(row: LeaseRow): LeaseRecord {
  return {
    sessionId: row.session_id,
    pid: row.pid,
    host: row.host,
    token: row.token,
    takenAt: row.taken_at,
    renewedAt: row.renewed_at,
  };
}

export class SessionLeases {
  private readonly byId: Database.Statement;
  private readonly all: Database.Statement;
  private readonly upsert: Database.Statement;
  private readonly renewRow: Database.Statement;
  private readonly remove: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly options: { now: () => number; host?: string; processExists?: (pid: number) => boolean },
  ) {
    this.byId = db.prepare('SELECT * FROM session_leases WHERE session_id = ?');
    this.all = db.prepare('SELECT * FROM session_leases');
    this.upsert = db.prepare(
      `INSERT OR REPLACE INTO session_leases (session_id, pid, host, token, taken_at, renewed_at)
       VALUES (@sessionId, @pid, @host, @token, @now, @now)`,
    );
    this.renewRow = db.prepare('UPDATE session_leases SET renewed_at = ? WHERE session_id = ? AND token = ?');
    this.remove = db.prepare('DELETE FROM session_leases WHERE session_id = ? AND token = ?');
  }

  take(sessionId: string, holder: LeaseHolder, options: TakeLeaseOptions = {}): LeaseResult {
    const staleMs = options.staleMs ?? defaultLeaseStaleMs;
    return this.db
      .transaction((): LeaseResult => {
        const now = this.options.now();
        this.dropStale(now, staleMs);
        const row = this.byId.get(sessionId) as LeaseRow | undefined;
        const current = row === undefined ? undefined : fromLeaseRow(row);
        if (current !== undefined && current.token !== holder.token) return { taken: false, holder: current };
        this.upsert.run({ sessionId, pid: holder.pid, host: holder.host, token: holder.token, now });
        return { taken: true, lease: fromLeaseRow(this.byId.get(sessionId) as LeaseRow) };
      })
      .immediate();
  }

  /**
   * Every stale lease goes, not only the one asked for: a run killed with a new session's lease leaves its name's
   * lease too, which nothing would ever ask for again once the session is stored. A handful of rows at most.
   */
  private dropStale(now: number, staleMs: number): void {
    const host = this.options.host ?? os.hostname();
    const exists = this.options.processExists ?? processExists;
    for (const row of this.all.all() as LeaseRow[]) {
      const lease = fromLeaseRow(row);
      if (isLeaseStale({ lease, now, staleMs, host, processExists: exists }))
        this.remove.run(lease.sessionId, lease.token);
    }
  }

  /** False when the lease is no longer this holder's (taken over after it went stale). */
  renew(sessionId: string, holder: LeaseHolder): boolean {
    return this.renewRow.run(this.options.now(), sessionId, holder.token).changes > 0;
  }

  /** Removes the lease if `holder` still has it; false otherwise. */
  release(sessionId: string, holder: LeaseHolder): boolean {
    return this.remove.run(sessionId, holder.token).changes > 0;
  }

  current(sessionId: string): LeaseRecord | undefined {
    const row = this.byId.get(sessionId) as LeaseRow | undefined;
    return row === undefined ? undefined : fromLeaseRow(row);
  }
}

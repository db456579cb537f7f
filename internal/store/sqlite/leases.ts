// Leases on SQLite (lease-rules.ts): one row per key in `leases`, taken in one BEGIN IMMEDIATE transaction, so of two
// processes racing for a key exactly one wins, whatever else writes meanwhile. Renewal and release match the holder's
// token and fence: a holder whose lease was taken over (its fence raised) renews nothing.
import os from 'node:os';
import type Database from 'better-sqlite3';
import type { Lease, LeaseHolder, LeaseTake } from '../contract.js';
import { mayTake, stillHeld, takenLease } from '../lease-rules.js';
import { processExists as realProcessExists } from '../session-leases.js';

export interface LeaseRow {
  key: string;
  pid: number;
  host: string;
  token: string;
  fence: number;
  taken_at: number;
  renewed_at: number;
  expires_at: number;
}

export function leaseFromRow(row: LeaseRow): Lease {
  return {
    key: row.key,
    pid: row.pid,
    host: row.host,
    token: row.token,
    fence: row.fence,
    takenAt: row.taken_at,
    renewedAt: row.renewed_at,
    expiresAt: row.expires_at,
  };
}

export class SqliteLeases {
  private readonly byKey: Database.Statement;
  private readonly byPrefix: Database.Statement;
  private readonly upsert: Database.Statement;
  private readonly renewRow: Database.Statement;
  private readonly remove: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly options: { now: () => number; host?: string; processExists?: (pid: number) => boolean },
  ) {
    this.byKey = db.prepare('SELECT * FROM leases WHERE key = ?');
    this.byPrefix = db.prepare('SELECT * FROM leases WHERE substr(key, 1, length(?)) = ? ORDER BY key');
    this.upsert = db.prepare(
      `INSERT OR REPLACE INTO leases (key, pid, host, token, fence, taken_at, renewed_at, expires_at)
       VALUES (@key, @pid, @host, @token, @fence, @takenAt, @renewedAt, @expiresAt)`,
    );
    this.renewRow = db.prepare(
      'UPDATE leases SET renewed_at = ?, expires_at = ? WHERE key = ? AND token = ? AND fence = ?',
    );
    this.remove = db.prepare('DELETE FROM leases WHERE key = ? AND token = ? AND fence = ?');
  }

  take(key: string, holder: LeaseHolder, ttlMs: number): LeaseTake {
    return this.db
      .transaction((): LeaseTake => {
        const now = this.options.now();
        const current = this.get(key);
        const free = mayTake({
          current,
          holder,
          now,
          host: this.options.host ?? os.hostname(),
          processExists: this.options.processExists ?? realProcessExists,
        });
        if (!free && current) return { taken: false, holder: current };
        const lease = takenLease({ key, current, holder, now, ttlMs });
        this.upsert.run(lease);
        return { taken: true, lease };
      })
      .immediate();
  }

  renew(lease: Lease, ttlMs: number): Lease | undefined {
    const now = this.options.now();
    const changed = this.renewRow.run(now, now + ttlMs, lease.key, lease.token, lease.fence).changes > 0;
    if (!changed) return undefined;
    const current = this.get(lease.key);
    return stillHeld(lease, current) ? current : undefined;
  }

  release(lease: Lease): boolean {
    return this.remove.run(lease.key, lease.token, lease.fence).changes > 0;
  }

  get(key: string): Lease | undefined {
    const row = this.byKey.get(key) as LeaseRow | undefined;
    return row === undefined ? undefined : leaseFromRow(row);
  }

  list(prefix: string): Lease[] {
    return (this.byPrefix.all(prefix, prefix) as LeaseRow[]).map(leaseFromRow);
  }
}

// Leases on PostgreSQL (lease-rules.ts): one row per key in `leases`. A take is one transaction: the row locked with
// SELECT … FOR UPDATE (or, when there is none, inserted with ON CONFLICT DO NOTHING and, if another taker's insert won
// the race, locked and judged again), so of two takers at once exactly one wins. Every deadline is judged by the
// DATABASE's clock, so the hosts' clocks, however far apart, do not matter. Renewal and release match the holder's
// token and fence: a holder whose lease was taken over (its fence raised) renews nothing.
import os from 'node:os';
import type { Lease, LeaseHolder, LeaseTake } from '../contract.js';
import { mayTake, takenLease } from '../lease-rules.js';
import { processExists as realProcessExists } from '../session-leases.js';
import { leaseFromRow, type LeaseRow } from '../sqlite/leases.js';
import type { PgConnection, Sql } from './connection.js';

/** The server's clock in epoch milliseconds, now (clock_timestamp: not the transaction's start). */
const dbNow = 'floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/** A take: the key, who wants it, for how long. */
interface Wanted {
  key: string;
  holder: LeaseHolder;
  ttlMs: number;
}

export class PgLeases {
  constructor(
    private readonly db: PgConnection,
    private readonly options: { host?: string; processExists?: (pid: number) => boolean } = {},
  ) {}

  take(wanted: Wanted): Promise<LeaseTake> {
    return this.db.transaction(async (sql) => {
      // Two rounds at most: the second runs only when another taker inserted the row between our read and insert.
      for (let round = 0; round < 3; round += 1) {
        const [row] = await sql.rows<LeaseRow>('SELECT * FROM leases WHERE key = $1 FOR UPDATE', [wanted.key]);
        const outcome = row === undefined ? await insertFresh(sql, wanted) : await this.judge(sql, { ...wanted, row });
        if (outcome !== undefined) return outcome;
      }
      throw new Error(`the lease ${wanted.key} changed hands three times during one take`);
    });
  }

  async renew(lease: Lease, ttlMs: number): Promise<Lease | undefined> {
    const [row] = await this.db.rows<LeaseRow>(
      `WITH clock AS (SELECT ${dbNow} AS now)
       UPDATE leases SET renewed_at = clock.now, expires_at = clock.now + $4 FROM clock
       WHERE key = $1 AND token = $2 AND fence = $3 RETURNING leases.*`,
      [lease.key, lease.token, lease.fence, Math.max(0, Math.floor(ttlMs))],
    );
    return row === undefined ? undefined : leaseFromRow(row);
  }

  async release(lease: Lease): Promise<boolean> {
    return (
      (await this.db.run('DELETE FROM leases WHERE key = $1 AND token = $2 AND fence = $3', [
        lease.key,
        lease.token,
        lease.fence,
      ])) > 0
    );
  }

  async get(key: string): Promise<Lease | undefined> {
    const [row] = await this.db.rows<LeaseRow>('SELECT * FROM leases WHERE key = $1', [key]);
    return row === undefined ? undefined : leaseFromRow(row);
  }

  /** By key in byte order (COLLATE "C"), as SQLite sorts text. */
  async list(prefix: string): Promise<Lease[]> {
    const rows = await this.db.rows<LeaseRow>(
      'SELECT * FROM leases WHERE left(key, length($1)) = $1 ORDER BY key COLLATE "C"',
      [prefix],
    );
    return rows.map(leaseFromRow);
  }

  /** The locked row: refused with its holder, or given to `holder` (lease-rules.ts) at the database's now. */
  private async judge(sql: Sql, options: Wanted & { row: LeaseRow }): Promise<LeaseTake> {
    const { row, holder, ttlMs } = options;
    const current = leaseFromRow(row);
    const [clock] = await sql.rows<{ now: number }>(`SELECT ${dbNow} AS now`);
    const now = clock?.now ?? Date.now();
    const free = mayTake({
      current,
      holder,
      now,
      host: this.options.host ?? os.hostname(),
      processExists: this.options.processExists ?? realProcessExists,
    });
    if (!free) return { taken: false, holder: current };
    const lease = takenLease({ key: row.key, current, holder, now, ttlMs: Math.max(0, Math.floor(ttlMs)) });
    await sql.run(
      `UPDATE leases SET pid = $2, host = $3, token = $4, fence = $5, taken_at = $6, renewed_at = $7, expires_at = $8
       WHERE key = $1`,
      [lease.key, lease.pid, lease.host, lease.token, lease.fence, lease.takenAt, lease.renewedAt, lease.expiresAt],
    );
    return { taken: true, lease };
  }
}

/** No row: the first take, fence 1; undefined when another taker's insert came first (then judged again). */
async function insertFresh(sql: Sql, wanted: Wanted): Promise<LeaseTake | undefined> {
  const { key, holder, ttlMs } = wanted;
  const [row] = await sql.rows<LeaseRow>(
    `WITH clock AS (SELECT ${dbNow} AS now)
     INSERT INTO leases (key, pid, host, token, fence, taken_at, renewed_at, expires_at)
     SELECT $1, $2, $3, $4, 1, clock.now, clock.now, clock.now + $5 FROM clock
     ON CONFLICT (key) DO NOTHING RETURNING *`,
    [key, holder.pid, holder.host, holder.token, Math.max(0, Math.floor(ttlMs))],
  );
  return row === undefined ? undefined : { taken: true, lease: leaseFromRow(row) };
}

// Captains leased by fleet workers through PostgreSQL itself, with no coordinator of ours. A worker holds, on its one
// connection to the server, a session-level advisory lock per captain it plays: the server releases them all when
// that connection ends (a worker killed with -9, a host that dies), so another worker can take those captains at
// once. Each take raises the captain's epoch in captain_leases and names the worker; a trigger on every session-scoped
// table (migration 5) refuses a write from a connection whose worker is not the captain's current holder, so a worker
// that lost a captain cannot write a message, a turn or a status row for it any more (SQLSTATE SK001).
// Workers also hold one shared lock per fleet while they run: counting its holders gives the live workers, and with
// them each worker's share of the fleet. Advisory locks belong to the whole database, so every key names the schema
// too: stores in two schemas of one database (two fleets of one name, two test runs) never see each other's locks.
import { SkipperError } from '../../shared/index.js';
import type { Store } from '../types.js';
import { PgDatabase } from './database.js';

// The lock keys, in SQL, each taking the fleet's name as its parameter; the schema is part of every key.
/** The fleet's shared workers lock (its first key; the second is 0). */
const WORKERS_KEY = "hashtext('skipper-workers:' || current_schema() || ':' || ?)";
/** A captain's lock: the fleet's key, then hashtext(captain). */
const FLEET_KEY = "hashtext('skipper-fleet:' || current_schema() || ':' || ?)";

export interface CaptainLeaseHolder {
  host: string;
  pid: number;
  /** Random per worker run: the fencing identity its connection carries (skipper.worker). */
  worker: string;
}

export interface CaptainLeaseRecord extends CaptainLeaseHolder {
  fleet: string;
  captain: string;
  sessionName: string;
  epoch: number;
  takenAt: number;
}

interface LeaseRow {
  fleet: string;
  captain: string;
  session_name: string;
  epoch: number;
  host: string;
  pid: number;
  worker: string;
  taken_at: number;
}

const fromRow = (row: LeaseRow): CaptainLeaseRecord => ({
  fleet: row.fleet,
  captain: row.captain,
  sessionName: row.session_name,
  epoch: row.epoch,
  host: row.host,
  pid: row.pid,
  worker: row.worker,
  takenAt: row.taken_at,
});

/** The PostgreSQL connection behind a store, or undefined for SQLite (where a fleet is one process). */
export function postgresOf(store: Store): PgDatabase | undefined {
  const db = (store as { postgres?: unknown }).postgres;
  return db instanceof PgDatabase ? db : undefined;
}

/** Where each captain of `fleet` runs now, from the leases (empty on SQLite: the fleet row says where it runs). */
export function captainHosts(store: Store, fleet: string): Map<string, CaptainLeaseRecord> {
  const db = postgresOf(store);
  if (!db) return new Map();
  const rows = db.prepare('SELECT * FROM captain_leases WHERE fleet = ? AND worker <> ?').all(fleet, '') as LeaseRow[];
  return new Map(rows.map((row) => [row.captain, fromRow(row)]));
}

/** The workers of `fleet` alive now (each holds the fleet's shared lock on its connection); undefined on SQLite. */
export function liveWorkersOf(store: Store, fleet: string): number | undefined {
  const db = postgresOf(store);
  return db ? countLiveWorkers(db, fleet) : undefined;
}

function countLiveWorkers(db: PgDatabase, fleet: string): number {
  const row = db
    .prepare(
      `SELECT COUNT(*) AS n FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND objid = 0
         AND classid = (${WORKERS_KEY}::bigint & 4294967295)::oid AND database = (
           SELECT oid FROM pg_database WHERE datname = current_database())`,
    )
    .get(fleet) as { n: number | string };
  return Number(row.n);
}

export class CaptainLeases {
  private readonly db: PgDatabase;
  private readonly held = new Map<string, number>();

  constructor(
    store: Store,
    private readonly options: { fleet: string; holder: CaptainLeaseHolder; now?: () => number },
  ) {
    const db = postgresOf(store);
    if (!db) {
      throw new SkipperError(
        'usage',
        'fleet workers lease captains through PostgreSQL: give --db postgres://… (or SKIPPER_DATABASE_URL)',
      );
    }
    this.db = db;
  }

  /** Joins the fleet's workers: this connection's writes are fenced as this worker's from now on. */
  join(): void {
    this.db.prepare("SELECT set_config('skipper.worker', ?, false)").get(this.options.holder.worker);
    this.db.prepare(`SELECT pg_advisory_lock_shared(${WORKERS_KEY}, 0)`).get(this.options.fleet);
  }

  /** Workers of this fleet whose connection is alive now (this one included once joined). */
  liveWorkers(): number {
    return countLiveWorkers(this.db, this.options.fleet);
  }

  /**
   * Takes the captain when no live worker holds it: the advisory lock, then a new epoch in its lease row. The stale
   * session lease a dead worker left (rule 19) is dropped: the advisory lock proves that worker is gone.
   */
  tryTake(captain: string, sessionName: string): CaptainLeaseRecord | undefined {
    if (this.held.has(captain)) return this.current(captain);
    const { fleet, holder } = this.options;
    const locked = this.db
      .prepare(`SELECT pg_try_advisory_lock(${FLEET_KEY}, hashtext(?)) AS ok`)
      .get(fleet, captain) as { ok: boolean };
    if (!locked.ok) return undefined;
    const now = (this.options.now ?? Date.now)();
    const row = this.db
      .prepare(
        `INSERT INTO captain_leases (fleet, captain, session_name, epoch, host, pid, worker, taken_at)
         VALUES (?, ?, ?, 1, ?, ?, ?, ?)
         ON CONFLICT (fleet, captain) DO UPDATE SET epoch = captain_leases.epoch + 1, session_name = EXCLUDED.session_name,
           host = EXCLUDED.host, pid = EXCLUDED.pid, worker = EXCLUDED.worker, taken_at = EXCLUDED.taken_at
         RETURNING *`,
      )
      .get(fleet, captain, sessionName, holder.host, holder.pid, holder.worker, now) as LeaseRow;
    this.db
      .prepare('DELETE FROM session_leases WHERE session_id IN (SELECT id FROM sessions WHERE name = ?)')
      .run(sessionName);
    this.held.set(captain, row.epoch);
    return fromRow(row);
  }

  /** Gives the captain up: its lease row keeps the epoch (the next take raises it) but names no worker. */
  release(captain: string): void {
    if (!this.held.delete(captain)) return;
    const { fleet, holder } = this.options;
    this.db
      .prepare(`UPDATE captain_leases SET worker = '' WHERE fleet = ? AND captain = ? AND worker = ?`)
      .run(fleet, captain, holder.worker);
    this.db.prepare(`SELECT pg_advisory_unlock(${FLEET_KEY}, hashtext(?))`).get(fleet, captain);
  }

  /** The captains this worker holds, with the epoch it took each at. */
  heldCaptains(): ReadonlyMap<string, number> {
    return this.held;
  }

  current(captain: string): CaptainLeaseRecord | undefined {
    const row = this.db
      .prepare('SELECT * FROM captain_leases WHERE fleet = ? AND captain = ?')
      .get(this.options.fleet, captain) as LeaseRow | undefined;
    return row === undefined ? undefined : fromRow(row);
  }
}

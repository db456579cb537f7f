// SQLite persistence (better-sqlite3): the world's changing parts (deposits, markets, tick) and every player's account,
// ship, cargo, position, skills, log and /stats counters. Written once per tick in one transaction, changed rows only.
// The fixed world is regenerated from (seed, systems), which are stored so a restart rebuilds the same galaxy.
// Schema changes only add tables (CREATE TABLE IF NOT EXISTS), so an older world file opens and gains them.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { z } from 'zod';
import { FatalError } from '../shared/index.js';
import { type EmpireId, type ItemId } from '../spacemolt/index.js';
import type { Engine } from './engine.js';
import { emptyStats, type Player } from './player.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
  id TEXT PRIMARY KEY, serial INTEGER NOT NULL, username TEXT NOT NULL UNIQUE, password TEXT NOT NULL,
  empire TEXT NOT NULL, credits INTEGER NOT NULL, ship TEXT NOT NULL, cargo TEXT NOT NULL, system_id TEXT NOT NULL,
  poi_id TEXT, docked INTEGER NOT NULL, transit TEXT, xp TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deposits (poi_id TEXT NOT NULL, idx INTEGER NOT NULL, remaining REAL NOT NULL,
  since INTEGER NOT NULL, PRIMARY KEY (poi_id, idx));
CREATE TABLE IF NOT EXISTS markets (poi_id TEXT NOT NULL, item TEXT NOT NULL, bid REAL NOT NULL, since INTEGER NOT NULL,
  PRIMARY KEY (poi_id, item));
CREATE TABLE IF NOT EXISTS log (player_id TEXT NOT NULL, idx INTEGER NOT NULL, tick INTEGER NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (player_id, idx));
CREATE TABLE IF NOT EXISTS player_stats (player_id TEXT PRIMARY KEY, stats TEXT NOT NULL);
`;

const PlayerRow = z.object({
  id: z.string(),
  serial: z.number(),
  username: z.string(),
  password: z.string(),
  empire: z.string(),
  credits: z.number(),
  ship: z.string(),
  cargo: z.string(),
  system_id: z.string(),
  poi_id: z.string().nullable(),
  docked: z.number(),
  transit: z.string().nullable(),
  xp: z.string(),
});
const ShipJson = z.object({
  name: z.string(),
  hull: z.number(),
  maxHull: z.number(),
  fuel: z.number(),
  maxFuel: z.number(),
  cargoCapacity: z.number(),
  speed: z.number(),
});
const TransitJson = z.object({ toSystem: z.string(), toPoi: z.string() });
const XpJson = z.object({ mining: z.number(), trading: z.number(), navigation: z.number() });
const StatsJson = z.object({
  firstActionTick: z.number().nullable(),
  busyTicks: z.number(),
  actions: z.number(),
  errors: z.record(z.string(), z.number()),
  deaths: z.number(),
  leaks: z.number(),
});

/**
 * Refuses a file that is not a minimolt world before anything writes to it: it is read through a read-only connection
 * (no journal_mode change, no -wal/-shm), so a foreign database, or a file that is no database, is left byte for byte.
 */
function checkIsWorld(path: string): void {
  if (path === ':memory:' || !existsSync(path) || statSync(path).size === 0) return;
  const reader = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = (
      reader.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    ).map((row) => row.name);
    if (tables.length > 0 && !tables.includes('meta')) {
      throw new Error(`it is a SQLite database of something else (tables ${tables.slice(0, 4).join(', ')})`);
    }
  } finally {
    reader.close();
  }
}

export interface WorldMeta {
  seed: number;
  systems: number;
  tick: number;
}

export class WorldStore {
  private readonly db: Database.Database;
  private readonly statements;
  /** The stats JSON last written per player: counters change without marking the player dirty. */
  private readonly writtenStats = new Map<string, string>();

  constructor(path: string) {
    try {
      // Never touch somebody else's database (say --world-db pointed at skipper.db): checked before any write.
      checkIsWorld(path);
      // The world keeps players' passwords (the leak counter needs them): the file is its owner's only.
      if (path !== ':memory:' && !existsSync(path)) closeSync(openSync(path, 'a', 0o600));
      this.db = new Database(path);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.exec(SCHEMA);
    } catch (error) {
      throw new FatalError(
        'world_db',
        `cannot open the minimolt world file ${path}: ${(error as Error).message}. ` +
          'It was left as it is: move it away and a new world is made.',
        { cause: error },
      );
    }
    this.statements = {
      meta: this.db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      ),
      player: this.db
        .prepare(`INSERT INTO players (id, serial, username, password, empire, credits, ship, cargo, system_id, poi_id, docked, transit, xp)
        VALUES (@id, @serial, @username, @password, @empire, @credits, @ship, @cargo, @system_id, @poi_id, @docked, @transit, @xp)
        ON CONFLICT(id) DO UPDATE SET credits = excluded.credits, ship = excluded.ship, cargo = excluded.cargo,
        system_id = excluded.system_id, poi_id = excluded.poi_id, docked = excluded.docked, transit = excluded.transit, xp = excluded.xp`),
      deposit: this.db.prepare(
        'INSERT INTO deposits (poi_id, idx, remaining, since) VALUES (?, ?, ?, ?) ON CONFLICT(poi_id, idx) DO UPDATE SET remaining = excluded.remaining, since = excluded.since',
      ),
      market: this.db.prepare(
        'INSERT INTO markets (poi_id, item, bid, since) VALUES (?, ?, ?, ?) ON CONFLICT(poi_id, item) DO UPDATE SET bid = excluded.bid, since = excluded.since',
      ),
      log: this.db.prepare('INSERT OR REPLACE INTO log (player_id, idx, tick, text) VALUES (?, ?, ?, ?)'),
      stats: this.db.prepare(
        'INSERT INTO player_stats (player_id, stats) VALUES (?, ?) ON CONFLICT(player_id) DO UPDATE SET stats = excluded.stats',
      ),
    };
  }

  readMeta(): WorldMeta | null {
    const rows = this.db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>;
    const map = new Map(rows.map((r) => [r.key, Number(r.value)]));
    const seed = map.get('seed');
    const systems = map.get('systems');
    if (seed === undefined || systems === undefined || !Number.isFinite(seed) || !Number.isFinite(systems)) return null;
    return { seed, systems, tick: map.get('tick') ?? 0 };
  }

  /**
   * Restores deposits, markets, players, logs and counters into a freshly generated engine; returns the players that
   * have counters (those /stats lists).
   */
  load(engine: Engine, tick: number): Player[] {
    engine.tick = tick;
    for (const row of this.db.prepare('SELECT poi_id, idx, remaining, since FROM deposits').all() as Array<{
      poi_id: string;
      idx: number;
      remaining: number;
      since: number;
    }>) {
      const deposit = engine.world.pois.get(row.poi_id)?.deposits[row.idx];
      if (deposit) Object.assign(deposit, { remaining: row.remaining, since: row.since });
    }
    for (const row of this.db.prepare('SELECT poi_id, item, bid, since FROM markets').all() as Array<{
      poi_id: string;
      item: ItemId;
      bid: number;
      since: number;
    }>) {
      const entry = engine.world.pois.get(row.poi_id)?.market?.get(row.item);
      if (entry) Object.assign(entry, { bid: row.bid, since: row.since });
    }
    const logs = new Map<string, Player['log']>();
    for (const row of this.db.prepare('SELECT player_id, tick, text FROM log ORDER BY player_id, idx').all() as Array<{
      player_id: string;
      tick: number;
      text: string;
    }>) {
      const list = logs.get(row.player_id) ?? [];
      list.push({ tick: row.tick, text: row.text });
      logs.set(row.player_id, list);
    }
    const stats = new Map<string, string>();
    for (const row of this.db.prepare('SELECT player_id, stats FROM player_stats').all() as Array<{
      player_id: string;
      stats: string;
    }>) {
      stats.set(row.player_id, row.stats);
    }
    const counted: Player[] = [];
    for (const raw of this.db.prepare('SELECT * FROM players ORDER BY serial').all()) {
      const row = PlayerRow.parse(raw);
      const transit = row.transit ? TransitJson.parse(JSON.parse(row.transit)) : null;
      const player: Player = {
        id: row.id,
        serial: row.serial,
        username: row.username,
        password: row.password,
        empire: row.empire as EmpireId,
        credits: row.credits,
        ship: ShipJson.parse(JSON.parse(row.ship)),
        cargo: new Map(
          Object.entries(z.record(z.string(), z.number()).parse(JSON.parse(row.cargo))) as Array<[ItemId, number]>,
        ),
        // A trip cut short by a restart completes: its fuel was already paid and its call will never be answered.
        systemId: transit?.toSystem ?? row.system_id,
        poiId: transit?.toPoi ?? row.poi_id,
        docked: row.docked === 1,
        transit: null,
        xp: XpJson.parse(JSON.parse(row.xp)),
        log: logs.get(row.id) ?? [],
        notifications: [],
        nextNotificationId: 1,
        stats: emptyStats(),
      };
      const saved = stats.get(row.id);
      if (saved !== undefined) {
        player.stats = StatsJson.parse(JSON.parse(saved));
        this.writtenStats.set(player.id, saved);
        counted.push(player);
      }
      engine.restorePlayer(player);
    }
    return counted;
  }

  /** Writes what changed since the last flush, in one transaction; `counted` are the players /stats lists. */
  flush(engine: Engine, meta: { seed: number; systems: number }, counted: Iterable<Player> = []): void {
    const s = this.statements;
    const stats: Array<[string, string]> = [];
    for (const p of counted) {
      const json = JSON.stringify(p.stats);
      if (this.writtenStats.get(p.id) !== json) stats.push([p.id, json]);
    }
    this.db.transaction(() => {
      s.meta.run('seed', String(meta.seed));
      s.meta.run('systems', String(meta.systems));
      s.meta.run('tick', String(engine.tick));
      for (const p of engine.dirtyPlayers) {
        s.player.run({
          id: p.id,
          serial: p.serial,
          username: p.username,
          password: p.password,
          empire: p.empire,
          credits: p.credits,
          ship: JSON.stringify(p.ship),
          cargo: JSON.stringify(Object.fromEntries(p.cargo)),
          system_id: p.systemId,
          poi_id: p.poiId,
          docked: p.docked ? 1 : 0,
          transit: p.transit ? JSON.stringify(p.transit) : null,
          xp: JSON.stringify(p.xp),
        });
      }
      for (const d of engine.dirtyDeposits) s.deposit.run(d.poiId, d.index, d.remaining, d.since);
      for (const m of engine.dirtyMarkets) s.market.run(m.poiId, m.item, m.bid, m.since);
      for (const { player, index } of engine.newLogEntries) {
        const entry = player.log[index];
        if (entry) s.log.run(player.id, index, entry.tick, entry.text);
      }
      for (const [id, json] of stats) s.stats.run(id, json);
    })();
    for (const [id, json] of stats) this.writtenStats.set(id, json);
    engine.dirtyPlayers.clear();
    engine.dirtyDeposits.clear();
    engine.dirtyMarkets.clear();
    engine.newLogEntries.length = 0;
  }

  close(): void {
    this.db.close();
  }
}

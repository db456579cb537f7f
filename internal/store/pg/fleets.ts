// Fleets on PostgreSQL (fleet-types.ts says what each table is for; fleet-store.ts is SQLite's): each write one
// statement — an upsert where SQLite reads then writes — and rows mapped by SQLite's mappers, which never throw on a
// damaged JSON column. Text is ordered byte-wise (COLLATE "C"), as SQLite orders it, whatever the database's locale.
import type { FleetTable } from '../contract.js';
import {
  CAPTAIN_COLUMNS,
  captainFromRow,
  eventFromRow,
  fleetFromRow,
  knowledgeFromRow,
  orderFromRow,
} from '../fleet-store.js';
import type {
  FleetCaptainRecord,
  FleetCaptainUpdate,
  FleetCommand,
  FleetEvent,
  FleetEventKind,
  FleetOrder,
  FleetRecord,
  KnowledgeRecord,
} from '../fleet-types.js';
import type { PgConnection } from './connection.js';

type CaptainFields = FleetCaptainUpdate & { sessionName?: string };

/**
 * One upsert of a captain's row: inserted with the defaults SQLite's insert gives (its session named after it, the
 * autopilot, `starting`) overridden by the fields given; an existing row gets only the fields given.
 */
function captainUpsert(options: { fleet: string; name: string; fields: CaptainFields; now: number }): {
  text: string;
  params: unknown[];
} {
  const { fleet, name, fields, now } = options;
  const given = (Object.keys(CAPTAIN_COLUMNS) as Array<keyof FleetCaptainUpdate>)
    .filter((key) => fields[key] !== undefined)
    .map((key) => [CAPTAIN_COLUMNS[key], fields[key]] as const);
  const values = new Map<string, unknown>([
    ['fleet', fleet],
    ['name', name],
    ['session_name', name],
    ['model', 'builtin/autopilot'],
    ['state', 'starting'],
    ['updated_at', now],
    ...given,
  ]);
  const columns = [...values.keys()];
  const sets = [...given.map(([column]) => column), 'updated_at'].map((column) => `${column} = EXCLUDED.${column}`);
  const update = given.length === 0 ? 'DO NOTHING' : `DO UPDATE SET ${sets.join(', ')}`;
  const placeholders = columns.map((_, index) => `$${index + 1}`);
  return {
    text: `INSERT INTO fleet_captains (${columns.join(', ')}) VALUES (${placeholders.join(', ')})
      ON CONFLICT (fleet, name) ${update}`,
    params: [...values.values()],
  };
}

export class PgFleets implements FleetTable {
  constructor(
    private readonly db: PgConnection,
    private readonly now: () => number,
  ) {}

  async startFleet(input: { name: string; file: string; pid: number; host: string }): Promise<FleetRecord> {
    const [row] = await this.db.rows(
      `INSERT INTO fleets (name, file, state, pid, host, started_at, updated_at) VALUES ($1, $2, 'running', $3, $4, $5, $5)
       ON CONFLICT (name) DO UPDATE SET file = EXCLUDED.file, state = 'running', pid = EXCLUDED.pid,
         host = EXCLUDED.host, started_at = EXCLUDED.started_at, updated_at = EXCLUDED.updated_at
       RETURNING *`,
      [input.name, input.file, input.pid, input.host, this.now()],
    );
    return fleetFromRow(row ?? {});
  }

  async stopFleet(name: string): Promise<void> {
    await this.db.run(`UPDATE fleets SET state = 'stopped', updated_at = $1 WHERE name = $2`, [this.now(), name]);
  }

  async setHealth(name: string, health: Record<string, unknown>): Promise<void> {
    await this.db.run('UPDATE fleets SET health = $1, updated_at = $2 WHERE name = $3', [
      JSON.stringify(health),
      this.now(),
      name,
    ]);
  }

  async getFleet(name: string): Promise<FleetRecord | undefined> {
    const [row] = await this.db.rows('SELECT * FROM fleets WHERE name = $1', [name]);
    return row ? fleetFromRow(row) : undefined;
  }

  async listFleets(): Promise<FleetRecord[]> {
    return (await this.db.rows('SELECT * FROM fleets ORDER BY updated_at DESC')).map(fleetFromRow);
  }

  async upsertCaptain(fleet: string, name: string, fields: CaptainFields): Promise<FleetCaptainRecord> {
    await this.writeCaptain(fleet, name, fields);
    return (await this.captain(fleet, name)) as FleetCaptainRecord;
  }

  /** A fleet that is not stored is refused (the foreign key) with SQLite's words: errors.ts maps it. */
  async writeCaptain(fleet: string, name: string, fields: CaptainFields): Promise<void> {
    const { text, params } = captainUpsert({ fleet, name, fields, now: this.now() });
    await this.db.run(text, params);
  }

  async captains(fleet: string): Promise<FleetCaptainRecord[]> {
    const rows = await this.db.rows('SELECT * FROM fleet_captains WHERE fleet = $1 ORDER BY name COLLATE "C"', [fleet]);
    return rows.map(captainFromRow);
  }

  async captain(fleet: string, name: string): Promise<FleetCaptainRecord | undefined> {
    const [row] = await this.db.rows('SELECT * FROM fleet_captains WHERE fleet = $1 AND name = $2', [fleet, name]);
    return row ? captainFromRow(row) : undefined;
  }

  async addOrder(input: { fleet: string; captain: string; command: FleetCommand; text?: string }): Promise<FleetOrder> {
    const [row] = await this.db.rows(
      'INSERT INTO fleet_orders (fleet, captain, command, text, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [input.fleet, input.captain, input.command, input.text ?? null, this.now()],
    );
    return orderFromRow(row ?? {});
  }

  /** One statement, so one transaction: the open orders marked taken and handed back; a concurrent taker skips the
   * rows this one holds, so no order is taken twice. */
  async takeOrders(fleet: string): Promise<FleetOrder[]> {
    const rows = await this.db.rows(
      `UPDATE fleet_orders SET taken_at = $2 WHERE id IN (
         SELECT id FROM fleet_orders WHERE fleet = $1 AND taken_at IS NULL ORDER BY id FOR UPDATE SKIP LOCKED
       ) RETURNING *`,
      [fleet, this.now()],
    );
    return rows.map(orderFromRow).sort((a, b) => a.id - b.id);
  }

  async addEvent(input: {
    fleet: string;
    captain?: string;
    kind: FleetEventKind;
    text: string;
    data?: Record<string, unknown>;
  }): Promise<FleetEvent> {
    const [row] = await this.db.rows(
      'INSERT INTO fleet_events (fleet, captain, kind, text, data, at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [input.fleet, input.captain ?? null, input.kind, input.text, JSON.stringify(input.data ?? {}), this.now()],
    );
    return eventFromRow(row ?? {});
  }

  async events(
    fleet: string,
    options: { afterSeq?: number; captain?: string; limit?: number } = {},
  ): Promise<FleetEvent[]> {
    const rows = await this.db.rows(
      `SELECT * FROM fleet_events WHERE fleet = $1 AND seq > $2 AND ($3::text IS NULL OR captain = $3)
       ORDER BY seq LIMIT $4`,
      [fleet, options.afterSeq ?? 0, options.captain || null, options.limit ?? 500],
    );
    return rows.map(eventFromRow);
  }

  async putKnowledge(input: {
    fleet: string;
    kind: string;
    key: string;
    value: unknown;
    captain: string;
    at?: number;
  }): Promise<void> {
    await this.db.run(
      `INSERT INTO fleet_knowledge (fleet, kind, key, value, captain, learned_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (fleet, kind, key) DO UPDATE SET value = EXCLUDED.value, captain = EXCLUDED.captain,
         learned_at = EXCLUDED.learned_at`,
      [input.fleet, input.kind, input.key, JSON.stringify(input.value ?? null), input.captain, input.at ?? this.now()],
    );
  }

  async knowledge(fleet: string, kind?: string): Promise<KnowledgeRecord[]> {
    const rows = await this.db.rows(
      `SELECT * FROM fleet_knowledge WHERE fleet = $1 AND ($2::text IS NULL OR kind = $2)
       ORDER BY kind COLLATE "C", key COLLATE "C"`,
      [fleet, kind || null],
    );
    return rows.map(knowledgeFromRow);
  }

  async sessionCostSince(sessionName: string, sinceMs: number): Promise<number> {
    const [row] = await this.db.rows<{ cost: number }>(
      `SELECT COALESCE(SUM(u.cost_usd), 0) AS cost FROM usage u JOIN sessions s ON s.id = u.session_id
       WHERE s.name = $1 AND u.created_at >= $2`,
      [sessionName, sinceMs],
    );
    return row?.cost ?? 0;
  }
}

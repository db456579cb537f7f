// Fleets in SQLite (fleet-types.ts says what each table is for). Rows are read back through small mappers that never
// throw on a damaged JSON column: a fleet status must show what it can.
import type Database from 'better-sqlite3';
import type {
  CaptainState,
  FleetCaptainRecord,
  FleetCaptainUpdate,
  FleetCommand,
  FleetEvent,
  FleetEventKind,
  FleetOrder,
  FleetRecord,
  FleetState,
  FleetStore,
  KnowledgeRecord,
  LadderStep,
  WatchdogStep,
} from './fleet-types.js';
import { UsageError, argumentsOf } from '../shared/index.js';
import { guardedWrite } from './write-guard.js';

type Row = Record<string, unknown>;

function parseObject(text: unknown): Record<string, unknown> {
  return typeof text === 'string' ? argumentsOf(text) : {};
}

export function parseAny(text: unknown): unknown {
  if (typeof text !== 'string') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function fleetFromRow(row: Row): FleetRecord {
  return {
    name: String(row.name),
    file: String(row.file),
    state: row.state as FleetState,
    pid: num(row.pid),
    host: str(row.host),
    startedAt: Number(row.started_at),
    updatedAt: Number(row.updated_at),
    health: parseObject(row.health),
  };
}

export function captainFromRow(row: Row): FleetCaptainRecord {
  return {
    fleet: String(row.fleet),
    name: String(row.name),
    sessionName: String(row.session_name),
    model: String(row.model),
    state: row.state as CaptainState,
    ladder: row.ladder as LadderStep,
    watchdog: row.watchdog as WatchdogStep,
    costDay: String(row.cost_day),
    costToday: Number(row.cost_today),
    credits: num(row.credits),
    netWorth: num(row.net_worth),
    place: str(row.place),
    tick: num(row.tick),
    actions: Number(row.actions),
    lastAction: str(row.last_action),
    note: str(row.note),
    updatedAt: Number(row.updated_at),
  };
}

export function orderFromRow(row: Row): FleetOrder {
  return {
    id: Number(row.id),
    fleet: String(row.fleet),
    captain: String(row.captain),
    command: row.command as FleetCommand,
    text: str(row.text),
    createdAt: Number(row.created_at),
    takenAt: num(row.taken_at),
  };
}

export function eventFromRow(row: Row): FleetEvent {
  return {
    seq: Number(row.seq),
    fleet: String(row.fleet),
    captain: str(row.captain),
    kind: row.kind as FleetEventKind,
    text: String(row.text),
    data: parseObject(row.data),
    at: Number(row.at),
  };
}

export function knowledgeFromRow(row: Row): KnowledgeRecord {
  return {
    fleet: String(row.fleet),
    kind: String(row.kind),
    key: String(row.key),
    value: parseAny(row.value),
    captain: String(row.captain),
    learnedAt: Number(row.learned_at),
  };
}

/** Column names of the fields a captain update may set. */
export const CAPTAIN_COLUMNS: Record<keyof FleetCaptainUpdate, string> = {
  sessionName: 'session_name',
  model: 'model',
  state: 'state',
  ladder: 'ladder',
  watchdog: 'watchdog',
  costDay: 'cost_day',
  costToday: 'cost_today',
  credits: 'credits',
  netWorth: 'net_worth',
  place: 'place',
  tick: 'tick',
  actions: 'actions',
  lastAction: 'last_action',
  note: 'note',
};

export class SqliteFleetStore implements FleetStore {
  private readonly db: Database.Database;
  private readonly now: () => number;
  private readonly path: string;

  constructor(db: Database.Database, options: { path: string; now: () => number }) {
    this.db = db;
    this.now = options.now;
    this.path = options.path;
  }

  private write(what: string, run: () => unknown): void {
    guardedWrite({ path: this.path, sessionId: what, run });
  }

  /** Statements by their SQL, prepared once: a fleet writes each captain's row about once a second, and its knowledge
   * as it learns. */
  private readonly statements = new Map<string, Database.Statement>();

  private statement(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  startFleet(input: { name: string; file: string; pid: number; host: string }): FleetRecord {
    const now = this.now();
    this.write(input.name, () =>
      this.statement(
        `INSERT INTO fleets (name, file, state, pid, host, started_at, updated_at) VALUES (?, ?, 'running', ?, ?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET file = excluded.file, state = 'running', pid = excluded.pid,
             host = excluded.host, started_at = excluded.started_at, updated_at = excluded.updated_at`,
      ).run(input.name, input.file, input.pid, input.host, now, now),
    );
    return this.getFleet(input.name) as FleetRecord;
  }

  stopFleet(name: string): void {
    this.write(name, () =>
      this.statement(`UPDATE fleets SET state = 'stopped', updated_at = ? WHERE name = ?`).run(this.now(), name),
    );
  }

  setHealth(name: string, health: Record<string, unknown>): void {
    this.write(name, () =>
      this.statement('UPDATE fleets SET health = ?, updated_at = ? WHERE name = ?').run(
        JSON.stringify(health),
        this.now(),
        name,
      ),
    );
  }

  getFleet(name: string): FleetRecord | undefined {
    const row = this.statement('SELECT * FROM fleets WHERE name = ?').get(name) as Row | undefined;
    return row ? fleetFromRow(row) : undefined;
  }

  listFleets(): FleetRecord[] {
    return (this.statement('SELECT * FROM fleets ORDER BY updated_at DESC').all() as Row[]).map(fleetFromRow);
  }

  upsertCaptain(
    fleet: string,
    name: string,
    fields: FleetCaptainUpdate & { sessionName?: string },
  ): FleetCaptainRecord {
    this.writeCaptain(fleet, name, fields);
    return this.captain(fleet, name) as FleetCaptainRecord;
  }

  writeCaptain(fleet: string, name: string, fields: FleetCaptainUpdate & { sessionName?: string }): void {
    // Checked before the write: inside it the foreign key failure would read "no session with id …".
    if (!this.statement('SELECT 1 FROM fleets WHERE name = ?').get(fleet)) {
      throw new UsageError(`no fleet "${fleet}" in the store: start the fleet before adding its captains`);
    }
    const now = this.now();
    const entries = (Object.keys(CAPTAIN_COLUMNS) as Array<keyof FleetCaptainUpdate>)
      .filter((key) => fields[key] !== undefined)
      .map((key) => [CAPTAIN_COLUMNS[key], fields[key]] as const);
    this.write(`${fleet}/${name}`, () =>
      this.db
        .transaction(() => {
          const exists = this.statement('SELECT 1 FROM fleet_captains WHERE fleet = ? AND name = ?').get(
            fleet,
            name,
          ) as Row | undefined;
          if (!exists) {
            this.statement(
              `INSERT INTO fleet_captains (fleet, name, session_name, model, state, updated_at)
                 VALUES (?, ?, ?, ?, ?, ?)`,
            ).run(fleet, name, fields.sessionName ?? name, fields.model ?? 'builtin/autopilot', 'starting', now);
          }
          if (entries.length === 0) return;
          const sets = entries.map(([column]) => `${column} = ?`).join(', ');
          this.statement(`UPDATE fleet_captains SET ${sets}, updated_at = ? WHERE fleet = ? AND name = ?`).run(
            ...entries.map(([, value]) => value),
            now,
            fleet,
            name,
          );
        })
        .immediate(),
    );
  }

  captains(fleet: string): FleetCaptainRecord[] {
    return (this.statement('SELECT * FROM fleet_captains WHERE fleet = ? ORDER BY name').all(fleet) as Row[]).map(
      captainFromRow,
    );
  }

  captain(fleet: string, name: string): FleetCaptainRecord | undefined {
    const row = this.statement('SELECT * FROM fleet_captains WHERE fleet = ? AND name = ?').get(fleet, name) as
      Row | undefined;
    return row ? captainFromRow(row) : undefined;
  }

  addOrder(input: { fleet: string; captain: string; command: FleetCommand; text?: string }): FleetOrder {
    let id = 0;
    this.write(input.fleet, () => {
      const result = this.statement(
        'INSERT INTO fleet_orders (fleet, captain, command, text, created_at) VALUES (?, ?, ?, ?, ?)',
      ).run(input.fleet, input.captain, input.command, input.text ?? null, this.now());
      id = Number(result.lastInsertRowid);
    });
    return orderFromRow(this.statement('SELECT * FROM fleet_orders WHERE id = ?').get(id) as Row);
  }

  takeOrders(fleet: string): FleetOrder[] {
    // Asked twice a second by a running fleet: a plain read first, the write lock only when there is an order.
    if (!this.statement('SELECT 1 FROM fleet_orders WHERE fleet = ? AND taken_at IS NULL LIMIT 1').get(fleet))
      return [];
    let taken: FleetOrder[] = [];
    this.write(fleet, () =>
      this.db
        .transaction(() => {
          const rows = this.statement(
            'SELECT * FROM fleet_orders WHERE fleet = ? AND taken_at IS NULL ORDER BY id',
          ).all(fleet) as Row[];
          if (rows.length === 0) return;
          const now = this.now();
          this.statement('UPDATE fleet_orders SET taken_at = ? WHERE fleet = ? AND taken_at IS NULL AND id <= ?').run(
            now,
            fleet,
            rows.at(-1)?.id,
          );
          taken = rows.map((row) => ({ ...orderFromRow(row), takenAt: now }));
        })
        .immediate(),
    );
    return taken;
  }

  addEvent(input: {
    fleet: string;
    captain?: string;
    kind: FleetEventKind;
    text: string;
    data?: Record<string, unknown>;
  }): FleetEvent {
    let seq = 0;
    this.write(input.fleet, () => {
      const result = this.statement(
        'INSERT INTO fleet_events (fleet, captain, kind, text, data, at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(input.fleet, input.captain ?? null, input.kind, input.text, JSON.stringify(input.data ?? {}), this.now());
      seq = Number(result.lastInsertRowid);
    });
    return eventFromRow(this.statement('SELECT * FROM fleet_events WHERE seq = ?').get(seq) as Row);
  }

  events(fleet: string, options: { afterSeq?: number; captain?: string; limit?: number } = {}): FleetEvent[] {
    const rows = options.captain
      ? this.statement(
          'SELECT * FROM fleet_events WHERE fleet = ? AND seq > ? AND captain = ? ORDER BY seq LIMIT ?',
        ).all(fleet, options.afterSeq ?? 0, options.captain, options.limit ?? 500)
      : this.statement('SELECT * FROM fleet_events WHERE fleet = ? AND seq > ? ORDER BY seq LIMIT ?').all(
          fleet,
          options.afterSeq ?? 0,
          options.limit ?? 500,
        );
    return (rows as Row[]).map(eventFromRow);
  }

  putKnowledge(input: {
    fleet: string;
    kind: string;
    key: string;
    value: unknown;
    captain: string;
    at?: number;
  }): void {
    this.write(input.fleet, () =>
      this.statement(
        `INSERT INTO fleet_knowledge (fleet, kind, key, value, captain, learned_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (fleet, kind, key) DO UPDATE SET value = excluded.value, captain = excluded.captain,
             learned_at = excluded.learned_at`,
      ).run(
        input.fleet,
        input.kind,
        input.key,
        JSON.stringify(input.value ?? null),
        input.captain,
        input.at ?? this.now(),
      ),
    );
  }

  knowledge(fleet: string, kind?: string): KnowledgeRecord[] {
    const rows = kind
      ? this.statement('SELECT * FROM fleet_knowledge WHERE fleet = ? AND kind = ? ORDER BY key').all(fleet, kind)
      : this.statement('SELECT * FROM fleet_knowledge WHERE fleet = ? ORDER BY kind, key').all(fleet);
    return (rows as Row[]).map(knowledgeFromRow);
  }

  sessionCostSince(sessionName: string, sinceMs: number): number {
    const row = this.statement(
      `SELECT COALESCE(SUM(u.cost_usd), 0) AS cost FROM usage u JOIN sessions s ON s.id = u.session_id
         WHERE s.name = ? AND u.created_at >= ?`,
    ).get(sessionName, sinceMs) as { cost: number };
    return row.cost;
  }
}

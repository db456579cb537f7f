// Schema history. `PRAGMA user_version` holds how many migrations a database has had; each migration runs in its own
// transaction together with the version bump, so a crash mid-migration leaves the previous version intact.
// Append new migrations at the end; never edit one that has shipped.
import type Database from 'better-sqlite3';
import { FatalError } from '../shared/index.js';

export interface Migration {
  /** 1-based: the user_version the database has after this migration. */
  version: number;
  description: string;
  up(db: Database.Database): void;
}

const v1: Migration = {
  version: 1,
  description: 'sessions, messages, usage, snapshots, turns, memory, credentials',
  // The first schema is one SQL text of seven tables: a table to read, not logic to follow, and shipped (never edited).
  // eslint-disable-next-line max-lines-per-function
  up(db) {
    db.exec(`
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        model TEXT NOT NULL,
        username TEXT,
        goal TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'active',
        extra TEXT NOT NULL DEFAULT '{}'
      );

      CREATE TABLE messages (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        turn INTEGER,
        round INTEGER,
        role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
        content TEXT NOT NULL,
        tool_calls TEXT,
        tool_call_id TEXT,
        tool_name TEXT,
        data TEXT,
        is_error INTEGER,
        reasoning TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX messages_session_seq ON messages (session_id, seq);

      CREATE TABLE usage (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        turn INTEGER,
        round INTEGER,
        model TEXT NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        cached_tokens INTEGER NOT NULL,
        reasoning_tokens INTEGER NOT NULL,
        cost_usd REAL NOT NULL,
        latency_ms INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX usage_session ON usage (session_id);

      CREATE TABLE snapshots (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        turn INTEGER NOT NULL,
        tick INTEGER NOT NULL,
        credits INTEGER NOT NULL,
        net_worth INTEGER NOT NULL,
        fuel INTEGER NOT NULL,
        max_fuel INTEGER NOT NULL,
        cargo_used INTEGER NOT NULL,
        cargo_capacity INTEGER NOT NULL,
        hull INTEGER NOT NULL,
        max_hull INTEGER NOT NULL,
        system_id TEXT,
        poi_id TEXT,
        docked INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (session_id, turn)
      );

      CREATE TABLE turns (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        turn INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        tool_calls INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        ended_at INTEGER NOT NULL,
        input_kind TEXT NOT NULL,
        PRIMARY KEY (session_id, turn)
      );

      CREATE TABLE memory (
        id INTEGER PRIMARY KEY,
        captain TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('note', 'episode', 'lesson', 'handoff')),
        text TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        outcome TEXT CHECK (outcome IN ('success', 'failure')),
        evidence TEXT,
        uses INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER
      );
      CREATE INDEX memory_captain_kind ON memory (captain, kind);

      CREATE TABLE credentials (
        game_url TEXT NOT NULL,
        username TEXT NOT NULL,
        password TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (game_url, username)
      );
    `);
  },
};

const v2: Migration = {
  version: 2,
  description: 'model requests (content-addressed contexts) and counterfactual replays',
  up(db) {
    // Each distinct context piece (one message as sent, or a whole tool list) is stored once, by the SHA-256 of its
    // JSON text, deflated (raw deflate: ~40% smaller); a request is a list of piece ids. Consecutive rounds share
    // almost every message, so a request costs a row of small integers plus the few pieces that are new since the
    // last one.
    db.exec(`
      CREATE TABLE context_blobs (
        id INTEGER PRIMARY KEY,
        hash BLOB NOT NULL UNIQUE,
        body BLOB NOT NULL
      );

      CREATE TABLE requests (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        turn INTEGER NOT NULL,
        round INTEGER NOT NULL,
        attempt INTEGER NOT NULL,
        model TEXT NOT NULL,
        message_ids TEXT NOT NULL,
        tools_id INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('reply', 'empty', 'error')),
        created_at INTEGER NOT NULL
      );
      CREATE INDEX requests_session_turn ON requests (session_id, turn, round, attempt);

      CREATE TABLE counterfactuals (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        prompt TEXT,
        from_turn INTEGER,
        to_turn INTEGER,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted', 'failed')),
        created_at INTEGER NOT NULL,
        ended_at INTEGER
      );
      CREATE INDEX counterfactuals_session ON counterfactuals (session_id);

      CREATE TABLE counterfactual_decisions (
        counterfactual_id INTEGER NOT NULL REFERENCES counterfactuals(id) ON DELETE CASCADE,
        request_id INTEGER NOT NULL,
        turn INTEGER NOT NULL,
        round INTEGER NOT NULL,
        verdict TEXT NOT NULL CHECK (verdict IN ('same', 'same-action', 'different', 'invalid', 'failed')),
        original TEXT NOT NULL,
        proposed TEXT NOT NULL,
        problems TEXT NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        cost_usd REAL NOT NULL,
        latency_ms INTEGER NOT NULL,
        PRIMARY KEY (counterfactual_id, request_id)
      );

      -- Pieces are shared between requests and sessions: when a session goes, the ones nothing refers to any more go
      -- with it (its requests are deleted first, whatever order the cascade would have taken).
      CREATE TRIGGER sessions_drop_contexts AFTER DELETE ON sessions BEGIN
        DELETE FROM requests WHERE session_id = OLD.id;
        DELETE FROM context_blobs WHERE id NOT IN (
          SELECT tools_id FROM requests
          UNION SELECT CAST(value AS INTEGER) FROM requests, json_each(requests.message_ids)
        );
      END;
    `);
  },
};

const v3: Migration = {
  version: 3,
  description: 'session leases (one writer per session, rule 19)',
  up(db) {
    // No foreign key to sessions: a new session is leased while it is still a draft, before its row is written.
    db.exec(`
      CREATE TABLE session_leases (
        session_id TEXT PRIMARY KEY,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        token TEXT NOT NULL,
        taken_at INTEGER NOT NULL,
        renewed_at INTEGER NOT NULL
      );
    `);
  },
};

const v4: Migration = {
  version: 4,
  description: 'fleets: captains leased by a fleet runner, orders, events, shared knowledge',
  up(db) {
    // A fleet's captains point at their sessions by name (a captain's session may not exist yet when it is listed).
    db.exec(`
      CREATE TABLE fleets (
        name TEXT PRIMARY KEY,
        file TEXT NOT NULL,
        state TEXT NOT NULL,
        pid INTEGER,
        host TEXT,
        started_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        health TEXT NOT NULL DEFAULT '{}'
      );

      CREATE TABLE fleet_captains (
        fleet TEXT NOT NULL REFERENCES fleets(name) ON DELETE CASCADE,
        name TEXT NOT NULL,
        session_name TEXT NOT NULL,
        model TEXT NOT NULL,
        state TEXT NOT NULL,
        ladder TEXT NOT NULL DEFAULT 'model',
        watchdog TEXT NOT NULL DEFAULT 'ok',
        cost_day TEXT NOT NULL DEFAULT '',
        cost_today REAL NOT NULL DEFAULT 0,
        credits INTEGER,
        net_worth INTEGER,
        place TEXT,
        tick INTEGER,
        actions INTEGER NOT NULL DEFAULT 0,
        last_action TEXT,
        note TEXT,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (fleet, name)
      );

      CREATE TABLE fleet_orders (
        id INTEGER PRIMARY KEY,
        fleet TEXT NOT NULL,
        captain TEXT NOT NULL,
        command TEXT NOT NULL CHECK (command IN ('stop', 'park', 'resume', 'order')),
        text TEXT,
        created_at INTEGER NOT NULL,
        taken_at INTEGER
      );
      CREATE INDEX fleet_orders_open ON fleet_orders (fleet, taken_at);

      CREATE TABLE fleet_events (
        seq INTEGER PRIMARY KEY,
        fleet TEXT NOT NULL,
        captain TEXT,
        kind TEXT NOT NULL,
        text TEXT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}',
        at INTEGER NOT NULL
      );
      CREATE INDEX fleet_events_fleet ON fleet_events (fleet, seq);

      CREATE TABLE fleet_knowledge (
        fleet TEXT NOT NULL,
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        captain TEXT NOT NULL,
        learned_at INTEGER NOT NULL,
        PRIMARY KEY (fleet, kind, key)
      );
    `);
  },
};

const v5: Migration = {
  version: 5,
  description: 'context recipes: requests of a captain handed only the latest turns',
  up(db) {
    // A request of the built-in autopilot keeps its system message as a piece and, here, how the rest of the context a
    // model would have been sent is rebuilt from the transcript (ContextRecipe, as JSON). NULL: the pieces are it all.
    db.exec('ALTER TABLE requests ADD COLUMN recipe TEXT');
  },
};

/** Every migration, in order. The last one's version is the schema version this build writes. */
export const migrations: readonly Migration[] = [v1, v2, v3, v4, v5];

/** 'SKPR': marks a file as a Skipper database (PRAGMA application_id), set with every migration. */
export const applicationId = 0x534b5052;

export const schemaVersion: number = migrations.length;

/** Tables a Skipper database has once migrated to the current version (used to tell a foreign database apart). */
export const knownTables: readonly string[] = [
  'sessions',
  'messages',
  'usage',
  'snapshots',
  'turns',
  'memory',
  'credentials',
  'context_blobs',
  'requests',
  'counterfactuals',
  'counterfactual_decisions',
  'session_leases',
  'fleets',
  'fleet_captains',
  'fleet_orders',
  'fleet_events',
  'fleet_knowledge',
];

/**
 * Brings `db` from its user_version up to the last of `list`. Returns the versions applied.
 * Callers have already refused databases newer than `list` knows.
 */
export function migrate(db: Database.Database, list: readonly Migration[] = migrations): number[] {
  list.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new FatalError('store_migrations', `migration ${index + 1} is numbered ${migration.version}; fix the list`);
    }
  });
  const applied: number[] = [];
  const current = Number(db.pragma('user_version', { simple: true }));
  for (const migration of list.slice(current)) {
    // user_version is transactional in SQLite: it commits or rolls back with the schema change.
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
      db.pragma(`application_id = ${applicationId}`);
    }).immediate();
    applied.push(migration.version);
  }
  return applied;
}

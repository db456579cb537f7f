// One migration list, two engines (rule 21): the same schema version means the same tables and columns on both. A
// real SQLite file and a real PostgreSQL schema, each migrated by its own store, are compared table by table: the
// same tables, the same columns in the same order, each column's type of the same family (INTEGER ~ BIGINT, REAL ~
// DOUBLE PRECISION, TEXT ~ TEXT, BLOB ~ BYTEA) and the same NOT NULL. Where the engines differ on purpose, the
// difference is listed here with its reason, so a new one cannot slip in unseen.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../internal/store/migrations.js';
import { openPgStore } from '../../internal/store/pg/store.js';
import { SqliteStore } from '../../internal/store/sqlite/store.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason, testDatabaseUrl } from './pg-test-db.js';

const skipReason = pgSkipReason();
if (skipReason) console.warn(skipReason);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-parity-'));
const schemas: string[] = [];
afterAll(async () => {
  fs.rmSync(root, { recursive: true, force: true });
  await dropSchemas(schemas);
});

interface Column {
  name: string;
  family: string;
  notNull: boolean;
}

/** Differences the migration list makes on purpose, by `table.column`. */
const deliberate: Record<string, { sqlite: string | undefined; postgres: string | undefined; why: string }> = {
  'credentials.rowid': {
    sqlite: undefined,
    postgres: 'integer',
    why: "SQLite's implicit row number, which the credentials queries order by: PostgreSQL has no such thing",
  },
  'usage.latency_ms': {
    sqlite: 'integer',
    postgres: 'real',
    why: 'PostgreSQL keeps a duration as DOUBLE PRECISION; both stores write whole milliseconds (Math.round)',
  },
  'counterfactual_decisions.latency_ms': {
    sqlite: 'integer',
    postgres: 'real',
    why: 'as usage.latency_ms',
  },
};

function family(type: string): string {
  const lower = type.toLowerCase();
  if (lower === 'integer' || lower === 'bigint') return 'integer';
  if (lower === 'real' || lower === 'double precision') return 'real';
  if (lower === 'text') return 'text';
  if (lower === 'blob' || lower === 'bytea') return 'blob';
  return `unknown (${type})`;
}

function sqliteSchema(file: string): Map<string, Column[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .all() as Array<{ name: string }>;
    return new Map(
      tables.map(({ name }) => {
        const info = db.pragma(`table_info(${name})`) as Array<{
          name: string;
          type: string;
          notnull: number;
          pk: number;
        }>;
        // An INTEGER PRIMARY KEY is SQLite's row id: never NULL, whatever table_info says.
        const columns = info.map((column) => ({
          name: column.name,
          family: family(column.type),
          notNull: column.notnull === 1 || column.pk > 0,
        }));
        return [name, columns];
      }),
    );
  } finally {
    db.close();
  }
}

async function postgresSchema(schema: string): Promise<Map<string, Column[]>> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    const result = await client.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
    }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_schema = $1 AND table_name <> 'skipper_schema' ORDER BY table_name, ordinal_position`,
      [schema],
    );
    const tables = new Map<string, Column[]>();
    for (const row of result.rows) {
      const columns = tables.get(row.table_name) ?? [];
      columns.push({ name: row.column_name, family: family(row.data_type), notNull: row.is_nullable === 'NO' });
      tables.set(row.table_name, columns);
    }
    return tables;
  } finally {
    await client.end();
  }
}

/** A table's columns with the deliberate differences of one engine taken out. */
function comparable(table: string, columns: Column[], engine: 'sqlite' | 'postgres'): Column[] {
  return columns
    .filter((column) => {
      const known = deliberate[`${table}.${column.name}`];
      return known === undefined || known[engine] === undefined || known.sqlite !== undefined;
    })
    .map((column) => {
      const known = deliberate[`${table}.${column.name}`];
      return known?.sqlite !== undefined && known.postgres !== undefined ? { ...column, family: 'deliberate' } : column;
    });
}

describe.skipIf(skipReason !== undefined)('one schema on both engines', () => {
  it('the same schema version means the same tables, columns, type families and NOT NULLs', async () => {
    const file = path.join(root, 'skipper.db');
    const sqlite = new SqliteStore({ path: file });
    const { url, schema } = freshSchemaUrl();
    schemas.push(schema);
    const postgres = await openPgStore({ url });
    try {
      expect(await sqlite.schemaVersion()).toBe(migrations.length);
      expect(await postgres.schemaVersion()).toBe(await sqlite.schemaVersion());
    } finally {
      await sqlite.close();
      await postgres.close();
    }
    const left = sqliteSchema(file);
    const right = await postgresSchema(schema);
    expect([...right.keys()].sort()).toEqual([...left.keys()].sort());
    for (const [table, columns] of left) {
      expect({ table, columns: comparable(table, right.get(table) ?? [], 'postgres') }).toEqual({
        table,
        columns: comparable(table, columns, 'sqlite'),
      });
    }
    // Every deliberate difference is still there (one that went away should leave this list).
    for (const [where, known] of Object.entries(deliberate)) {
      const [table = '', column = ''] = where.split('.');
      expect(left.get(table)?.find((entry) => entry.name === column)?.family, where).toBe(known.sqlite);
      expect(right.get(table)?.find((entry) => entry.name === column)?.family, where).toBe(known.postgres);
    }
  });
});

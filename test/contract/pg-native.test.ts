// What only the PostgreSQL store has to get right, on a real server: migrations from the one list (workers starting
// together migrate once; a store of the old numbering — its 5 the captain leases, its 6 recipes — brought to today's;
// a newer database refused untouched; a read-only handle that migrates nothing), the group commit writing a tick's
// appends in one transaction, and an open that fails saying in one line what to check, never with the password.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { FatalError } from '../../internal/shared/index.js';
import type { Store } from '../../internal/store/contract.js';
import { migrations } from '../../internal/store/migrations.js';
import { openPgStore } from '../../internal/store/pg/store.js';
import { passwordRefusingServer } from './pg-fakes.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason, testDatabaseUrl } from './pg-test-db.js';

const skipReason = pgSkipReason();
if (skipReason) console.warn(skipReason);
const schemas: string[] = [];
const stores: Store[] = [];
const password = 'hunter2-pg-secret';

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});
afterAll(() => dropSchemas(schemas));

function freshSchema(): { url: string; schema: string } {
  const fresh = freshSchemaUrl();
  schemas.push(fresh.schema);
  return fresh;
}

async function open(url: string, readonly = false): Promise<Store> {
  const store = await openPgStore({ url, poolSize: 3, ...(readonly ? { readonly } : {}) });
  stores.push(store);
  return store;
}

/** A client of the test's own, in `schema`. */
async function withClient<T>(schema: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`SET search_path TO ${schema}`);
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A store as PostgreSQL's stores were made before the migration list was one: steps 1–4 as today, then their own 5
 * (captain leases with a fencing trigger) and, at `version` 6, their 6 (the recipe column). */
async function oldNumberedSchema(schema: string, version: 5 | 6): Promise<void> {
  await withClient(schema, async (client) => {
    for (const migration of migrations.slice(0, 4)) await client.query(migration.postgres);
    await client.query(`
      CREATE TABLE captain_leases (
        fleet TEXT NOT NULL, captain TEXT NOT NULL, session_name TEXT NOT NULL, epoch BIGINT NOT NULL,
        host TEXT NOT NULL, pid BIGINT NOT NULL, worker TEXT NOT NULL, taken_at BIGINT NOT NULL,
        PRIMARY KEY (fleet, captain)
      );
      CREATE INDEX captain_leases_session ON captain_leases (session_name);
      CREATE FUNCTION skipper_fence() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE lease captain_leases%ROWTYPE;
      BEGIN
        SELECT * INTO lease FROM captain_leases LIMIT 1;
        RETURN NEW;
      END $$;
      CREATE TRIGGER messages_fence BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION skipper_fence();
      CREATE TRIGGER sessions_fence BEFORE INSERT OR UPDATE ON sessions FOR EACH ROW EXECUTE FUNCTION skipper_fence();
      CREATE TRIGGER fleet_captains_fence BEFORE INSERT OR UPDATE ON fleet_captains
        FOR EACH ROW EXECUTE FUNCTION skipper_fence();
      INSERT INTO captain_leases VALUES ('f', 'ada', 'f-ada', 3, 'h', 1, 'w', 1);
      INSERT INTO sessions (id, name, game, model, created_at, updated_at) VALUES ('old-1', 'old', 'embedded', 'm', 1, 1);
      INSERT INTO messages (id, session_id, role, content, created_at) VALUES ('m1', 'old-1', 'user', 'from before', 1);
    `);
    if (version === 6) await client.query('ALTER TABLE requests ADD COLUMN recipe TEXT');
    await client.query('CREATE TABLE skipper_schema (version BIGINT NOT NULL, application TEXT NOT NULL)');
    await client.query(`INSERT INTO skipper_schema VALUES ($1, 'skipper')`, [version]);
  });
}

async function tablesOf(schema: string): Promise<string[]> {
  return withClient(schema, async (client) => {
    const result = await client.query<{ name: string }>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
      [schema],
    );
    return result.rows.map((row) => row.name);
  });
}

describe.skipIf(skipReason !== undefined)('postgres store: migrations', () => {
  it('workers opening a fresh schema together migrate it once', async () => {
    const { url, schema } = freshSchema();
    const opened = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    for (const store of opened) expect(await store.schemaVersion()).toBe(migrations.length);
    const rows = await withClient(schema, async (client) => (await client.query('SELECT * FROM skipper_schema')).rows);
    expect(rows).toEqual([{ version: String(migrations.length), application: 'skipper' }]);
  });

  for (const version of [5, 6] as const) {
    it(`brings a store of the old numbering (its version ${version}) to today's, keeping its rows`, async () => {
      const { url, schema } = freshSchema();
      await oldNumberedSchema(schema, version);
      const store = await open(url);
      expect(await store.schemaVersion()).toBe(migrations.length);
      const tables = await tablesOf(schema);
      expect(tables).toContain('leases');
      expect(tables).not.toContain('captain_leases');
      // The old fence is gone with its table: writes pass, and the rows from before are there.
      const session = await store.getSession('old');
      await store.append(session.id, { role: 'user', content: 'after', turn: 1 });
      expect((await store.messages(session.id)).map((message) => message.content)).toEqual(['from before', 'after']);
      const taken = await store.takeLease('captain:f/ada', { pid: 1, host: 'h', token: 't' }, { ttlMs: 1000 });
      expect(taken.taken).toBe(true);
      const { id } = await store.createSession({ game: 'embedded', model: 'm' });
      const recipe = JSON.stringify({ through: null, start: null, budgetTokens: 1, compaction: 0, local: [] });
      const request = await store.requests.record({
        sessionId: id,
        turn: 1,
        round: 1,
        attempt: 1,
        model: 'm',
        messages: [],
        tools: '[]',
        outcome: 'reply',
        recipe,
      });
      expect((await store.requests.load(request)).recipe).toEqual(JSON.parse(recipe));
      // Opened again: nothing left to do, nothing redone.
      const again = await open(url);
      expect(await again.schemaVersion()).toBe(migrations.length);
    });
  }

  it('refuses a database made by a newer Skipper and leaves it untouched', async () => {
    const { url, schema } = freshSchema();
    await withClient(schema, async (client) => {
      await client.query('CREATE TABLE skipper_schema (version BIGINT NOT NULL, application TEXT NOT NULL)');
      await client.query(`INSERT INTO skipper_schema VALUES (99, 'skipper')`);
    });
    const error = await openPgStore({ url }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FatalError);
    expect(error).toMatchObject({ code: 'store_newer', message: expect.stringMatching(/schema version 99/) });
    expect(await tablesOf(schema)).toEqual(['skipper_schema']);
  });

  it('a read-only handle migrates nothing: an old schema is refused, a current one read', async () => {
    const { url, schema } = freshSchema();
    await expect(openPgStore({ url, readonly: true })).rejects.toMatchObject({ code: 'store_old' });
    expect(await tablesOf(schema)).toEqual([]);
    const writer = await open(url);
    await writer.createSession({ name: 'kept', game: 'embedded', model: 'm' });
    const reader = await open(url, true);
    expect((await reader.listSessions()).map((row) => row.session.name)).toEqual(['kept']);
    await expect(reader.createSession({ game: 'embedded', model: 'm' })).rejects.toMatchObject({
      code: 'store_write',
    });
  });
});

describe.skipIf(skipReason !== undefined)('postgres store: group commit', () => {
  it("writes a tick's appends, from many sessions, in one transaction", async () => {
    const { url, schema } = freshSchema();
    const store = await open(url);
    const sessions = await Promise.all(Array.from({ length: 5 }, () => store.createSession({ game: 'e', model: 'm' })));
    await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        store.append(sessions[index % 5]?.id ?? '', { role: 'user', content: `m${index}` }),
      ),
    );
    const transactions = await withClient(schema, async (client) => {
      const result = await client.query<{ n: string }>('SELECT COUNT(DISTINCT xmin::text) AS n FROM messages');
      return Number(result.rows[0]?.n);
    });
    expect(transactions).toBe(1);
  });

  it("a fleet's store writes a tick's usage rows, from many sessions, together and in the order handed in", async () => {
    const { url, schema } = freshSchema();
    const store = await openPgStore({ url, poolSize: 3, groupRecords: true });
    stores.push(store);
    const sessions = await Promise.all(Array.from({ length: 3 }, () => store.createSession({ game: 'e', model: 'm' })));
    await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        store.recordUsage({
          sessionId: sessions[index % 3]?.id ?? '',
          turn: index,
          round: 1,
          model: `m${index}`,
          usage: { promptTokens: index, completionTokens: 1, cachedTokens: 0, costUsd: index / 1000 },
          latencyMs: 12.4,
        }),
      ),
    );
    const rows = await withClient(schema, async (client) => {
      const result = await client.query<{ model: string; cost: number; latency: number; tx: string }>(
        'SELECT model, cost_usd AS cost, latency_ms AS latency, xmin::text AS tx FROM usage ORDER BY id',
      );
      return result.rows;
    });
    expect(rows.map((row) => row.model)).toEqual(Array.from({ length: 30 }, (_, index) => `m${index}`));
    expect(rows[7]).toMatchObject({ cost: 0.007, latency: 12 });
    expect(new Set(rows.map((row) => row.tx)).size).toBe(1);
    expect((await store.usageTotals(sessions[0]?.id ?? '')).calls).toBe(10);
  });

  it("writes a round's model request, its usage and its transcript line in one transaction", async () => {
    const { url, schema } = freshSchema();
    const store = await openPgStore({ url, poolSize: 3, groupRecords: true });
    stores.push(store);
    const session = await store.createSession({ game: 'e', model: 'm' });
    const request = { sessionId: session.id, turn: 1, round: 1, attempt: 1, model: 'm', outcome: 'reply' as const };
    // As a round ends: the request as sent, its usage, its reply (a fleet's store groups the usage row).
    store.requests.recordSoon({ ...request, messages: ['{"role":"user","content":"mine"}'], tools: '[]' });
    await Promise.all([
      store.recordUsage({
        sessionId: session.id,
        turn: 1,
        round: 1,
        model: 'm',
        usage: { promptTokens: 5, completionTokens: 1, cachedTokens: 0, costUsd: 0 },
      }),
      store.append(session.id, { role: 'assistant', content: 'mining', turn: 1, round: 1 }),
    ]);
    await store.flush();
    const transactions = await withClient(schema, async (client) => {
      const result = await client.query<{ xmin: string }>(
        `SELECT xmin::text FROM messages UNION SELECT xmin::text FROM usage UNION SELECT xmin::text FROM requests
         UNION SELECT xmin::text FROM context_blobs`,
      );
      return result.rows.length;
    });
    expect(transactions).toBe(1);
  });
});

describe.skipIf(skipReason !== undefined)('postgres store: opening', () => {
  const oneLine = (error: unknown): string => (error as Error).message;

  it('a server that is not there: a one-line FatalError naming what to check, without the password', async () => {
    const error = await openPgStore({ url: `postgres://skipper:${password}@127.0.0.1:1/none` }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FatalError);
    expect(error).toMatchObject({ code: 'store_open' });
    expect(oneLine(error)).toMatch(
      /^cannot connect to PostgreSQL at postgres:\/\/skipper:\*\*\*@127\.0\.0\.1:1\/none: /,
    );
    expect(oneLine(error)).toMatch(/SKIPPER_DATABASE_URL/);
    expect(oneLine(error)).not.toContain(password);
    expect(oneLine(error)).not.toContain('\n');
  });

  it('a wrong password: the server says so, in one line, without the password', async () => {
    const server = await passwordRefusingServer();
    try {
      const error = await openPgStore({ url: `postgres://skipper:${password}@127.0.0.1:${server.port}/db` }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: 'store_open' });
      expect(oneLine(error)).toMatch(/password authentication failed for user "skipper"/);
      expect(oneLine(error)).not.toContain(password);
      expect(oneLine(error)).not.toContain('\n');
    } finally {
      await server.close();
    }
  });

  it('a database or a user the server does not know', async () => {
    const url = new URL(testDatabaseUrl ?? '');
    url.pathname = `/no_such_db_${randomBytes(3).toString('hex')}`;
    await expect(openPgStore({ url: url.toString() })).rejects.toMatchObject({
      code: 'store_open',
      message: expect.stringMatching(/does not exist/),
    });
    const user = new URL(testDatabaseUrl ?? '');
    user.username = 'no_such_user';
    user.password = password;
    const error = await openPgStore({ url: user.toString() }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'store_open', message: expect.stringMatching(/no_such_user/) });
    expect(oneLine(error)).not.toContain(password);
  });
});

describe.skipIf(skipReason !== undefined)('postgres store: leases and passwords across hosts', () => {
  it("judges deadlines by the database's clock: hosts whose clocks are hours apart agree", async () => {
    const { url } = freshSchema();
    const behind = await openPgStore({ url, now: () => Date.now() - 3 * 3_600_000 });
    const ahead = await openPgStore({ url, now: () => Date.now() + 3 * 3_600_000 });
    stores.push(behind, ahead);
    const taken = await behind.takeLease('captain:f/ada', { pid: 1, host: 'a', token: 'a' }, { ttlMs: 60_000 });
    if (!taken.taken) throw new Error('not taken');
    // The lease's times are the server's, not the taker's clock (three hours behind).
    expect(Math.abs(taken.lease.takenAt - Date.now())).toBeLessThan(60_000);
    // A host three hours ahead does not think it expired.
    expect((await ahead.takeLease('captain:f/ada', { pid: 2, host: 'b', token: 'b' }, { ttlMs: 60_000 })).taken).toBe(
      false,
    );
    const renewed = await behind.renewLease(taken.lease, { ttlMs: 60_000 });
    expect(Math.abs((renewed?.renewedAt ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it("reads other processes' passwords in the background while open", async () => {
    const { url } = freshSchema();
    const store = await openPgStore({ url, passwordRefreshMs: 50 });
    const other = await open(url);
    stores.push(store);
    await other.credentials.put('g', 'ada', 'pw-from-elsewhere');
    await vi.waitFor(() => expect(store.credentials.passwordList()).toEqual(['pw-from-elsewhere']), {
      timeout: 5_000,
      interval: 20,
    });
  });
});

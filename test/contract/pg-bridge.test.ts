// The synchronous bridge to PostgreSQL on its own: results, server errors with their SQLSTATE, a statement that
// outlives its deadline, a worker thread that dies mid-call and a server that is not there: each a clear
// SkipperError within its deadline, never a hang; after a timeout or a death every later call fails at once.
import { afterEach, describe, expect, it } from 'vitest';
import { SkipperError } from '../../internal/shared/index.js';
import { PgStatementError, SyncBridge } from '../../internal/store/pg/bridge.js';
import { openStore } from '../../internal/store/index.js';
import { pgSkipReason, testDatabaseUrl } from './pg-test-db.js';

const skipReason = pgSkipReason();
if (skipReason) console.warn(skipReason);

const bridges: SyncBridge[] = [];
afterEach(() => {
  for (const bridge of bridges.splice(0)) bridge.close();
});

function open(timeoutMs?: number): SyncBridge {
  const bridge = new SyncBridge({
    url: testDatabaseUrl ?? '',
    label: 'test',
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  bridges.push(bridge);
  return bridge;
}

describe.skipIf(skipReason !== undefined)('pg bridge', () => {
  it('answers a query and a script synchronously, rows as objects or arrays', () => {
    const bridge = open();
    expect(bridge.query({ sql: 'SELECT $1::int + 1 AS n', params: [41] }).rows).toEqual([{ n: 42 }]);
    expect(bridge.query({ sql: 'SELECT 1, 2', raw: true }).rows).toEqual([[1, 2]]);
    const results = bridge.script([{ sql: 'SELECT 1 AS a' }, { sql: 'SELECT 2::bigint AS b' }]);
    expect(results.map((result) => result.rows[0])).toEqual([{ a: 1 }, { b: 2 }]);
    expect(bridge.backendPid).toBeGreaterThan(0);
  });

  it('a server error carries its SQLSTATE and leaves the bridge usable', () => {
    const bridge = open();
    let caught: unknown;
    try {
      bridge.query({ sql: 'SELECT * FROM no_such_table' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PgStatementError);
    expect((caught as PgStatementError).code).toBe('42P01');
    expect(bridge.query({ sql: 'SELECT 1 AS ok' }).rows).toEqual([{ ok: 1 }]);
  });

  it('a call past its deadline is a timeout error, and the bridge is broken after it', () => {
    // A deadline that leaves a busy machine room to connect; without it the 5 s sleep would answer.
    const bridge = open(2000);
    expect(() => bridge.query({ sql: 'SELECT pg_sleep(5)' })).toThrow(
      expect.objectContaining({
        code: 'timeout',
        message: expect.stringMatching(/did not answer query within 2000 ms/),
      }),
    );
    expect(bridge.broken).toBe(true);
    expect(() => bridge.query({ sql: 'SELECT 1' })).toThrow(SkipperError);
  });

  it('a worker that dies mid-call is a store_connection error at once, not a wait for the deadline', () => {
    // A deadline twice the test's timeout: only noticing the death at once ends the call in time.
    const bridge = open(60_000);
    expect(() => bridge.fault('die')).toThrow(expect.objectContaining({ code: 'store_connection' }));
    expect(() => bridge.query({ sql: 'SELECT 1' })).toThrow(expect.objectContaining({ code: 'store_connection' }));
  });

  it('a worker that never answers is a timeout, not a hang', () => {
    // A deadline that leaves a busy machine room to connect (the connect is held to it too).
    const bridge = open(2000);
    expect(() => bridge.fault('hang')).toThrow(
      expect.objectContaining({
        code: 'timeout',
        message: expect.stringMatching(/did not answer hang within 2000 ms/),
      }),
    );
  });

  it('a connection the server kills is a store_connection error', () => {
    const bridge = open();
    const killer = open();
    killer.query({ sql: 'SELECT pg_terminate_backend($1)', params: [bridge.backendPid] });
    expect(() => bridge.query({ sql: 'SELECT 1' })).toThrow(expect.objectContaining({ code: 'store_connection' }));
    expect(bridge.broken).toBe(true);
  });

  it('a server that is not there fails the open with what to check', () => {
    expect(() => openStore({ path: 'postgres://nobody@127.0.0.1:1/none' })).toThrow(
      expect.objectContaining({ code: 'store_open', message: expect.stringMatching(/SKIPPER_DATABASE_URL/) }),
    );
  });

  it('a password in the URL never reaches the store path or an error', () => {
    let message = '';
    try {
      openStore({ path: 'postgres://u:hunter2secret@127.0.0.1:1/none' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('u:***@');
    expect(message).not.toContain('hunter2secret');
  });
});

// appendCommitted: a message is durable when its promise resolves (rule 13), committed in one transaction with the
// others handed in meanwhile, by any session; a failed batch costs no other message; closing commits what waits.
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SkipperError, UsageError, silentLogger } from '../../../internal/shared/index.js';
import { openStore, type Store } from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function open(file: string): Store {
  const store = openStore({ path: file });
  opened.push(store);
  return store;
}

/** What another connection sees committed: message ids in order, per session. */
function committed(file: string): Record<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare('SELECT session_id, id FROM messages ORDER BY seq').all() as Array<{
      session_id: string;
      id: string;
    }>;
    const out: Record<string, string[]> = {};
    for (const row of rows) (out[row.session_id] ??= []).push(row.id);
    return out;
  } finally {
    db.close();
  }
}

const user = (id: string, content = 'go'): { id: string; role: 'user'; content: string; createdAt: number } => ({
  id,
  role: 'user',
  content,
  createdAt: 1,
});

describe('appendCommitted (group commit)', () => {
  it('commits every session’s messages together, in order, once the loop turns; each resolves committed', async () => {
    const { file } = tempDbPath();
    const store = open(file);
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const b = store.createSession({ name: 'b', game: 'embedded', model: 'm' });
    const writes = [
      store.appendCommitted(a.id, user('a1')),
      store.appendCommitted(b.id, user('b1')),
      store.appendCommitted(a.id, user('a2')),
    ];
    // Nothing is written while the callers are still running: the batch commits after them.
    expect(committed(file)).toEqual({});
    const stored = await Promise.all(writes);
    expect(stored.map((message) => message.id)).toEqual(['a1', 'b1', 'a2']);
    expect(committed(file)).toEqual({ [a.id]: ['a1', 'a2'], [b.id]: ['b1'] });
    expect(store.messages(a.id).map((message) => message.content)).toEqual(['go', 'go']);
  });

  it('one bad message in a batch is refused alone; the others are committed', async () => {
    const { file } = tempDbPath();
    const store = open(file);
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    store.append(a.id, user('taken'));
    const results = await Promise.allSettled([
      store.appendCommitted(a.id, user('ok1')),
      store.appendCommitted(a.id, user('taken', 'again')),
      store.appendCommitted('no-such-session', user('lost')),
      store.appendCommitted(a.id, user('ok2')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    const duplicate = (results[1] as PromiseRejectedResult).reason as SkipperError;
    expect(duplicate).toBeInstanceOf(SkipperError);
    expect(duplicate.code).toBe('store_duplicate');
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(UsageError);
    expect(committed(file)).toEqual({ [a.id]: ['taken', 'ok1', 'ok2'] });
  });

  it('closing the store commits the messages still waiting, and their callers hear so', async () => {
    const { file } = tempDbPath();
    const store = openStore({ path: file });
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const write = store.appendCommitted(a.id, user('last words'));
    store.close();
    await expect(write).resolves.toMatchObject({ id: 'last words' });
    expect(committed(file)).toEqual({ [a.id]: ['last words'] });
  });
});

describe('groupRecords (a fleet’s store)', () => {
  /** Rows another connection sees committed in a table of records, for one session. */
  const rows = (file: string, table: 'usage' | 'snapshots' | 'turns'): number => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const snapshot = (sessionId: string) => ({
    sessionId,
    turn: 1,
    tick: 4,
    credits: 100,
    netWorth: 100,
    fuel: 10,
    maxFuel: 10,
    cargoUsed: 0,
    cargoCapacity: 20,
    hull: 100,
    maxHull: 100,
    systemId: null,
    poiId: null,
    docked: false,
  });
  const turn = (sessionId: string) => ({
    sessionId,
    turn: 1,
    outcome: 'answered' as const,
    rounds: 1,
    toolCalls: 0,
    startedAt: 1,
    endedAt: 2,
    inputKind: 'autoplay' as const,
  });
  const usage = (sessionId: string, round: number) => ({
    sessionId,
    turn: 1,
    round,
    model: 'builtin/autopilot',
    usage: { promptTokens: 10, completionTokens: 2, cachedTokens: 0, costUsd: 0.5 },
  });

  it('writes usage, snapshot and turn rows with the messages of the loop turn, in one commit after it', async () => {
    const { file } = tempDbPath();
    const store = openStore({ path: file, groupRecords: true });
    opened.push(store);
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const message = store.appendCommitted(a.id, user('a1'));
    store.recordUsage(usage(a.id, 1));
    store.recordSnapshot(snapshot(a.id));
    store.recordTurn(turn(a.id));
    expect([rows(file, 'usage'), rows(file, 'snapshots'), rows(file, 'turns')]).toEqual([0, 0, 0]);
    await message;
    expect([rows(file, 'usage'), rows(file, 'snapshots'), rows(file, 'turns')]).toEqual([1, 1, 1]);
    expect(committed(file)).toEqual({ [a.id]: ['a1'] });
  });

  it('a read of the records commits what waits first; closing commits the rest', () => {
    const { file } = tempDbPath();
    const store = openStore({ path: file, groupRecords: true });
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    store.recordUsage(usage(a.id, 1));
    expect(store.usageTotals(a.id)).toMatchObject({ calls: 1, promptTokens: 10, costUsd: 0.5 });
    store.recordSnapshot(snapshot(a.id));
    expect(store.snapshots(a.id).map((snapshot) => snapshot.credits)).toEqual([100]);
    store.recordTurn(turn(a.id));
    expect(store.turns(a.id).map((turn) => turn.outcome)).toEqual(['answered']);
    store.recordUsage(usage(a.id, 2));
    store.close();
    expect(rows(file, 'usage')).toBe(2);
  });

  it('a record that cannot be written is logged and costs the batch’s messages nothing', async () => {
    const { file } = tempDbPath();
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (_fields: unknown, message?: string) => void warnings.push(message ?? '') };
    const store = openStore({ path: file, groupRecords: true, logger });
    opened.push(store);
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const message = store.appendCommitted(a.id, user('a1'));
    store.recordUsage(usage('no-such-session', 1));
    await expect(message).resolves.toMatchObject({ id: 'a1' });
    expect(committed(file)).toEqual({ [a.id]: ['a1'] });
    expect(rows(file, 'usage')).toBe(0);
    expect(warnings).toEqual(['record write failed']);
  });

  it('marks memory entries used in the group commit; reading an entry commits the mark first', async () => {
    const { file } = tempDbPath();
    const store = openStore({ path: file, groupRecords: true });
    opened.push(store);
    const uses = (): number => {
      const db = new Database(file, { readonly: true });
      try {
        return (db.prepare('SELECT uses FROM memory').get() as { uses: number }).uses;
      } finally {
        db.close();
      }
    };
    const entry = store.memory.add({ captain: 'c', kind: 'note', text: 'iron sells at Sol' });
    store.memory.touch([entry.id]);
    expect(uses()).toBe(0);
    await new Promise((done) => setImmediate(done));
    expect(uses()).toBe(1);
    store.memory.touch([entry.id]);
    expect(store.memory.get(entry.id)?.uses).toBe(2);
    expect(uses()).toBe(2);
  });

  it('without it, a record is committed when it is written', () => {
    const { file } = tempDbPath();
    const store = open(file);
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    store.recordUsage(usage(a.id, 1));
    expect(rows(file, 'usage')).toBe(1);
  });
});

describe('walAutocheckpointPages (a fleet’s store)', () => {
  /** The WAL file's size after ~6 MB of messages, in MB: SQLite's default copies it back every 1,000 pages (4 MB). */
  const walAfterWrites = (options: { walAutocheckpointPages?: number }): number => {
    const { file } = tempDbPath();
    const store = openStore({ path: file, ...options });
    opened.push(store);
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    for (let index = 0; index < 1_500; index += 1)
      store.append(a.id, user(`m${index}`, `${index} ${'x'.repeat(4_000)}`));
    return statSync(`${file}-wal`).size / 1e6;
  };

  it('lets the WAL grow to the pages asked before it is copied back', () => {
    expect(walAfterWrites({})).toBeLessThan(4.5);
    expect(walAfterWrites({ walAutocheckpointPages: 8_000 })).toBeGreaterThan(6);
  });
});

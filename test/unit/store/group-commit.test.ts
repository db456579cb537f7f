// The group commit of a fleet's store (SqliteStore with `groupRecords: true`): an `append` is durable when its
// promise resolves (rule 13), committed in one transaction with the others handed in while the event loop turns, by
// any session; a bad message in a group costs no other message; a failure of the whole group rejects every append
// of it and writes none; closing commits what waits.
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FatalError, SkipperError, UsageError, silentLogger, type Message } from '../../../internal/shared/index.js';
import { openStore, type Store, type StoreOptions } from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

const opened: Store[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const store of opened.splice(0)) await store.close();
});

/** A store closed after the test; grouped (a fleet's) unless told otherwise. */
async function open(file: string, options: Partial<StoreOptions> = {}): Promise<Store> {
  const store = await openStore({ path: file, groupRecords: true, ...options });
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

const turnOfTheLoop = (): Promise<void> => new Promise((done) => setImmediate(done));

describe('append on a grouped store (group commit)', () => {
  it('commits every session’s messages together, in order, once the loop turns; each resolves committed', async () => {
    const { file } = tempDbPath();
    const store = await open(file);
    const a = await store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const b = await store.createSession({ name: 'b', game: 'embedded', model: 'm' });
    // Every transaction the store opens from here on, on any connection.
    const transactions = vi.spyOn(Database.prototype, 'transaction');
    /** What another connection saw committed when each append's promise resolved. */
    const seenAtResolve: Array<Record<string, string[]>> = [];
    const writes = [store.append(a.id, user('a1')), store.append(b.id, user('b1')), store.append(a.id, user('a2'))].map(
      (write) => write.then((message) => (seenAtResolve.push(committed(file)), message)),
    );
    // Nothing is written while the callers are still running: the group commits after them.
    expect(committed(file)).toEqual({});
    const stored = await Promise.all(writes);
    expect(stored.map((message) => message.id)).toEqual(['a1', 'b1', 'a2']);
    const all = { [a.id]: ['a1', 'a2'], [b.id]: ['b1'] };
    // Each promise resolved only once the whole group was committed, the first one included.
    expect(seenAtResolve).toEqual([all, all, all]);
    // One transaction for the three.
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(committed(file)).toEqual(all);
    expect((await store.messages(a.id)).map((message) => message.content)).toEqual(['go', 'go']);
  });

  it('appends of the next turn of the loop go in the next commit, each resolving once its own has', async () => {
    const { file } = tempDbPath();
    const store = await open(file);
    const a = await store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const transactions = vi.spyOn(Database.prototype, 'transaction');
    const first = store.append(a.id, user('a1'));
    await turnOfTheLoop();
    expect(committed(file)).toEqual({ [a.id]: ['a1'] });
    await expect(first).resolves.toMatchObject({ id: 'a1' });
    const second = store.append(a.id, user('a2'));
    expect(committed(file)).toEqual({ [a.id]: ['a1'] });
    await expect(second).resolves.toMatchObject({ id: 'a2' });
    expect(committed(file)).toEqual({ [a.id]: ['a1', 'a2'] });
    expect(transactions).toHaveBeenCalledTimes(2);
  });

  it('one bad message in a group is refused alone; the others are committed', async () => {
    const { file } = tempDbPath();
    const store = await open(file);
    const a = await store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    await store.append(a.id, user('taken'));
    const results = await Promise.allSettled([
      store.append(a.id, user('ok1')),
      store.append(a.id, user('taken', 'again')),
      store.append('no-such-session', user('lost')),
      store.append(a.id, user('ok2')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    const duplicate = (results[1] as PromiseRejectedResult).reason as SkipperError;
    expect(duplicate).toBeInstanceOf(SkipperError);
    expect(duplicate.code).toBe('store_duplicate');
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(UsageError);
    expect(committed(file)).toEqual({ [a.id]: ['taken', 'ok1', 'ok2'] });
  });

  it('a failure of the whole group rejects every append of it and writes none', async () => {
    const { file } = tempDbPath();
    const writer = await open(file, { groupRecords: false });
    const a = await writer.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const b = await writer.createSession({ name: 'b', game: 'embedded', model: 'm' });
    await writer.append(a.id, user('before'));
    // A store that cannot write at all: its group's commit fails, and so does each message tried alone.
    const store = await open(file, { readonly: true });
    const results = await Promise.allSettled([
      store.append(a.id, user('a1')),
      store.append(b.id, user('b1')),
      store.append(a.id, user('a2')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const result of results) {
      const error = (result as PromiseRejectedResult).reason as FatalError;
      expect(error).toBeInstanceOf(FatalError);
      expect(error.code).toBe('store_write');
      expect(error.message).toContain(file);
    }
    expect(committed(file)).toEqual({ [a.id]: ['before'] });
  });

  it('closing the store commits the messages still waiting, and their callers hear so', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file, groupRecords: true });
    const a = await store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const write = store.append(a.id, user('last words'));
    await store.close();
    await expect(write).resolves.toMatchObject({ id: 'last words' });
    expect(committed(file)).toEqual({ [a.id]: ['last words'] });
  });

  it('without groupRecords, an append is committed when its promise is handed back', async () => {
    const { file } = tempDbPath();
    const store = await open(file, { groupRecords: false });
    const a = await store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const write: Promise<Message> = store.append(a.id, user('at once'));
    expect(committed(file)).toEqual({ [a.id]: ['at once'] });
    await expect(write).resolves.toMatchObject({ id: 'at once' });
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
    const store = await open(file);
    const a = await store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const transactions = vi.spyOn(Database.prototype, 'transaction');
    const message = store.append(a.id, user('a1'));
    const records = [
      store.recordUsage(usage(a.id, 1)),
      store.recordSnapshot(snapshot(a.id)),
      store.recordTurn(turn(a.id)),
    ];
    expect([rows(file, 'usage'), rows(file, 'snapshots'), rows(file, 'turns')]).toEqual([0, 0, 0]);
    await message;
    expect([rows(file, 'usage'), rows(file, 'snapshots'), rows(file, 'turns')]).toEqual([1, 1, 1]);
    expect(committed(file)).toEqual({ [a.id]: ['a1'] });
    expect(transactions).toHaveBeenCalledTimes(1);
    await Promise.all(records);
  });

  it('a read of the records commits what waits first; closing commits the rest', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file, groupRecords: true });
    const a = await store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    await store.recordUsage(usage(a.id, 1));
    expect(rows(file, 'usage')).toBe(0);
    expect(await store.usageTotals(a.id)).toMatchObject({ calls: 1, promptTokens: 10, costUsd: 0.5 });
    await store.recordSnapshot(snapshot(a.id));
    expect(rows(file, 'snapshots')).toBe(0);
    expect((await store.snapshots(a.id)).map((snapshot) => snapshot.credits)).toEqual([100]);
    await store.recordTurn(turn(a.id));
    expect(rows(file, 'turns')).toBe(0);
    expect((await store.turns(a.id)).map((turn) => turn.outcome)).toEqual(['answered']);
    await store.recordUsage(usage(a.id, 2));
    expect(rows(file, 'usage')).toBe(1);
    await store.close();
    expect(rows(file, 'usage')).toBe(2);
  });

  it('a record that cannot be written is logged and costs the group’s messages nothing', async () => {
    const { file } = tempDbPath();
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (_fields: unknown, message?: string) => void warnings.push(message ?? '') };
    const store = await open(file, { logger });
    const a = await store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const message = store.append(a.id, user('a1'));
    const record = store.recordUsage(usage('no-such-session', 1));
    await expect(message).resolves.toMatchObject({ id: 'a1' });
    await record;
    expect(committed(file)).toEqual({ [a.id]: ['a1'] });
    expect(rows(file, 'usage')).toBe(0);
    expect(warnings).toEqual(['record write failed']);
  });

  it('marks memory entries used in the group commit; reading an entry commits the mark first', async () => {
    const { file } = tempDbPath();
    const store = await open(file);
    const uses = (): number => {
      const db = new Database(file, { readonly: true });
      try {
        return (db.prepare('SELECT uses FROM memory').get() as { uses: number }).uses;
      } finally {
        db.close();
      }
    };
    const entry = await store.memory.add({ captain: 'c', kind: 'note', text: 'iron sells at Sol' });
    await store.memory.touch([entry.id]);
    expect(uses()).toBe(0);
    await turnOfTheLoop();
    expect(uses()).toBe(1);
    await store.memory.touch([entry.id]);
    expect(uses()).toBe(1);
    expect((await store.memory.get(entry.id))?.uses).toBe(2);
    expect(uses()).toBe(2);
  });

  it('without it, a record is committed when it is written', async () => {
    const { file } = tempDbPath();
    const store = await open(file, { groupRecords: false });
    const a = await store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    await store.recordUsage(usage(a.id, 1));
    expect(rows(file, 'usage')).toBe(1);
  });
});

describe('walAutocheckpointPages (a fleet’s store)', () => {
  /** The WAL file's size after ~6 MB of messages, in MB: SQLite's default copies it back every 1,000 pages (4 MB). */
  const walAfterWrites = async (options: { walAutocheckpointPages?: number }): Promise<number> => {
    const { file } = tempDbPath();
    const store = await open(file, { groupRecords: false, ...options });
    const a = await store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    for (let index = 0; index < 1_500; index += 1)
      await store.append(a.id, user(`m${index}`, `${index} ${'x'.repeat(4_000)}`));
    return statSync(`${file}-wal`).size / 1e6;
  };

  it('lets the WAL grow to the pages asked before it is copied back', async () => {
    expect(await walAfterWrites({})).toBeLessThan(4.5);
    expect(await walAfterWrites({ walAutocheckpointPages: 8_000 })).toBeGreaterThan(6);
  });
});

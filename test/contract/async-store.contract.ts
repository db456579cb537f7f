// The asynchronous store contract (internal/store/contract.ts), one suite for every backend: sqlite-async.test.ts runs
// it on a real SQLite file, postgres-async.test.ts on a real PostgreSQL server (a fresh schema per test). What a
// caller of `Store` may rely on whatever is behind it: sessions (and the cleaning before they are stored), transcripts
// (appends durable when they resolve, the group commit, batches all or nothing, ranges, async streaming), usage,
// snapshots, turns, leases (deadline, fence, takeover, one winner of two takers), credentials (the in-memory password
// list), memory, the request log's shared pieces, counterfactuals, fleets, and the schema version. Each test opens
// its own database, and may open a second handle on it to play another process.
import os from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SkipperError, UsageError } from '../../internal/shared/index.js';
import type { Lease, Store } from '../../internal/store/contract.js';
import { migrations } from '../../internal/store/migrations.js';
import { createRedactor } from '../../internal/store/redact.js';
import type { StoreOptions } from '../../internal/store/sqlite-store.js';

export type ContractOptions = Partial<Omit<StoreOptions, 'path'>>;

export interface AsyncStoreBackend {
  /** A new, empty database: its location, for open(). */
  fresh(): Promise<string>;
  /** A handle on the database at `location` (another call: another handle, as another process would hold). */
  open(location: string, options?: ContractOptions): Promise<Store>;
}

const usage = { promptTokens: 100, completionTokens: 20, cachedTokens: 5, reasoningTokens: 1, costUsd: 0.25 };

const game = {
  tick: 1,
  credits: 100,
  netWorth: 150,
  fuel: 10,
  maxFuel: 20,
  cargoUsed: 0,
  cargoCapacity: 50,
  hull: 100,
  maxHull: 100,
  systemId: 'sol',
  poiId: null,
  docked: true,
};

function requestInput(
  sessionId: string,
  round: number,
  texts: string[] = ['hi'],
): {
  sessionId: string;
  turn: number;
  round: number;
  attempt: number;
  model: string;
  messages: string[];
  tools: string;
  outcome: 'reply';
} {
  return {
    sessionId,
    turn: 1,
    round,
    attempt: 1,
    model: 'm',
    messages: texts.map((content) => JSON.stringify({ role: 'user', content })),
    tools: JSON.stringify([]),
    outcome: 'reply',
  };
}

export function asyncStoreContract(name: string, backend: AsyncStoreBackend): void {
  const opened: Store[] = [];
  /** A fresh database and a handle on it; `another()` opens a second handle on the same database. */
  const fresh = async (
    options?: ContractOptions,
  ): Promise<{ store: Store; another: (more?: ContractOptions) => Promise<Store> }> => {
    const location = await backend.fresh();
    const another = async (more?: ContractOptions): Promise<Store> => {
      const store = await backend.open(location, more);
      opened.push(store);
      return store;
    };
    return { store: await another(options), another };
  };
  const store = async (options?: ContractOptions): Promise<Store> => (await fresh(options)).store;
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
  });

  describe(`${name}: sessions`, () => {
    it('creates, finds, updates, renames, lists and deletes sessions', async () => {
      const db = await store();
      const made = await db.createSession({
        name: 'ada',
        game: 'embedded',
        model: 'builtin/autopilot',
        extra: { a: 1 },
      });
      expect((await db.getSession('ada')).id).toBe(made.id);
      expect((await db.findSession(made.id))?.extra).toEqual({ a: 1 });
      expect(await db.findSession('nobody')).toBeUndefined();
      await expect(db.getSession('nobody')).rejects.toThrow(UsageError);
      await expect(db.getSession('nobody')).rejects.toThrow(/`skipper sessions` lists them/);
      const changed = await db.updateSession('ada', { goal: 'get rich', status: 'ended', username: 'Ada' });
      expect(changed).toMatchObject({ goal: 'get rich', status: 'ended', username: 'Ada', model: 'builtin/autopilot' });
      expect((await db.renameSession('ada', 'ada-two')).name).toBe('ada-two');
      expect((await db.getSession('ada-two')).id).toBe(made.id);
      await expect(db.createSession({ name: 'ada-two', game: 'embedded', model: 'm' })).rejects.toThrow(
        /already exists/,
      );
      const bob = await db.createSession({ name: 'bob', game: 'embedded', model: 'm' });
      await expect(db.renameSession('bob', 'ada-two')).rejects.toThrow(UsageError);
      await expect(db.createSession({ name: 'bad name!', game: 'embedded', model: 'm' })).rejects.toThrow(UsageError);
      expect((await db.listSessions()).map((row) => row.session.name).sort()).toEqual(['ada-two', 'bob']);
      expect(await db.deleteSession(bob.id)).toBe(true);
      expect(await db.deleteSession('bob')).toBe(false);
    });

    it('generates distinct names when none is given, and keeps an id chosen beforehand', async () => {
      const db = await store();
      const made = await Promise.all(
        Array.from({ length: 8 }, () => db.createSession({ game: 'embedded', model: 'm' })),
      );
      expect(new Set(made.map((session) => session.name)).size).toBe(8);
      for (const session of made) expect(session.name).toMatch(/^\d{4}-\d{2}-\d{2}-[a-z]+-[a-z]+(-\d+)?$/);
      const draft = await db.createSession({ id: 'draft-id-1', game: 'embedded', model: 'm' });
      expect(draft.id).toBe('draft-id-1');
    });

    it('lists the most recently active first, with their figures', async () => {
      const db = await store();
      const old = await db.createSession({ name: 'old', game: 'embedded', model: 'm' });
      const busy = await db.createSession({ name: 'busy', game: 'embedded', model: 'm' });
      await db.append(busy.id, { role: 'user', content: 'hi', turn: 3, createdAt: Date.now() + 60_000 });
      await db.recordUsage({ sessionId: busy.id, model: 'm', usage });
      await db.recordSnapshot({ ...game, sessionId: busy.id, turn: 1, credits: 100 });
      await db.recordSnapshot({ ...game, sessionId: busy.id, turn: 2, credits: 350 });
      const list = await db.listSessions();
      expect(list.map((row) => row.session.name)).toEqual(['busy', 'old']);
      expect(list[0]).toMatchObject({ turns: 3, messages: 1, tokens: 120, creditsDelta: 250 });
      expect(list[0]?.costUsd).toBeCloseTo(0.25);
      expect(list[1]).toMatchObject({ session: { id: old.id }, turns: 0, messages: 0, creditsDelta: null, tokens: 0 });
    });

    it('strips credentials from game URLs and redacts known secrets before they are stored', async () => {
      const { store: db, another } = await fresh({ redact: createRedactor(['hunter2-secret']) });
      const session = await db.createSession({
        game: 'https://user:pass-word@game.example/mcp',
        model: 'm',
        extra: { baseUrl: 'https://u:key-123@llm.example/v1', note: 'password hunter2-secret' },
      });
      await db.append(session.id, { role: 'user', content: 'log in with hunter2-secret', turn: 1 });
      await db.appendMany(session.id, [
        {
          role: 'assistant',
          content: '',
          turn: 1,
          toolCalls: [{ id: 'c1', name: 'login', arguments: '{"password":"hunter2-secret"}' }],
        },
      ]);
      await db.memory.add({
        captain: 'c',
        kind: 'lesson',
        text: 'the pw is hunter2-secret',
        evidence: ['hunter2-secret'],
      });
      await db.updateSession(session.id, { extra: { note: 'still hunter2-secret' } });
      // Read through a handle without the redactor: what is stored is clean.
      const plain = await another();
      const stored = await plain.getSession(session.id);
      expect(stored.game).toBe('https://game.example/mcp');
      expect(JSON.stringify(stored.extra)).not.toContain('hunter2-secret');
      expect(JSON.stringify(await plain.messages(session.id))).not.toMatch(/hunter2-secret/);
      expect((await plain.messages(session.id))[0]?.content).toBe('log in with [redacted]');
      expect(JSON.stringify(await plain.memory.list('c'))).not.toContain('hunter2-secret');
    });
  });

  describe(`${name}: transcripts`, () => {
    it('appends, batches, reads ranges and counts in order', async () => {
      const db = await store();
      const { id } = await db.createSession({ name: 's', game: 'embedded', model: 'm' });
      const first = await db.append(id, { role: 'user', content: 'hello', turn: 1 });
      expect(first.id).toMatch(/\S/);
      expect(first.createdAt).toBeGreaterThan(0);
      await db.append(id, {
        role: 'assistant',
        content: '',
        turn: 1,
        round: 1,
        toolCalls: [{ id: 'c1', name: 'mine', arguments: '{}' }],
      });
      await db.appendMany(id, [
        {
          role: 'tool',
          content: 'ore +3',
          toolCallId: 'c1',
          toolName: 'mine',
          turn: 1,
          isError: false,
          data: { n: 3 },
        },
        { role: 'user', content: 'again', turn: 2 },
        { role: 'assistant', content: 'done', turn: 2 },
      ]);
      expect(await db.messageCount(id)).toBe(5);
      expect(await db.lastTurn(id)).toBe(2);
      const all = await db.messages(id);
      expect(all.map((message) => message.content)).toEqual(['hello', '', 'ore +3', 'again', 'done']);
      expect(await db.messages(id, { toTurn: 1 })).toHaveLength(3);
      expect(await db.messages(id, { fromTurn: 2 })).toHaveLength(2);
      expect(all[1]?.toolCalls?.[0]?.name).toBe('mine');
      expect(all[2]).toMatchObject({ toolCallId: 'c1', toolName: 'mine', isError: false, data: { n: 3 } });
      // Rule 5: a text-only reply keeps an empty list of calls.
      expect(all[4]?.toolCalls).toEqual([]);
      expect(await db.lastTurn('no-such-session')).toBe(0);
    });

    it('a resolved append is visible to another handle at once (durable when it resolves)', async () => {
      const { store: db, another } = await fresh();
      const other = await another();
      const { id } = await db.createSession({ game: 'embedded', model: 'm' });
      const message = await db.append(id, { role: 'user', content: 'kept', turn: 1 });
      expect((await other.messages(id)).map((stored) => stored.id)).toEqual([message.id]);
    });

    it('a batch is all or nothing: a duplicate id rolls the whole batch back', async () => {
      const db = await store();
      const { id } = await db.createSession({ game: 'embedded', model: 'm' });
      await db.append(id, { id: 'dup', role: 'user', content: 'first' });
      await expect(
        db.appendMany(id, [
          { role: 'user', content: 'lost' },
          { id: 'dup', role: 'user', content: 'clash' },
        ]),
      ).rejects.toThrow(SkipperError);
      expect((await db.messages(id)).map((message) => message.content)).toEqual(['first']);
      await expect(db.append(id, { id: 'dup', role: 'user', content: 'again' })).rejects.toMatchObject({
        code: 'store_duplicate',
      });
      await expect(db.append('no-such-session', { role: 'user', content: 'x' })).rejects.toThrow(UsageError);
      await expect(db.append('no-such-session', { role: 'user', content: 'x' })).rejects.toThrow(
        /no session with id no-such-session/,
      );
    });

    it('group commit: appends handed in together all resolve, in order, and a bad one fails alone', async () => {
      const db = await store({ groupRecords: true });
      const a = await db.createSession({ game: 'embedded', model: 'm' });
      const b = await db.createSession({ game: 'embedded', model: 'm' });
      const pending = Array.from({ length: 200 }, (_, index) =>
        db.append(index % 2 === 0 ? a.id : b.id, { role: 'user', content: `m${index}`, turn: index }),
      );
      const bad = db.append('no-such-session', { role: 'user', content: 'lost' });
      const late = db.append(a.id, { role: 'user', content: 'after the bad one', turn: 999 });
      await expect(bad).rejects.toThrow(UsageError);
      const stored = await Promise.all([...pending, late]);
      expect(stored).toHaveLength(201);
      const contents = (await db.messages(a.id)).map((message) => message.content);
      expect(contents).toEqual([...Array.from({ length: 100 }, (_, index) => `m${index * 2}`), 'after the bad one']);
      expect(await db.messageCount(b.id)).toBe(100);
    });

    it('streams more than a page of messages in order, async, and sees appends made meanwhile', async () => {
      const db = await store();
      const { id } = await db.createSession({ game: 'embedded', model: 'm' });
      await db.appendMany(
        id,
        Array.from({ length: 1500 }, (_, index) => ({ role: 'user' as const, content: `m${index}`, turn: index })),
      );
      let seen = 0;
      let last = -1;
      for await (const message of db.iterateMessages(id)) {
        const number = Number(message.content.slice(1));
        expect(number).toBeGreaterThan(last);
        last = number;
        seen += 1;
        if (seen === 1) await db.append(id, { role: 'user', content: 'm1500', turn: 1500 });
      }
      expect(seen).toBe(1501);
      const ranged: string[] = [];
      for await (const message of db.iterateMessages(id, { fromTurn: 10, toTurn: 12 })) ranged.push(message.content);
      expect(ranged).toEqual(['m10', 'm11', 'm12']);
      let none = 0;
      for await (const _message of db.iterateMessages('no-such-session')) none += 1;
      expect(none).toBe(0);
    });
  });

  describe(`${name}: usage, snapshots, turns`, () => {
    it('sums usage and lists its series', async () => {
      const db = await store();
      const { id } = await db.createSession({ game: 'embedded', model: 'm' });
      expect(await db.usageTotals(id)).toEqual({
        calls: 0,
        promptTokens: 0,
        completionTokens: 0,
        cachedTokens: 0,
        reasoningTokens: 0,
        costUsd: 0,
        latencyMs: 0,
      });
      await db.recordUsage({ sessionId: id, turn: 1, round: 1, model: 'm', usage, latencyMs: 12.5, createdAt: 1000 });
      await db.recordUsage({ sessionId: id, turn: 1, round: 2, model: 'm', usage, latencyMs: 10, createdAt: 2000 });
      const totals = await db.usageTotals(id);
      expect(totals).toMatchObject({ calls: 2, promptTokens: 200, completionTokens: 40, cachedTokens: 10 });
      expect(totals.reasoningTokens).toBe(2);
      expect(totals.costUsd).toBeCloseTo(0.5);
      // Whole milliseconds on both backends: 12.5 is kept as 13 (SQLite's INTEGER column).
      expect(totals.latencyMs).toBe(23);
      expect((await db.usageSeries(id)).map((point) => [point.round, point.createdAt])).toEqual([
        [1, 1000],
        [2, 2000],
      ]);
      expect(await db.usageSeries(id, { sinceMs: 1500 })).toHaveLength(1);
      expect((await db.listSessions())[0]?.tokens).toBe(240);
      expect(await db.fleets.sessionCostSince((await db.getSession(id)).name, 1500)).toBeCloseTo(0.25);
      // Written at once (no group commit): a record for no session is refused as an append is.
      await expect(db.recordUsage({ sessionId: 'no-such-session', model: 'm', usage })).rejects.toThrow(UsageError);
    });

    it('keeps one snapshot and one turn record per turn, the last one written', async () => {
      const db = await store();
      const { id } = await db.createSession({ game: 'embedded', model: 'm' });
      for (const turn of [1, 2, 3]) await db.recordSnapshot({ ...game, sessionId: id, turn, credits: 100 * turn });
      await db.recordSnapshot({ ...game, sessionId: id, turn: 3, credits: 999, docked: false });
      expect((await db.snapshots(id)).map((snapshot) => snapshot.credits)).toEqual([100, 200, 999]);
      expect((await db.snapshots(id, { last: 2 })).map((snapshot) => snapshot.turn)).toEqual([2, 3]);
      expect((await db.snapshots(id))[2]).toMatchObject({ docked: false, systemId: 'sol', poiId: null });
      const turn = {
        sessionId: id,
        turn: 1,
        outcome: 'answered' as const,
        rounds: 2,
        toolCalls: 3,
        startedAt: 10,
        endedAt: 20,
        inputKind: 'user' as const,
      };
      await db.recordTurn(turn);
      await db.recordTurn({ ...turn, outcome: 'failed' });
      expect(await db.turns(id)).toEqual([{ ...turn, outcome: 'failed' }]);
      expect((await db.listSessions())[0]?.creditsDelta).toBe(899);
    });

    it("a fleet's store (groupRecords) joins its records to the group commit; reads see them", async () => {
      const db = await store({ groupRecords: true });
      const { id } = await db.createSession({ game: 'embedded', model: 'm' });
      const writes = [
        db.recordUsage({ sessionId: id, model: 'm', usage }),
        db.recordSnapshot({ ...game, sessionId: id, turn: 1 }),
        db.append(id, { role: 'user', content: 'hi', turn: 1 }),
        db.recordTurn({
          sessionId: id,
          turn: 1,
          outcome: 'answered',
          rounds: 1,
          toolCalls: 0,
          startedAt: 1,
          endedAt: 2,
          inputKind: 'autoplay',
        }),
      ];
      // A record that cannot be written is logged, as SQLite's are; it costs the others in its batch nothing.
      const lost = db.recordUsage({ sessionId: 'no-such-session', model: 'm', usage });
      // Read before awaiting the writes: a read waits for what the group commit holds.
      expect((await db.usageTotals(id)).calls).toBe(1);
      await expect(lost).resolves.toBeUndefined();
      expect(await db.snapshots(id)).toHaveLength(1);
      expect(await db.turns(id)).toHaveLength(1);
      await Promise.all(writes);
      await db.flush();
      expect(await db.messageCount(id)).toBe(1);
    });
  });

  describe(`${name}: leases`, () => {
    const first = { pid: 1, host: 'host-a', token: 'token-a' };
    const second = { pid: 2, host: 'host-b', token: 'token-b' };

    it('takes, refuses with the holder, renews, releases; a re-take by the same holder keeps the fence', async () => {
      const db = await store();
      const taken = await db.takeLease('session:s1', first, { ttlMs: 60_000 });
      if (!taken.taken) throw new Error('not taken');
      expect(taken.lease).toMatchObject({ key: 'session:s1', ...first, fence: 1 });
      expect(taken.lease.expiresAt - taken.lease.renewedAt).toBe(60_000);
      expect(taken.lease.takenAt).toBe(taken.lease.renewedAt);
      const refused = await db.takeLease('session:s1', second, { ttlMs: 60_000 });
      expect(refused).toMatchObject({ taken: false, holder: { token: 'token-a', host: 'host-a', fence: 1 } });
      const again = await db.takeLease('session:s1', first, { ttlMs: 60_000 });
      expect(again.taken && again.lease.fence).toBe(1);
      const renewed = await db.renewLease(taken.lease, { ttlMs: 90_000 });
      expect(renewed).toMatchObject({ key: 'session:s1', token: 'token-a', fence: 1 });
      expect((renewed?.expiresAt ?? 0) - (renewed?.renewedAt ?? 0)).toBe(90_000);
      expect(renewed?.expiresAt ?? 0).toBeGreaterThanOrEqual(taken.lease.expiresAt);
      expect(await db.lease('session:s1')).toEqual(renewed);
      expect(await db.releaseLease({ ...taken.lease, token: 'token-b' })).toBe(false);
      expect(await db.releaseLease(taken.lease)).toBe(true);
      expect(await db.lease('session:s1')).toBeUndefined();
      expect(await db.releaseLease(taken.lease)).toBe(false);
      expect(await db.renewLease(taken.lease, { ttlMs: 1000 })).toBeUndefined();
    });

    it('past its deadline a lease is taken over with a raised fence; the stale holder renews and releases nothing', async () => {
      const db = await store();
      const mine = await db.takeLease('captain:f/ada', first, { ttlMs: 0 });
      if (!mine.taken) throw new Error('not taken');
      const theirs = await db.takeLease('captain:f/ada', second, { ttlMs: 60_000 });
      if (!theirs.taken) throw new Error('not taken over');
      expect(theirs.lease.fence).toBe(2);
      expect(theirs.lease.token).toBe('token-b');
      expect(await db.renewLease(mine.lease, { ttlMs: 60_000 })).toBeUndefined();
      expect(await db.releaseLease(mine.lease)).toBe(false);
      expect((await db.lease('captain:f/ada'))?.token).toBe('token-b');
      // The first holder, waking, must take it again like anyone: refused while the new holder's deadline runs.
      expect((await db.takeLease('captain:f/ada', first, { ttlMs: 60_000 })).taken).toBe(false);
    });

    it('is refused until its deadline passes, then taken (the deadline is real time)', async () => {
      const db = await store();
      const mine = await db.takeLease('account:g/ada', first, { ttlMs: 400 });
      if (!mine.taken) throw new Error('not taken');
      expect((await db.takeLease('account:g/ada', second, { ttlMs: 60_000 })).taken).toBe(false);
      const started = Date.now();
      await vi.waitFor(
        async () => {
          const take = await db.takeLease('account:g/ada', second, { ttlMs: 60_000 });
          if (!take.taken) throw new Error('still held');
          expect(take.lease.fence).toBe(2);
        },
        { timeout: 5_000, interval: 50 },
      );
      // Not before its deadline (less a little for two clocks' rounding).
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    });

    it('a lease held on this host by a pid that no longer exists is taken at once', async () => {
      const db = await store({ processExists: (pid) => pid !== 4242 });
      const dead = { pid: 4242, host: os.hostname(), token: 'dead' };
      await db.takeLease('session:s2', dead, { ttlMs: 60_000 });
      const alive = { pid: 4343, host: os.hostname(), token: 'alive' };
      await db.takeLease('session:s3', alive, { ttlMs: 60_000 });
      const taken = await db.takeLease('session:s2', second, { ttlMs: 60_000 });
      expect(taken.taken && taken.lease.fence).toBe(2);
      expect((await db.takeLease('session:s3', second, { ttlMs: 60_000 })).taken).toBe(false);
    });

    it('of two takers at once (two handles), exactly one wins, round after round', async () => {
      const { store: a, another } = await fresh();
      const b = await another();
      for (let round = 0; round < 10; round += 1) {
        const key = `captain:f/c${round}`;
        const takes = await Promise.all([
          a.takeLease(key, first, { ttlMs: 60_000 }),
          b.takeLease(key, second, { ttlMs: 60_000 }),
        ]);
        expect(takes.filter((take) => take.taken)).toHaveLength(1);
        const winner = takes.find((take) => take.taken);
        const loser = takes.find((take) => !take.taken);
        expect(loser && !loser.taken && loser.holder.token).toBe(winner?.taken && winner.lease.token);
      }
      // Expired ones raced for: still one winner, and the fence raised once.
      const expired = await a.takeLease('captain:f/x', first, { ttlMs: 0 });
      expect(expired.taken).toBe(true);
      const takes = await Promise.all([
        a.takeLease('captain:f/x', { ...first, token: 'token-c' }, { ttlMs: 60_000 }),
        b.takeLease('captain:f/x', second, { ttlMs: 60_000 }),
      ]);
      expect(takes.filter((take) => take.taken)).toHaveLength(1);
      expect((await a.lease('captain:f/x'))?.fence).toBe(2);
    });

    it('lists leases by prefix in byte order', async () => {
      const db = await store();
      for (const key of ['captain:f/b', 'captain:f/B', 'captain:f/a', 'captain:g/a', 'session:x']) {
        await db.takeLease(key, first, { ttlMs: 60_000 });
      }
      const keys = (await db.leases('captain:f/')).map((lease: Lease) => lease.key);
      expect(keys).toEqual(['captain:f/B', 'captain:f/a', 'captain:f/b']);
      expect(await db.leases('nothing:')).toEqual([]);
    });
  });

  describe(`${name}: credentials and memory`, () => {
    it('stores credentials per game, the latest put wins, and keeps the password list current', async () => {
      const db = await store();
      expect(db.credentials.passwordList()).toEqual([]);
      await db.credentials.put('g', 'ada', 'pw-1');
      await db.credentials.put('g', 'bob', 'pw-2');
      expect(await db.credentials.get('g', 'ada')).toEqual({ username: 'ada', password: 'pw-1' });
      expect(await db.credentials.get('g', 'nobody')).toBeUndefined();
      expect((await db.credentials.latest('g'))?.username).toBe('bob');
      await db.credentials.put('g', 'ada', 'pw-3');
      expect(await db.credentials.latest('g')).toEqual({ username: 'ada', password: 'pw-3' });
      expect(await db.credentials.latest('other')).toBeUndefined();
      expect([...db.credentials.passwordList()].sort()).toEqual(['pw-2', 'pw-3']);
      const list = db.credentials.passwordList();
      expect(db.credentials.passwordList()).toBe(list);
      expect(await db.credentials.remove('g', 'bob')).toBe(true);
      expect(await db.credentials.remove('g', 'bob')).toBe(false);
      expect(db.credentials.passwordList()).toEqual(['pw-3']);
    });

    it("sees another process's passwords after refresh()", async () => {
      const { store: db, another } = await fresh();
      const other = await another();
      await other.credentials.put('g', 'cy', 'pw-other');
      await db.credentials.refresh();
      expect(db.credentials.passwordList()).toContain('pw-other');
      await other.credentials.remove('g', 'cy');
      await db.credentials.refresh();
      expect(db.credentials.passwordList()).not.toContain('pw-other');
    });

    it('adds, lists, touches and clears memory', async () => {
      const db = await store();
      const note = await db.memory.add({
        captain: 'c',
        kind: 'note',
        text: 'sell ore at Sol',
        tags: ['ore'],
        evidence: { tick: 3 },
      });
      expect(note).toMatchObject({ captain: 'c', kind: 'note', tags: ['ore'], evidence: { tick: 3 }, uses: 0 });
      await db.memory.add({ captain: 'c', kind: 'lesson', text: 'refuel early', outcome: 'success' });
      await db.memory.add({ captain: 'd', kind: 'note', text: 'other captain' });
      await expect(db.memory.add({ captain: 'c', kind: 'note', text: '  ' })).rejects.toThrow(UsageError);
      await db.memory.touch([note.id, note.id]);
      await db.memory.touch([]);
      const touched = await db.memory.get(note.id);
      expect(touched?.uses).toBe(2);
      expect(touched?.lastUsedAt).toBeGreaterThan(0);
      expect((await db.memory.list('c', { kind: 'note' })).map((entry) => entry.text)).toEqual(['sell ore at Sol']);
      expect(await db.memory.list('c', { limit: 1 })).toHaveLength(1);
      expect(await db.memory.list('c')).toHaveLength(2);
      expect(await db.memory.remove(note.id)).toBe(true);
      expect(await db.memory.remove(note.id)).toBe(false);
      expect(await db.memory.get(note.id)).toBeUndefined();
      expect(await db.memory.clear('c')).toBe(1);
      expect(await db.memory.list('d')).toHaveLength(1);
    });
  });

  describe(`${name}: requests`, () => {
    it('stores a request from shared pieces and rebuilds it; deleting the session drops its pieces', async () => {
      const db = await store();
      const { id } = await db.createSession({ name: 'r', game: 'embedded', model: 'm' });
      const firstId = await db.requests.record(requestInput(id, 1, ['hi']));
      const secondId = await db.requests.record(requestInput(id, 2, ['hi', 'more']));
      expect(secondId).toBeGreaterThan(firstId);
      // Handed in together, written together: both ids, in order.
      const together = await Promise.all([
        db.requests.record(requestInput(id, 3, ['hi', 'more', 'again'])),
        db.requests.record(requestInput(id, 4, ['hi', 'more', 'again', 'still'])),
      ]);
      expect(together[1]).toBeGreaterThan(together[0]);
      db.requests.recordSoon(requestInput(id, 5, ['soon']));
      expect(await db.requests.count(id)).toBe(5);
      const loaded = await db.requests.load(secondId);
      expect(loaded).toMatchObject({ id: secondId, sessionId: id, turn: 1, round: 2, attempt: 1, outcome: 'reply' });
      expect(loaded.messages).toEqual([
        { role: 'user', content: 'hi' },
        { role: 'user', content: 'more' },
      ]);
      expect(loaded.tools).toEqual([]);
      expect((await db.requests.list(id)).map((request) => request.round)).toEqual([1, 2, 3, 4, 5]);
      expect(await db.requests.list(id, { fromTurn: 2 })).toEqual([]);
      await expect(db.requests.load(999_999)).rejects.toThrow(/no stored model request/);
      await db.deleteSession('r');
      const other = await db.createSession({ game: 'embedded', model: 'm' });
      expect(await db.requests.count(other.id)).toBe(0);
      // Pieces nobody refers to went with the session: a new request stores them again and loads whole.
      const again = await db.requests.record(requestInput(other.id, 1, ['hi']));
      expect((await db.requests.load(again)).messages).toEqual([{ role: 'user', content: 'hi' }]);
    });

    it('redacts pieces before they are stored, and keeps a long piece whole', async () => {
      const db = await store({ redact: createRedactor(['hunter2-secret']) });
      const { id } = await db.createSession({ game: 'embedded', model: 'm' });
      const long = 'x'.repeat(5000);
      const requestId = await db.requests.record(requestInput(id, 1, ['my pw is hunter2-secret', long]));
      const loaded = await db.requests.load(requestId);
      expect(loaded.messages.map((message) => message.content)).toEqual(['my pw is [redacted]', long]);
    });

    it('keeps a context recipe beside its system message, and refuses one it cannot read as damaged', async () => {
      const db = await store();
      const { id } = await db.createSession({ name: 'rr', game: 'embedded', model: 'builtin/autopilot' });
      const recipe = { through: 'm7', start: 'm5', budgetTokens: 8000, compaction: 0, local: ['memory_recall'] };
      const input = {
        ...requestInput(id, 3),
        turn: 2,
        model: 'builtin/autopilot',
        messages: [JSON.stringify({ id: 'context-system', role: 'system', content: 'sys', createdAt: 0 })],
      };
      const kept = await db.requests.record({ ...input, recipe: JSON.stringify(recipe) });
      const whole = await db.requests.record({ ...input, round: 4 });
      expect(await db.requests.load(kept)).toMatchObject({ recipe, messages: [{ role: 'system', content: 'sys' }] });
      expect((await db.requests.load(whole)).recipe).toBeUndefined();
      const damaged = await db.requests.record({
        ...input,
        round: 5,
        recipe: JSON.stringify({ ...recipe, through: 7 }),
      });
      await expect(db.requests.load(damaged)).rejects.toThrow(
        /context recipe that cannot be read; the database is damaged/,
      );
    });
  });

  describe(`${name}: counterfactuals`, () => {
    it('numbers replays per session, sums their decisions and lists them with the session name', async () => {
      const db = await store();
      const { id } = await db.createSession({ name: 'cf', game: 'embedded', model: 'm' });
      const run = await db.counterfactuals.create({ sessionId: id, model: 'other', fromTurn: 1, toTurn: 4 });
      expect(run).toMatchObject({ name: 'cf.cf1', sessionName: 'cf', status: 'running', fromTurn: 1, toTurn: 4 });
      const answer = { content: '', toolCalls: [{ id: 'c', name: 'mine', arguments: '{}' }] };
      const cost = { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0, costUsd: 0.01 };
      const decision = {
        turn: 1,
        round: 1,
        original: answer,
        proposed: answer,
        problems: [],
        usage: cost,
        latencyMs: 3.5,
      };
      await db.counterfactuals.addDecision(run.id, { ...decision, requestId: 1, verdict: 'same' });
      await db.counterfactuals.addDecision(run.id, { ...decision, requestId: 2, verdict: 'different' });
      await db.counterfactuals.finish(run.id, 'done');
      expect((await db.counterfactuals.create({ sessionId: id, model: 'third' })).name).toBe('cf.cf2');
      const summary = await db.counterfactuals.get(run.name);
      expect(summary?.run).toMatchObject({ sessionName: 'cf', status: 'done' });
      expect(summary?.run.endedAt).toBeGreaterThan(0);
      expect(summary?.totals).toMatchObject({ decisions: 2, same: 1, different: 1, invalid: 0, tokens: 30 });
      expect(summary?.totals.costUsd).toBeCloseTo(0.02);
      expect((await db.counterfactuals.get(run.id))?.run.name).toBe('cf.cf1');
      expect(await db.counterfactuals.get('nothing')).toBeUndefined();
      expect((await db.counterfactuals.list()).map((row) => row.run.name)).toEqual(['cf.cf2', 'cf.cf1']);
      const decisions = await db.counterfactuals.decisions(run.id);
      expect(decisions.map((row) => row.verdict)).toEqual(['same', 'different']);
      expect(decisions[0]).toMatchObject({ original: answer, latencyMs: 4, usage: { promptTokens: 10 } });
    });
  });

  describe(`${name}: fleets`, () => {
    it('keeps fleets, captains, orders, events and knowledge', async () => {
      const db = await store();
      await expect(db.fleets.upsertCaptain('f', 'ada', { state: 'playing' })).rejects.toThrow(/no fleet "f"/);
      const fleet = await db.fleets.startFleet({ name: 'f', file: '/f.yaml', pid: 42, host: 'h1' });
      expect(fleet).toMatchObject({ name: 'f', state: 'running', pid: 42, host: 'h1', health: {} });
      await db.fleets.upsertCaptain('f', 'ada', {
        sessionName: 'f-ada',
        model: 'builtin/autopilot',
        state: 'starting',
      });
      const ada = await db.fleets.upsertCaptain('f', 'ada', { state: 'playing', credits: 500, place: 'sol / station' });
      expect(ada).toMatchObject({ state: 'playing', credits: 500, sessionName: 'f-ada', actions: 0, netWorth: null });
      await db.fleets.writeCaptain('f', 'Bob', { costToday: 1.5 });
      expect(await db.fleets.captain('f', 'Bob')).toMatchObject({
        sessionName: 'Bob',
        model: 'builtin/autopilot',
        state: 'starting',
        costToday: 1.5,
      });
      expect((await db.fleets.captains('f')).map((row) => row.name)).toEqual(['Bob', 'ada']);
      expect(await db.fleets.captain('f', 'nobody')).toBeUndefined();
      await db.fleets.setHealth('f', { ok: true });
      expect((await db.fleets.getFleet('f'))?.health).toEqual({ ok: true });
      const order = await db.fleets.addOrder({ fleet: 'f', captain: 'ada', command: 'park' });
      expect(order).toMatchObject({ fleet: 'f', captain: 'ada', command: 'park', text: null, takenAt: null });
      await db.fleets.addOrder({ fleet: 'f', captain: 'ada', command: 'order', text: 'sell' });
      const taken = await db.fleets.takeOrders('f');
      expect(taken.map((row) => row.command)).toEqual(['park', 'order']);
      expect(taken.every((row) => typeof row.takenAt === 'number')).toBe(true);
      expect(await db.fleets.takeOrders('f')).toEqual([]);
      const event = await db.fleets.addEvent({ fleet: 'f', captain: 'ada', kind: 'ladder', text: 'to fallback' });
      await db.fleets.addEvent({ fleet: 'f', kind: 'ladder', text: 'fleet-wide', data: { n: 1 } });
      expect((await db.fleets.events('f', { afterSeq: event.seq - 1 })).map((row) => row.text)).toEqual([
        'to fallback',
        'fleet-wide',
      ]);
      expect(await db.fleets.events('f', { captain: 'ada' })).toHaveLength(1);
      expect(await db.fleets.events('f', { limit: 1 })).toHaveLength(1);
      await db.fleets.putKnowledge({ fleet: 'f', kind: 'market', key: 'sol', value: { ore: 3 }, captain: 'ada' });
      await db.fleets.putKnowledge({ fleet: 'f', kind: 'market', key: 'sol', value: { ore: 4 }, captain: 'bob' });
      await db.fleets.putKnowledge({ fleet: 'f', kind: 'market', key: 'Vega', value: 1, captain: 'bob', at: 5 });
      await db.fleets.putKnowledge({ fleet: 'f', kind: 'map', key: 'x', value: null, captain: 'bob' });
      expect(await db.fleets.knowledge('f', 'market')).toMatchObject([
        { key: 'Vega', value: 1, learnedAt: 5 },
        { key: 'sol', value: { ore: 4 }, captain: 'bob' },
      ]);
      expect((await db.fleets.knowledge('f')).map((row) => row.kind)).toEqual(['map', 'market', 'market']);
      await db.fleets.stopFleet('f');
      expect((await db.fleets.getFleet('f'))?.state).toBe('stopped');
      expect((await db.fleets.listFleets()).map((row) => row.name)).toEqual(['f']);
      expect(await db.fleets.getFleet('nothing')).toBeUndefined();
    });

    it('hands each order to one taker only, when two take at once', async () => {
      const { store: a, another } = await fresh();
      const b = await another();
      await a.fleets.startFleet({ name: 'f', file: '/f.yaml', pid: 1, host: 'h' });
      for (let index = 0; index < 20; index += 1) {
        await a.fleets.addOrder({ fleet: 'f', captain: 'ada', command: 'order', text: `o${index}` });
      }
      const [left, right] = await Promise.all([a.fleets.takeOrders('f'), b.fleets.takeOrders('f')]);
      const texts = [...(left ?? []), ...(right ?? [])].map((order) => order.text).sort();
      expect(texts).toHaveLength(20);
      expect(new Set(texts).size).toBe(20);
    });
  });

  describe(`${name}: lifecycle`, () => {
    it('is at the one migration list’s version, reports a sound database, is up, flushes and closes twice', async () => {
      const db = await store();
      expect(await db.schemaVersion()).toBe(migrations.length);
      expect(await db.integrityCheck()).toEqual(['ok']);
      expect(db.health()).toEqual({ state: 'up' });
      const unsubscribe = db.onHealth(() => undefined);
      unsubscribe();
      await db.flush();
      expect(db.path).not.toBe('');
      await db.close();
      await db.close();
    });
  });
}

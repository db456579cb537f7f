// The store's contract, one suite for every backend: sqlite.test.ts runs it on a real SQLite file, postgres.test.ts
// on a real PostgreSQL server (a fresh schema per test). What a caller of `Store` may rely on, whatever is behind it:
// sessions, transcripts (append, batches, ranges, streaming), usage, snapshots, turns, leases, credentials, memory,
// request logs and fleets. Each test opens its own store, so the backends' tests cannot see each other's rows.
import { afterEach, describe, expect, it } from 'vitest';
import { SkipperError, UsageError } from '../../internal/shared/index.js';
import type { Store } from '../../internal/store/index.js';

/** Opens a fresh, empty store (own file or own schema) for one test. */
export type OpenFreshStore = () => Store;

export function storeContract(name: string, openFresh: OpenFreshStore): void {
  const opened: Store[] = [];
  const fresh = (): Store => {
    const store = openFresh();
    opened.push(store);
    return store;
  };
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
  });

  describe(`${name}: sessions`, () => {
    it('creates, finds, updates, renames, lists and deletes sessions', () => {
      const store = fresh();
      const made = store.createSession({ name: 'ada', game: 'embedded', model: 'builtin/autopilot', extra: { a: 1 } });
      expect(store.getSession('ada').id).toBe(made.id);
      expect(store.findSession(made.id)?.extra).toEqual({ a: 1 });
      expect(store.findSession('nobody')).toBeUndefined();
      expect(() => store.getSession('nobody')).toThrow(UsageError);
      const changed = store.updateSession('ada', { goal: 'get rich', status: 'ended', username: 'Ada' });
      expect(changed).toMatchObject({ goal: 'get rich', status: 'ended', username: 'Ada' });
      store.renameSession('ada', 'ada-two');
      expect(store.getSession('ada-two').id).toBe(made.id);
      expect(() => store.createSession({ name: 'ada-two', game: 'embedded', model: 'm' })).toThrow(SkipperError);
      store.createSession({ name: 'bob', game: 'embedded', model: 'm' });
      expect(
        store
          .listSessions()
          .map((row) => row.session.name)
          .sort(),
      ).toEqual(['ada-two', 'bob']);
      expect(store.deleteSession('bob')).toBe(true);
      expect(store.deleteSession('bob')).toBe(false);
    });

    it('strips credentials from a game URL before it is stored', () => {
      const store = fresh();
      const session = store.createSession({ game: 'https://user:secret@game.example/mcp', model: 'm' });
      expect(store.getSession(session.id).game).not.toContain('secret');
    });
  });

  describe(`${name}: transcripts`, () => {
    it('appends, batches, reads ranges and counts in order', () => {
      const store = fresh();
      const { id } = store.createSession({ name: 's', game: 'embedded', model: 'm' });
      store.append(id, { role: 'user', content: 'hello', turn: 1 });
      store.append(id, {
        role: 'assistant',
        content: '',
        turn: 1,
        round: 1,
        toolCalls: [{ id: 'c1', name: 'mine', arguments: '{}' }],
      });
      store.appendMany(id, [
        { role: 'tool', content: 'ore +3', toolCallId: 'c1', toolName: 'mine', turn: 1, isError: false },
        { role: 'user', content: 'again', turn: 2 },
        { role: 'assistant', content: 'done', turn: 2 },
      ]);
      expect(store.messageCount(id)).toBe(5);
      expect(store.lastTurn(id)).toBe(2);
      expect(store.messages(id).map((message) => message.content)).toEqual(['hello', '', 'ore +3', 'again', 'done']);
      expect(store.messages(id, { fromTurn: 2 }).map((message) => message.content)).toEqual(['again', 'done']);
      expect(store.messages(id, { toTurn: 1 })).toHaveLength(3);
      const toolCall = store.messages(id)[1];
      expect(toolCall?.role === 'assistant' && toolCall.toolCalls?.[0]?.name).toBe('mine');
    });

    it('a batch is all or nothing: a duplicate id rolls the whole batch back', () => {
      const store = fresh();
      const { id } = store.createSession({ game: 'embedded', model: 'm' });
      store.append(id, { id: 'dup', role: 'user', content: 'first' });
      expect(() =>
        store.appendMany(id, [
          { role: 'user', content: 'lost' },
          { id: 'dup', role: 'user', content: 'clash' },
        ]),
      ).toThrow(SkipperError);
      expect(store.messages(id).map((message) => message.content)).toEqual(['first']);
      expect(() => store.append('no-such-session', { role: 'user', content: 'x' })).toThrow(UsageError);
    });

    it('streams more than a page of messages in order, and sees appends made meanwhile', () => {
      const store = fresh();
      const { id } = store.createSession({ game: 'embedded', model: 'm' });
      store.appendMany(
        id,
        Array.from({ length: 1500 }, (_, index) => ({ role: 'user' as const, content: `m${index}`, turn: index })),
      );
      let seen = 0;
      let last = -1;
      for (const message of store.iterateMessages(id)) {
        const number = Number(message.content.slice(1));
        expect(number).toBeGreaterThan(last);
        last = number;
        seen += 1;
        if (seen === 1) store.append(id, { role: 'user', content: 'm1500', turn: 1500 });
      }
      expect(seen).toBe(1501);
      expect([...store.iterateMessages(id, { fromTurn: 10, toTurn: 12 })]).toHaveLength(3);
    });
  });

  describe(`${name}: usage, snapshots, turns`, () => {
    it('sums usage and lists its series', () => {
      const store = fresh();
      const { id } = store.createSession({ game: 'embedded', model: 'm' });
      const usage = { promptTokens: 100, completionTokens: 20, cachedTokens: 5, reasoningTokens: 1, costUsd: 0.25 };
      store.recordUsage({ sessionId: id, turn: 1, round: 1, model: 'm', usage, latencyMs: 12.5, createdAt: 1000 });
      store.recordUsage({ sessionId: id, turn: 1, round: 2, model: 'm', usage, latencyMs: 10, createdAt: 2000 });
      const totals = store.usageTotals(id);
      expect(totals).toMatchObject({ calls: 2, promptTokens: 200, completionTokens: 40, cachedTokens: 10 });
      expect(totals.costUsd).toBeCloseTo(0.5);
      expect(store.usageSeries(id).map((point) => point.round)).toEqual([1, 2]);
      expect(store.usageSeries(id, { sinceMs: 1500 })).toHaveLength(1);
      expect(store.listSessions()[0]?.tokens).toBe(240);
    });

    it('keeps one snapshot and one turn record per turn, the last one written', () => {
      const store = fresh();
      const { id } = store.createSession({ game: 'embedded', model: 'm' });
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
      for (const turn of [1, 2, 3]) store.recordSnapshot({ ...game, sessionId: id, turn, credits: 100 * turn });
      store.recordSnapshot({ ...game, sessionId: id, turn: 3, credits: 999, docked: false });
      expect(store.snapshots(id).map((snapshot) => snapshot.credits)).toEqual([100, 200, 999]);
      expect(store.snapshots(id, { last: 2 }).map((snapshot) => snapshot.turn)).toEqual([2, 3]);
      expect(store.snapshots(id)[2]?.docked).toBe(false);
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
      store.recordTurn(turn);
      store.recordTurn({ ...turn, outcome: 'failed' });
      expect(store.turns(id)).toEqual([{ ...turn, outcome: 'failed' }]);
      expect(store.listSessions()[0]?.creditsDelta).toBe(899);
    });
  });

  describe(`${name}: leases`, () => {
    it('gives a session to one holder at a time; renew and release only for the holder', () => {
      const store = fresh();
      const first = { pid: 1, host: 'host-a', token: 'a' };
      const second = { pid: 2, host: 'host-b', token: 'b' };
      expect(store.takeLease('s1', first).taken).toBe(true);
      const refused = store.takeLease('s1', second);
      expect(refused.taken === false && refused.holder.token).toBe('a');
      expect(store.renewLease('s1', second)).toBe(false);
      expect(store.renewLease('s1', first)).toBe(true);
      expect(store.releaseLease('s1', second)).toBe(false);
      expect(store.releaseLease('s1', first)).toBe(true);
      expect(store.takeLease('s1', second).taken).toBe(true);
      // Stale after staleMs: anyone may take it over.
      expect(store.takeLease('s1', first, { staleMs: 0 }).taken).toBe(true);
    });
  });

  describe(`${name}: credentials and memory`, () => {
    it('stores credentials per game, the latest put wins, and lists passwords', () => {
      const store = fresh();
      store.credentials.put('g', 'ada', 'pw-1');
      store.credentials.put('g', 'bob', 'pw-2');
      expect(store.credentials.get('g', 'ada')).toEqual({ username: 'ada', password: 'pw-1' });
      expect(store.credentials.latest('g')?.username).toBe('bob');
      store.credentials.put('g', 'ada', 'pw-3');
      expect(store.credentials.latest('g')).toEqual({ username: 'ada', password: 'pw-3' });
      expect(store.credentials.allPasswords().sort()).toEqual(['pw-2', 'pw-3']);
      expect(store.credentials.remove('g', 'bob')).toBe(true);
      expect(store.credentials.allPasswords()).toEqual(['pw-3']);
    });

    it('adds, lists, touches and clears memory', () => {
      const store = fresh();
      const note = store.memory.add({ captain: 'c', kind: 'note', text: 'sell ore at Sol', tags: ['ore'] });
      store.memory.add({ captain: 'c', kind: 'lesson', text: 'refuel early', outcome: 'success' });
      store.memory.touch([note.id]);
      expect(store.memory.get(note.id)?.uses).toBe(1);
      expect(store.memory.list('c', { kind: 'note' }).map((entry) => entry.text)).toEqual(['sell ore at Sol']);
      expect(store.memory.remove(note.id)).toBe(true);
      expect(store.memory.clear('c')).toBe(1);
    });
  });

  describe(`${name}: requests`, () => {
    it('stores a request from shared pieces and rebuilds it; deleting the session drops its pieces', () => {
      const store = fresh();
      const { id } = store.createSession({ name: 'r', game: 'embedded', model: 'm' });
      const messages = [JSON.stringify({ role: 'user', content: 'hi' })];
      const tools = JSON.stringify([]);
      const input = {
        sessionId: id,
        turn: 1,
        round: 1,
        attempt: 1,
        model: 'm',
        messages,
        tools,
        outcome: 'reply' as const,
      };
      const first = store.requests.record(input);
      const second = store.requests.record({ ...input, round: 2 });
      expect(second).toBeGreaterThan(first);
      expect(store.requests.count(id)).toBe(2);
      expect(store.requests.load(second).messages).toEqual([{ role: 'user', content: 'hi' }]);
      expect(store.requests.list(id).map((request) => request.round)).toEqual([1, 2]);
      store.deleteSession('r');
      const other = store.createSession({ game: 'embedded', model: 'm' });
      expect(store.requests.count(other.id)).toBe(0);
    });

    it('keeps a context recipe beside its system message, and refuses one it cannot read as damaged', () => {
      const store = fresh();
      const { id } = store.createSession({ name: 'rr', game: 'embedded', model: 'builtin/autopilot' });
      const recipe = { through: 'm7', start: 'm5', budgetTokens: 8000, compaction: 0, local: ['memory_recall'] };
      const input = {
        sessionId: id,
        turn: 2,
        round: 3,
        attempt: 1,
        model: 'builtin/autopilot',
        messages: [JSON.stringify({ id: 'context-system', role: 'system', content: 'sys', createdAt: 0 })],
        tools: JSON.stringify([]),
        outcome: 'reply' as const,
      };
      const kept = store.requests.record({ ...input, recipe: JSON.stringify(recipe) });
      const whole = store.requests.record({ ...input, round: 4 });
      expect(store.requests.load(kept)).toMatchObject({ recipe, messages: [{ role: 'system', content: 'sys' }] });
      expect(store.requests.load(whole).recipe).toBeUndefined();
      const damaged = store.requests.record({ ...input, round: 5, recipe: JSON.stringify({ ...recipe, through: 7 }) });
      expect(() => store.requests.load(damaged)).toThrow(/context recipe that cannot be read; the database is damaged/);
    });
  });

  describe(`${name}: counterfactuals`, () => {
    it('numbers replays per session, sums their decisions and lists them with the session name', () => {
      const store = fresh();
      const { id } = store.createSession({ name: 'cf', game: 'embedded', model: 'm' });
      const run = store.counterfactuals.create({ sessionId: id, model: 'other' });
      const answer = { content: '', toolCalls: [{ id: 'c', name: 'mine', arguments: '{}' }] };
      const usage = { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0, costUsd: 0.01 };
      const decision = { turn: 1, round: 1, original: answer, proposed: answer, problems: [], usage, latencyMs: 3.5 };
      store.counterfactuals.addDecision(run.id, { ...decision, requestId: 1, verdict: 'same' });
      store.counterfactuals.addDecision(run.id, { ...decision, requestId: 2, verdict: 'different' });
      store.counterfactuals.finish(run.id, 'done');
      expect(store.counterfactuals.create({ sessionId: id, model: 'third' }).name).not.toBe(run.name);
      const summary = store.counterfactuals.get(run.name);
      expect(summary?.run).toMatchObject({ sessionName: 'cf', status: 'done' });
      expect(summary?.totals).toMatchObject({ decisions: 2, same: 1, different: 1, tokens: 30 });
      expect(store.counterfactuals.list()).toHaveLength(2);
      expect(store.counterfactuals.decisions(run.id).map((row) => row.verdict)).toEqual(['same', 'different']);
    });
  });

  describe(`${name}: fleets`, () => {
    it('keeps fleets, captains, orders, events and knowledge', () => {
      const store = fresh();
      store.fleets.startFleet({ name: 'f', file: '/f.yaml', pid: 42, host: 'h1' });
      store.fleets.upsertCaptain('f', 'ada', { sessionName: 'f-ada', model: 'builtin/autopilot', state: 'starting' });
      store.fleets.upsertCaptain('f', 'ada', { state: 'playing', credits: 500, place: 'sol / station' });
      expect(store.fleets.captain('f', 'ada')).toMatchObject({ state: 'playing', credits: 500, sessionName: 'f-ada' });
      store.fleets.addOrder({ fleet: 'f', captain: 'ada', command: 'park' });
      store.fleets.addOrder({ fleet: 'f', captain: 'ada', command: 'order', text: 'sell' });
      expect(store.fleets.takeOrders('f').map((order) => order.command)).toEqual(['park', 'order']);
      expect(store.fleets.takeOrders('f')).toEqual([]);
      const event = store.fleets.addEvent({ fleet: 'f', captain: 'ada', kind: 'ladder', text: 'to fallback' });
      expect(store.fleets.events('f', { afterSeq: event.seq - 1 }).map((row) => row.text)).toEqual(['to fallback']);
      store.fleets.putKnowledge({ fleet: 'f', kind: 'market', key: 'sol', value: { ore: 3 }, captain: 'ada' });
      store.fleets.putKnowledge({ fleet: 'f', kind: 'market', key: 'sol', value: { ore: 4 }, captain: 'bob' });
      expect(store.fleets.knowledge('f', 'market')).toMatchObject([{ value: { ore: 4 }, captain: 'bob' }]);
      store.fleets.stopFleet('f');
      expect(store.fleets.getFleet('f')?.state).toBe('stopped');
    });
  });

  describe(`${name}: lifecycle`, () => {
    it('reports a sound database and closes twice without error', () => {
      const store = fresh();
      expect(store.integrityCheck()).toEqual(['ok']);
      store.close();
      store.close();
    });
  });
}

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, snapshotFromDashboard, type GameSnapshot } from '../../../internal/store/index.js';
import { UsageError } from '../../../internal/shared/index.js';
import { type MmDashboard } from '../../../internal/spacemolt/index.js';
import { tempDbPath } from './helpers.js';

function snapshot(credits: number): GameSnapshot {
  return {
    tick: 1,
    credits,
    netWorth: credits,
    fuel: 10,
    maxFuel: 100,
    cargoUsed: 0,
    cargoCapacity: 50,
    hull: 100,
    maxHull: 100,
    systemId: 'sol',
    poiId: 'earth',
    docked: true,
  };
}

describe('sessions', () => {
  it('generates unique dated names when none is given, and ids made by code', async () => {
    const store = await openStore({ path: ':memory:', now: () => Date.parse('2026-11-21T10:00:00Z') });
    const names = new Set<string>();
    for (let i = 0; i < 60; i++) names.add((await store.createSession({ game: 'embedded', model: 'm' })).name);
    expect(names.size).toBe(60);
    for (const name of names) expect(name).toMatch(/^2026-11-21-[a-z]+-[a-z]+(-\d+)?$/);
    const session = await store.getSession([...names][0]!);
    expect(session.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await store.getSession(session.id)).name).toBe(session.name);
    await store.close();
  });

  it('keeps what it was created with, and refuses duplicate or awkward names', async () => {
    const store = await openStore({ path: ':memory:', now: () => 5 });
    const session = await store.createSession({
      name: 'run-1',
      game: 'embedded',
      model: 'openai/gpt',
      username: 'cap',
      goal: 'get rich',
      extra: { autoplay: true },
    });
    expect(session).toMatchObject({
      name: 'run-1',
      game: 'embedded',
      model: 'openai/gpt',
      username: 'cap',
      goal: 'get rich',
      status: 'active',
      createdAt: 5,
      updatedAt: 5,
      extra: { autoplay: true },
    });
    await expect(store.createSession({ name: 'run-1', game: 'g', model: 'm' })).rejects.toThrow(/already exists/);
    await expect(store.createSession({ name: 'has space', game: 'g', model: 'm' })).rejects.toThrow(UsageError);
    await expect(store.createSession({ name: '', game: 'g', model: 'm' })).rejects.toThrow(UsageError);
    await expect(store.getSession('nope')).rejects.toThrow(/skipper sessions/);
    expect(await store.findSession('nope')).toBeUndefined();
    await store.close();
  });

  it('updates and renames', async () => {
    let clock = 1;
    const store = await openStore({ path: ':memory:', now: () => clock });
    await store.createSession({ name: 'a', game: 'g', model: 'm' });
    await store.createSession({ name: 'b', game: 'g', model: 'm' });
    clock = 9;
    const updated = await store.updateSession('a', { username: 'cap', status: 'ended', extra: { k: 1 } });
    expect(updated).toMatchObject({ username: 'cap', status: 'ended', extra: { k: 1 }, updatedAt: 9, model: 'm' });
    await expect(store.renameSession('a', 'b')).rejects.toThrow(/already exists/);
    expect((await store.renameSession('a', 'c')).name).toBe('c');
    expect(await store.findSession('a')).toBeUndefined();
    await store.close();
  });

  it('deleteSession removes the session and everything recorded for it, and nothing else', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file });
    const doomed = await store.createSession({ name: 'doomed', game: 'g', model: 'm' });
    const kept = await store.createSession({ name: 'kept', game: 'g', model: 'm' });
    for (const session of [doomed, kept]) {
      await store.append(session.id, { role: 'user', content: 'x', turn: 1 });
      await store.recordUsage({
        sessionId: session.id,
        turn: 1,
        model: 'm',
        usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0, costUsd: 0 },
      });
      await store.recordSnapshot({ sessionId: session.id, turn: 1, ...snapshot(10) });
      await store.recordTurn({
        sessionId: session.id,
        turn: 1,
        outcome: 'answered',
        rounds: 1,
        toolCalls: 0,
        startedAt: 1,
        endedAt: 2,
        inputKind: 'user',
      });
    }
    expect(await store.deleteSession('doomed')).toBe(true);
    expect(await store.deleteSession('doomed')).toBe(false);
    await store.close();
    const raw = new Database(file, { readonly: true });
    for (const table of ['messages', 'usage', 'snapshots', 'turns']) {
      const rows = raw.prepare(`SELECT session_id FROM ${table}`).all() as Array<{ session_id: string }>;
      expect(
        rows.map((row) => row.session_id),
        table,
      ).toEqual([kept.id]);
    }
    raw.close();
  });

  it('listSessions aggregates turns, last activity, credits delta, tokens and cost, most recent first', async () => {
    let clock = 1000;
    const store = await openStore({ path: ':memory:', now: () => clock });
    const quiet = await store.createSession({ name: 'quiet', game: 'embedded', model: 'builtin/autopilot' });
    const busy = await store.createSession({ name: 'busy', game: 'embedded', model: 'openai/gpt' });
    clock = 2000;
    await store.append(busy.id, { role: 'user', content: 'go', turn: 1 });
    await store.append(busy.id, { role: 'assistant', content: 'ok', turn: 3, createdAt: 5000 });
    await store.recordSnapshot({ sessionId: busy.id, turn: 1, ...snapshot(1000) });
    await store.recordSnapshot({ sessionId: busy.id, turn: 2, ...snapshot(900) });
    await store.recordSnapshot({ sessionId: busy.id, turn: 3, ...snapshot(1750) });
    await store.recordSnapshot({ sessionId: busy.id, turn: 3, ...snapshot(1800) }); // one per turn: replaces
    await store.recordUsage({
      sessionId: busy.id,
      turn: 1,
      model: 'openai/gpt',
      usage: { promptTokens: 100, completionTokens: 20, cachedTokens: 50, reasoningTokens: 5, costUsd: 0.01 },
      latencyMs: 300,
    });
    await store.recordUsage({
      sessionId: busy.id,
      turn: 3,
      model: 'openai/gpt',
      usage: { promptTokens: 200, completionTokens: 30, cachedTokens: 0, costUsd: 0.02 },
      latencyMs: 200,
    });
    const [first, second] = await store.listSessions();
    expect(first).toMatchObject({ turns: 3, messages: 2, lastActiveAt: 5000, creditsDelta: 800, tokens: 350 });
    expect(first?.costUsd).toBeCloseTo(0.03);
    expect(first?.session.name).toBe('busy');
    expect(second).toMatchObject({
      turns: 0,
      messages: 0,
      lastActiveAt: 1000,
      creditsDelta: null,
      tokens: 0,
      costUsd: 0,
    });
    expect(second?.session.id).toBe(quiet.id);
    expect((await store.snapshots(busy.id)).map((s) => s.credits)).toEqual([1000, 900, 1800]);
    expect(await store.usageTotals(busy.id)).toMatchObject({
      calls: 2,
      promptTokens: 300,
      completionTokens: 50,
      cachedTokens: 50,
      reasoningTokens: 5,
      latencyMs: 500,
    });
    await store.close();
  });

  it('records turns, one per turn', async () => {
    const store = await openStore({ path: ':memory:' });
    const session = await store.createSession({ game: 'g', model: 'm' });
    const turn = {
      sessionId: session.id,
      turn: 1,
      outcome: 'cancelled' as const,
      rounds: 2,
      toolCalls: 3,
      startedAt: 10,
      endedAt: 20,
      inputKind: 'autoplay' as const,
    };
    await store.recordTurn(turn);
    await store.recordTurn({ ...turn, outcome: 'answered' });
    await store.recordTurn({ ...turn, turn: 2, outcome: 'round_limit' });
    expect((await store.turns(session.id)).map((t) => [t.turn, t.outcome])).toEqual([
      [1, 'answered'],
      [2, 'round_limit'],
    ]);
    expect((await store.turns(session.id))[0]).toEqual({ ...turn, outcome: 'answered' });
    expect((await store.listSessions())[0]?.turns).toBe(2);
    await store.close();
  });

  it('maps a minimolt dashboard to a snapshot', () => {
    const dashboard: MmDashboard = {
      player: { id: 'p', username: 'u', empire: 'solarian', credits: 1234 },
      ship: {
        name: 's',
        hull: 80,
        max_hull: 100,
        fuel: 40,
        max_fuel: 100,
        cargo_used: 5,
        cargo_capacity: 50,
        speed: 1,
      },
      location: {
        system_id: 'sol',
        system_name: 'Sol',
        poi_id: null,
        poi_name: null,
        poi_type: null,
        docked: false,
        police_level: 1,
        in_transit: true,
      },
      cargo: [],
      tick: 77,
    };
    expect(snapshotFromDashboard(dashboard, 2000)).toEqual({
      tick: 77,
      credits: 1234,
      netWorth: 2000,
      fuel: 40,
      maxFuel: 100,
      cargoUsed: 5,
      cargoCapacity: 50,
      hull: 80,
      maxHull: 100,
      systemId: 'sol',
      poiId: null,
      docked: false,
    });
    expect(snapshotFromDashboard(dashboard).netWorth).toBe(1234);
  });
});

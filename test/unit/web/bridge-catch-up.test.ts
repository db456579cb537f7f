// The bridge over a home it has never seen: the first poll reads only each session's last turn (the server listens
// at once), and older turns — the map a captain fetched in turn 1, its action count — are caught up oldest first, a
// bounded number of messages per poll, each message once, while new messages still reach the stream. Real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../internal/store/index.js';
import { storedFigures, storedFiguresJson } from '../../../internal/session/index.js';
import { Bridge, type BridgeChange } from '../../../internal/web/bridge.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function home(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'skipper-web-catch-up-'));
  dirs.push(dir);
  return await openStore({ path: join(dir, 'skipper.db') });
}

const MAP = {
  op: 'get_map',
  details: {
    systems: [
      { id: 'sol', name: 'Sol', connections: ['alpha'], has_station: true },
      { id: 'alpha', name: 'Alpha', connections: ['sol'] },
    ],
  },
};

/** `turns` turns of two messages each; the map in turn 1, a travel call in every other. */
async function fill(store: Store, name: string, turns: number): Promise<string> {
  const session = await store.createSession({ name, game: 'embedded', model: 'builtin/autopilot' });
  for (let turn = 1; turn <= turns; turn++) {
    const tool = turn === 1 ? 'get_map' : 'travel';
    await store.appendMany(session.id, [
      {
        role: 'assistant',
        content: `turn ${turn}`,
        toolCalls: [{ id: `c${turn}`, name: tool, arguments: `{"to":"t${turn}"}` }],
        turn,
      },
      {
        role: 'tool',
        content: 'ok',
        toolCallId: `c${turn}`,
        toolName: tool,
        ...(turn === 1 ? { data: MAP } : {}),
        turn,
      },
    ]);
    await store.recordSnapshot({
      sessionId: session.id,
      turn,
      tick: turn * 2,
      credits: 100,
      netWorth: 100,
      fuel: 1,
      maxFuel: 1,
      cargoUsed: 0,
      cargoCapacity: 1,
      hull: 1,
      maxHull: 1,
      systemId: 'sol',
      poiId: null,
      docked: false,
    });
  }
  return session.id;
}

describe('Bridge catch-up', () => {
  it('reads only the last turn on the first poll and the rest within the per-poll budget, oldest first', async () => {
    const store = await home();
    const ids = [await fill(store, 'ada', 40), await fill(store, 'bob', 40)];
    const bridge = new Bridge(store, { catchUpMessages: 10 });
    const reads: number[] = [];
    /** Whole-transcript reads (the session's figures), by session: apart from the bridge's own, bounded reads. */
    const scans = new Map<string, number>();
    const iterate = store.iterateMessages.bind(store);
    store.iterateMessages = async function* (sessionId, range) {
      for await (const message of iterate(sessionId, range)) {
        if (range) reads.push(message.turn ?? -1);
        else scans.set(sessionId, (scans.get(sessionId) ?? 0) + 1);
        yield message;
      }
    };

    await bridge.poll();
    expect(bridge.cards().map((card) => card.lastAction)).toEqual(['travel T40', 'travel T40']);
    // 2 last turns (2 messages each) + the budget of old turns (whole turns: 10 messages) + the first message of the
    // next turn, seen and left for the next poll.
    expect(reads.length).toBe(2 * 2 + 10 + 1);
    expect(
      bridge.galaxy
        .view()
        .map((system) => system.id)
        .sort(),
    ).toEqual(['alpha', 'sol']);
    expect(bridge.catchingUp()).toBe(2);
    // Figures wait for the history: no session was read whole yet.
    expect(scans.size).toBe(0);
    expect(bridge.cards().map((card) => card.figures)).toEqual([null, null]);

    let polls = 1;
    while (bridge.catchingUp() > 0 && polls < 100) {
      reads.length = 0;
      await bridge.poll();
      expect(reads.length).toBeLessThanOrEqual(10 + 1);
      polls += 1;
    }
    // 2 × 39 old turns × 2 messages, 10 a poll.
    expect(polls).toBe(1 + Math.ceil((2 * 39 * 2 - 10) / 10));
    // Each session's figures were read once, when it was caught up (its turns did not move since).
    for (const id of ids) expect(scans.get(id)).toBe(40 * 2);
    const full = new Bridge(store, { catchUpMessages: 1e9 });
    await full.poll();
    for (const id of ids) {
      // The card's figures are the session's own: what `report --json` writes, tick utilisation included.
      const own = storedFiguresJson(await storedFigures(store, id));
      expect(bridge.card(id)!.figures).toEqual(own);
      expect(full.card(id)!.figures).toEqual(own);
      expect(own.ticks).toBe(78);
      expect(own.tick_utilisation).toBeGreaterThan(0);
    }
    await store.close();
  });

  it('streams a message appended while the history is still being read, once', async () => {
    const store = await home();
    const id = await fill(store, 'ada', 30);
    const bridge = new Bridge(store, { catchUpMessages: 4 });
    await bridge.poll();
    await store.append(id, {
      role: 'assistant',
      content: 'live',
      toolCalls: [{ id: 'x', name: 'mine', arguments: '{}' }],
      turn: 31,
    });
    const changes: BridgeChange[] = await bridge.poll();
    const messages = changes.filter((change) => change.type === 'message');
    expect(messages.map((change) => (change.type === 'message' ? change.message.text : ''))).toEqual(['live']);
    expect(bridge.card(id)!.lastAction).toBe('mine (waiting for the game)');
    expect(bridge.catchingUp()).toBe(1);
    while (bridge.catchingUp() > 0)
      expect((await bridge.poll()).filter((change) => change.type === 'message')).toEqual([]);
    // The backlog's older calls do not overwrite the newest action.
    expect(bridge.card(id)!.lastAction).toBe('mine (waiting for the game)');
    await store.close();
  });
});

// Watches a minimolt engine for tests that measure in game ticks: every mutation asked (engine.queue) with its player,
// tick and outcome, and each tick as it passes, as events a test awaits (no polling, no sleeps). The engine is the real
// one; this only records what it was asked and wakes the test's waiters.
import { join } from 'node:path';
import type { Action, Minimolt } from '../../internal/sim/index.js';
import type { Player } from '../../internal/sim/player.js';
import type { World } from '../../internal/sim/world.js';
import { openStore } from '../../internal/store/index.js';

/** One mutation the game was asked for: accepted (queued) or refused at once, at a tick. */
export interface Attempt {
  tick: number;
  username: string;
  type: Action['type'];
  ok: boolean;
  /** For a travel or jump taken: the tick the ship arrives. */
  arrivesAt?: number;
  code?: string;
  message?: string;
}

/**
 * The game's own record of a run: every mutation asked (engine.queue) with its tick and outcome, and each tick as it
 * passes, as events a test awaits (no polling, no sleeps). The engine is the real one; this only watches it.
 */
export class GameWatch {
  readonly attempts: Attempt[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(readonly sim: Minimolt) {
    const engine = sim.engine;
    const queue = engine.queue.bind(engine);
    engine.queue = (player, action, listener): void => {
      try {
        queue(player, action, listener);
        const arrivesAt = player.transit?.arrivesAt;
        this.attempts.push({
          tick: engine.tick,
          username: player.username,
          type: action.type,
          ok: true,
          ...(arrivesAt ? { arrivesAt } : {}),
        });
      } catch (error) {
        const { code, message } = error as { code?: string; message?: string };
        this.attempts.push({
          tick: engine.tick,
          username: player.username,
          type: action.type,
          ok: false,
          code,
          message,
        });
        throw error;
      } finally {
        this.wake();
      }
    };
    const processTick = engine.processTick.bind(engine);
    engine.processTick = (): void => {
      processTick();
      this.wake();
    };
  }

  get tick(): number {
    return this.sim.tick;
  }

  /** A captain of this world by its username, or the first one registered. */
  player(username?: string): Player {
    const players = [...this.sim.engine.players.values()];
    const player = username === undefined ? players[0] : players.find((p) => p.username === username);
    if (!player) throw new Error(`no player ${username ?? ''} registered yet`);
    return player;
  }

  /** Whether a captain of that username has registered. */
  has(username: string): boolean {
    return [...this.sim.engine.players.values()].some((p) => p.username === username);
  }

  /** Resolves once `check` holds, looked at after every mutation asked and every tick. */
  until<T>(check: () => T | undefined | false, what: string, timeoutMs = 120_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const look = (): boolean => {
        const value = check();
        if (value === undefined || value === false) return false;
        this.waiters.delete(look as () => void);
        clearTimeout(timer);
        resolve(value);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(look as () => void);
        reject(
          new Error(
            `timed out waiting for ${what} (tick ${this.tick}); attempts: ${JSON.stringify(this.attempts.slice(-8))}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(look as () => void);
      look();
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/**
 * The stored snapshots of a session (the first one, or `sessionName`) that pair a system with a POI of another system
 * (what the status line and the views show), as `turn N: system / poi` lines; empty when every one is in place.
 */
export async function snapshotsOutOfPlace(world: World, home: string, sessionName?: string): Promise<string[]> {
  const store = await openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    const session = sessionName ? await store.getSession(sessionName) : (await store.listSessions())[0]!.session;
    return (await store.snapshots(session.id))
      .filter((s) => s.systemId && s.poiId && world.pois.get(s.poiId)?.systemId !== s.systemId)
      .map((s) => `turn ${s.turn}: ${s.systemId} / ${s.poiId}`);
  } finally {
    await store.close();
  }
}

// Interruptions mid-travel (issue 45), on the real program: the built CLI in chat, with the built-in autopilot, plays
// minimolt served over HTTP in this process, with ticks long enough that a travel or a jump takes several of them.
// The captain is stopped (Ctrl+C) while its travel is in flight, then `/autoplay` again in the same process: it must
// read its state and act again within 3 game ticks — never repeat the travel into `invalid_poi: you are already at …`.
// Ticks are the game's (the engine's own counter), never the wall clock; every wait awaits an event of the game or a
// line of the CLI.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMinimolt, type Minimolt } from '../../internal/sim/index.js';
import type { Action } from '../../internal/sim/index.js';
import type { Player } from '../../internal/sim/player.js';
import { openStore } from '../../internal/store/index.js';
import { removeHome, runCli, makeHome, type CliRun } from '../fakes/cli-process.js';
import { stopChild } from '../faults/harness.js';

const CODE = 'interrupt-code-4545';
/** Long enough for the CLI to read and act between two ticks on a loaded machine; a travel still takes several. */
const TICK_MS = 1000;
/** The bound: the next action within 3 game ticks, at most 3 refusals. */
const TICKS_TO_ACT = 3;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** One mutation the game was asked for: accepted (queued) or refused at once, at a tick. */
interface Attempt {
  tick: number;
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
class GameWatch {
  readonly attempts: Attempt[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(readonly sim: Minimolt) {
    const engine = sim.engine;
    const queue = engine.queue.bind(engine);
    engine.queue = (player, action, listener): void => {
      try {
        queue(player, action, listener);
        const arrivesAt = player.transit?.arrivesAt;
        this.attempts.push({ tick: engine.tick, type: action.type, ok: true, ...(arrivesAt ? { arrivesAt } : {}) });
      } catch (error) {
        const { code, message } = error as { code?: string; message?: string };
        this.attempts.push({ tick: engine.tick, type: action.type, ok: false, code, message });
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

  /** The one captain of this world. */
  player(): Player {
    const [player] = this.sim.engine.players.values();
    if (!player) throw new Error('no player registered yet');
    return player;
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

async function servedGame(): Promise<{ sim: Minimolt; watch: GameWatch; url: string }> {
  const sim = await createMinimolt({
    tickMs: TICK_MS,
    worldDb: ':memory:',
    seed: 42,
    registrationCode: CODE,
    hostileChat: 0,
  });
  const http = await sim.listen();
  cleanups.push(() => sim.close());
  return { sim, watch: new GameWatch(sim), url: http.v2Url };
}

function chat(url: string): CliRun {
  const home = makeHome();
  const cli = runCli(['--game', url, '--registration-code', CODE], { home });
  cleanups.push(async () => {
    await stopChild(cli);
    removeHome(home);
  });
  return cli;
}

/** The stored session's tool results, oldest first, with the call each answers. */
function storedResults(home: string): Array<{ action: string; isError: boolean; content: string; at: number }> {
  const store = openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    const session = store.listSessions()[0]!.session;
    const messages = store.messages(session.id);
    const calls = new Map(messages.flatMap((m) => m.toolCalls ?? []).map((call) => [call.id, call]));
    return messages
      .filter((m) => m.role === 'tool')
      .map((m) => {
        const call = m.toolCallId ? calls.get(m.toolCallId) : undefined;
        const action = call ? String((JSON.parse(call.arguments) as { action?: unknown }).action ?? call.name) : '?';
        return { action, isError: m.isError === true, content: String(m.content), at: m.createdAt };
      });
  } finally {
    store.close();
  }
}

describe('interruptions: Ctrl+C mid-travel, then /autoplay again in the same chat', () => {
  it.each([
    { kind: 'travel', resume: 'after the ship arrived' },
    { kind: 'jump', resume: 'after the ship arrived' },
    { kind: 'jump', resume: 'while the ship is still under way' },
  ] as const)(
    'Ctrl+C during a $kind, /autoplay again $resume: it acts within 3 ticks, no refusal follows',
    async ({ kind, resume }) => {
      const { sim, watch, url } = await servedGame();
      const cli = chat(url);
      await cli.waitFor(/Talk to your captain/, { timeoutMs: 30_000 });
      cli.send('/autoplay');
      // The game takes the travel or jump (a leg of 2 ticks and more), and the call waits for the arrival: in flight.
      const departed = await watch.until(
        () => watch.attempts.find((a) => a.ok && a.type === kind && (a.arrivesAt ?? 0) - a.tick >= 2),
        `a ${kind} to be taken`,
        240_000,
      );
      const stoppedAt = cli.stdout().length;
      cli.kill('SIGINT');
      const arrival = departed.arrivesAt!;
      // The captain said where it went before the call left (the line the person saw).
      const said = [...cli.stdout().matchAll(/captain › [^\n]*(?:travelling to|jumping to)[^\n]*/g)].at(-1)?.[0];
      expect(said, 'the captain said it was under way').toMatch(kind === 'travel' ? /travelling to/ : /jumping to/);
      await cli.waitFor(/\^C autoplay stopped/, { after: stoppedAt, timeoutMs: 30_000 });
      // The summary ends the stop; nothing of the dead turn comes after it.
      await cli.waitFor(/tick utilisation/, { after: stoppedAt, timeoutMs: 30_000 });
      const afterStop = cli.stdout().length;
      cli.send('/status');
      const [stoppedStatus] = await cli.waitFor(/¢[^\n]*· tick \d+[^\n]*/, { after: afterStop, timeoutMs: 30_000 });
      if (resume === 'after the ship arrived')
        await watch.until(() => watch.player().transit === null, 'the ship to arrive');
      else expect(watch.player().transit, 'still under way when /autoplay is sent again').not.toBeNull();

      const attemptsBefore = watch.attempts.length;
      const errorsBefore = { ...watch.player().stats.errors };
      const resumedTick = watch.tick;
      const resumedAt = Date.now();
      cli.send('/autoplay');
      const next = await watch.until(
        () => watch.attempts.slice(attemptsBefore).find((a) => a.ok),
        'the next action after /autoplay',
      );
      // The game takes no action from a ship under way: count from the arrival when it came later.
      const ticksToAct = next.tick - Math.max(resumedTick, arrival);
      // Play on a little, to see what follows the first action: two more actions taken.
      await watch.until(() => watch.attempts.slice(attemptsBefore).filter((a) => a.ok).length >= 3, 'two more actions');
      const stopAt = cli.stdout().length;
      cli.send('/stop');
      await cli.waitFor(/tick utilisation/, { after: stopAt, timeoutMs: 30_000 });
      const beforeStatus = cli.stdout().length;
      cli.send('/status');
      const [endStatus] = await cli.waitFor(/¢[^\n]*· tick \d+[^\n]*/, { after: beforeStatus, timeoutMs: 30_000 });
      cli.send('/quit');
      await cli.exited;

      const refusedAfter = watch.attempts.slice(attemptsBefore).filter((a) => !a.ok);
      const errorsAfter = Object.entries(watch.player().stats.errors)
        .map(([code, count]) => [code, count - (errorsBefore[code] ?? 0)] as const)
        .filter(([, count]) => count > 0);
      const storedRefusals = storedResults(cli.home).filter(
        (r) => r.at >= resumedAt && r.isError && !/cancel/i.test(r.content),
      );
      const report =
        `${kind} taken at tick ${departed.tick} (arrives ${arrival}), /autoplay again at tick ${resumedTick}, ` +
        `next action ${next.type} at tick ${next.tick} (${ticksToAct} ticks), refusals after: ` +
        `game ${refusedAfter.length} ${JSON.stringify(errorsAfter)}, stored ${storedRefusals.length}`;
      console.log(report);
      expect(
        storedRefusals.map((r) => `${r.action}: ${r.content.slice(0, 120)}`),
        report,
      ).toEqual([]);
      expect(refusedAfter, report).toEqual([]);
      expect(errorsAfter, report).toEqual([]);
      expect(ticksToAct, report).toBeLessThanOrEqual(TICKS_TO_ACT);
      // What the person is shown pairs a system with one of its own POIs (or with none).
      checkPlaces(sim, cli.home, [stoppedStatus!, endStatus!]);
    },
    300_000,
  );
});

/** The /status line and every stored snapshot name a POI of the system they name, never one of another system. */
function checkPlaces(sim: Minimolt, home: string, statuses: string[]): void {
  const world = sim.engine.world;
  const store = openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    const session = store.listSessions()[0]!.session;
    for (const snapshot of store.snapshots(session.id)) {
      if (!snapshot.systemId || !snapshot.poiId) continue;
      expect(world.pois.get(snapshot.poiId)?.systemId, `snapshot of turn ${snapshot.turn}`).toBe(snapshot.systemId);
    }
  } finally {
    store.close();
  }
  for (const status of statuses) {
    const place = status.match(/· ([^·/]+) \/ ([^·(]+?) (?:\(docked\) )?·/);
    if (!place) continue;
    const [, systemName, poiName] = place;
    const system = [...world.systems.values()].find((s) => s.name === systemName!.trim());
    expect(system, status).toBeDefined();
    expect(
      system!.pois.map((poi) => poi.name),
      `the status line's POI is one of ${systemName}'s: ${status}`,
    ).toContain(poiName!.trim());
  }
}

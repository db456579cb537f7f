// The game a session plays, set up from the config: embedded minimolt (created here, its registration code handed to
// the captain) or a remote target, with the tick clock and the busy-tick figures each can give.
import { join } from 'node:path';
import { parseGameTarget, type GameTarget } from '../game/index.js';
import { createMinimolt, type Minimolt } from '../sim/index.js';
import type { TickStats } from '../session/index.js';
import type { ResolvedConfig } from './config.js';
import type { FileLogger } from './logger.js';
import { SPACEMOLT_TICK_MS, estimatedClock, httpClock, serverClock, type TickClock } from '../session/index.js';

export interface GameSetup {
  target: GameTarget;
  /** The game's tick (SpaceMolt's text never says it): minimolt's own, else an estimate. */
  clock: TickClock;
  sim?: Minimolt;
  tickStats?: (username: string | undefined) => Promise<TickStats | undefined>;
}

export async function setUpGame(config: ResolvedConfig, logger: FileLogger): Promise<GameSetup> {
  if (config.game === 'embedded') {
    const sim = await createMinimolt({
      seed: config.seed,
      systems: config.systems,
      tickMs: config.tickMs,
      worldDb: join(config.home, 'world.db'),
      hostileChat: config.hostileChat,
      // Turbo squeezes hours of play into seconds: a per-minute query budget in wall-clock time would only stall it.
      ...(config.tickMs === 0 ? { rateLimits: { queriesPerMinute: 0 } } : {}),
      logger: logger.logger.child({ module: 'sim' }),
      // The world could not be kept: playing on would report progress the world then forgets. Every message already
      // acknowledged is committed (rule 13), so ending here loses nothing the store promised.
      onDiskFull: (error) => {
        logger.flush();
        process.stderr.write(`skipper: ${error.message}\n`);
        process.exit(error.exitCode);
      },
    });
    return {
      target: { kind: 'transport', label: 'embedded', url: 'embedded://minimolt', connect: () => sim.connect() },
      clock: serverClock(() => sim.tick, config.tickMs),
      sim,
      tickStats: async (username) => {
        const player = sim.stats().players.find((row) => row.username === username);
        return player
          ? {
              ticksAlive: player.ticks_alive,
              busyTicks: player.busy_ticks,
              actions: player.actions,
              deaths: player.deaths,
              leaks: player.leaks,
            }
          : undefined;
      },
    };
  }
  const target = parseGameTarget(config.game);
  const clock = target.kind === 'http' ? await httpClock(target.url) : estimatedClock(SPACEMOLT_TICK_MS);
  const setup: GameSetup = { target, clock };
  if (target.kind === 'http') {
    // A minimolt server (skipper serve) reports busy ticks on /stats, loopback only; other servers simply don't.
    const statsUrl = new URL('/stats', target.url);
    if (['127.0.0.1', 'localhost', '[::1]'].includes(statsUrl.hostname)) {
      setup.tickStats = async (username) => {
        const response = await fetch(statsUrl, { signal: AbortSignal.timeout(2000) });
        if (!response.ok) return undefined;
        const body = (await response.json()) as { players?: Array<Record<string, unknown>> };
        const player = body.players?.find((row) => row.username === username);
        if (!player || typeof player.ticks_alive !== 'number' || typeof player.busy_ticks !== 'number')
          return undefined;
        const count = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
        const stats: TickStats = { ticksAlive: player.ticks_alive, busyTicks: player.busy_ticks };
        const [actions, deaths, leaks] = [count(player.actions), count(player.deaths), count(player.leaks)];
        if (actions !== undefined) stats.actions = actions;
        if (deaths !== undefined) stats.deaths = deaths;
        if (leaks !== undefined) stats.leaks = leaks;
        return stats;
      };
    }
  }
  return setup;
}

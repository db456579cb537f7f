// A fleet on a real minimolt over HTTP (optionally behind the strict limits proxy), run by the real FleetRunner with a
// real SQLite store file: the parts a `skipper fleet` user meets, minus the command line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGameTarget } from '../../internal/game/index.js';
import { createAutopilotProvider } from '../../internal/provider/builtin/index.js';
import { serverClock } from '../../internal/session/index.js';
import { createMinimolt, type HttpHandle, type Minimolt } from '../../internal/sim/index.js';
import { openStore, type Store } from '../../internal/store/index.js';
import { silentLogger, type Provider } from '../../internal/shared/index.js';
import {
  FleetKnowledge,
  FleetRunner,
  type CaptainNotice,
  type CaptainSpec,
  type FleetGame,
  type FleetRunnerOptions,
} from '../../internal/fleet/index.js';
import { startLimitsProxy, type LimitsProxy } from './limits-proxy.js';
import type { FakeLimitsOptions } from './fake-limits.js';

export interface FleetFixture {
  sim: Minimolt;
  http: HttpHandle;
  proxy: LimitsProxy | undefined;
  dir: string;
  storePath: string;
  store: Store;
  game: FleetGame;
  notices: CaptainNotice[];
  knowledge: FleetKnowledge;
  close(): Promise<void>;
}

export async function startFleetFixture(
  options: { tickMs?: number; limits?: Omit<FakeLimitsOptions, 'now'>; seed?: number } = {},
): Promise<FleetFixture> {
  const tickMs = options.tickMs ?? 40;
  const sim = await createMinimolt({
    tickMs,
    seed: options.seed ?? 42,
    worldDb: ':memory:',
    rateLimits: { queriesPerMinute: 0, loginsPerMinutePerAddress: 0 },
  });
  const http = await sim.listen({ port: 0 });
  const proxy = options.limits ? await startLimitsProxy({ target: http.url, limits: options.limits }) : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'skipper-fleet-'));
  const storePath = join(dir, 'skipper.db');
  const store = await openStore({ path: storePath });
  const game: FleetGame = {
    target: parseGameTarget(proxy ? `${proxy.url}/mcp` : http.url),
    label: 'minimolt',
    clock: serverClock(() => sim.tick, tickMs),
    registrationCode: sim.registrationCode,
    tickStats: async (username) => {
      const row = sim.stats().players.find((player) => player.username === username);
      return row ? { ticksAlive: row.ticks_alive, busyTicks: row.busy_ticks, actions: row.actions } : undefined;
    },
  };
  const knowledge = new FleetKnowledge({ fleet: 'test', store: store.fleets });
  const fixture: FleetFixture = {
    sim,
    http,
    proxy,
    dir,
    storePath,
    store,
    game,
    notices: [],
    knowledge,
    close: async () => {
      await store.close();
      await proxy?.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}

export function captain(name: string, fields: Partial<CaptainSpec> = {}): CaptainSpec {
  return { name, session: name, game: 'minimolt', model: 'builtin/autopilot', planner: false, ...fields };
}

/** A runner over the fixture: autopilot captains (with the fleet's knowledge) unless `models` says otherwise. */
export function fleetRunner(
  fixture: FleetFixture,
  captains: CaptainSpec[],
  overrides: Partial<FleetRunnerOptions> = {},
): FleetRunner {
  return new FleetRunner({
    spec: { name: 'test', file: join(fixture.dir, 'fleet.yaml'), captains },
    store: fixture.store,
    logger: silentLogger,
    game: async () => fixture.game,
    models: (spec) => ({
      model: () => {
        throw new Error(`no model in this test (${spec.name})`);
      },
      autopilot: (): Provider =>
        createAutopilotProvider({ seed: spec.name.length * 7 + 1, username: spec.username ?? spec.name }),
    }),
    secrets: () => [],
    env: {},
    notify: (notice) => fixture.notices.push(notice),
    inspectEveryMs: 100,
    ...overrides,
  });
}

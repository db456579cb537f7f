// minimolt benchmarks: (1) median time to process one tick (rules + the SQLite write) with 100 active players in a
// 500-system world; (2) sustained query calls/s over HTTP loopback from 8 concurrent MCP SDK clients, with the server
// in a worker thread so clients and server do not share one event loop.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { toFaceCall, type EmpireId, type GameOp, type ItemId } from '../spacemolt/index.js';
import { EMPIRE_IDS, Engine, WorldStore, createMinimolt, type Action, type Player, type Poi } from '../sim/index.js';
import type { BenchFigure } from './types.js';

const SERVER_ROLE = 'minimolt-bench-server';

/** One player's next action in a mine -> sell loop, from its state (a tiny autopilot). */
function nextAction(engine: Engine, player: Player, home: Poi, belt: Poi): Action {
  const used = [...player.cargo.values()].reduce((a, b) => a + b, 0);
  if (player.poiId === home.id) {
    if (player.docked && used > 0) {
      const [item, quantity] = [...player.cargo][0] as [ItemId, number];
      return { type: 'sell', itemId: item, quantity };
    }
    if (player.docked && player.ship.hull < player.ship.maxHull / 2 && player.credits >= 100) return { type: 'repair' };
    if (player.docked && player.ship.fuel < player.ship.maxFuel / 2) return { type: 'refuel' };
    if (used > 0) return { type: 'dock' };
    return { type: 'travel', targetPoi: belt.id };
  }
  if (player.poiId === belt.id && used < player.ship.cargoCapacity - 5 && belt.deposits.some((d) => d.remaining >= 1))
    return { type: 'mine' };
  return { type: 'travel', targetPoi: home.id };
}

/** Where a player mines and sells: a system with both a station and something to mine. */
interface Place {
  home: Poi;
  belt: Poi;
}

function placeIn(engine: Engine, systemId: string): Place | undefined {
  const system = engine.world.systems.get(systemId);
  const home = system?.pois.find((p) => p.hasBase);
  const belt = system?.pois.find((p) => p.deposits.length > 0);
  return home && belt ? { home, belt } : undefined;
}

export interface TickBench {
  medianMs: number;
  p95Ms: number;
  busyPlayers: number;
  refused: number;
  /** Ships destroyed (and respawned) during the run. */
  deaths: number;
  /** Players destroyed at least once. */
  playersDied: number;
}

export async function benchTicks(
  options: { players?: number; systems?: number; ticks?: number } = {},
): Promise<TickBench> {
  const players = options.players ?? 100;
  const dir = mkdtempSync(join(tmpdir(), 'skipper-bench-sim-'));
  const store = new WorldStore(join(dir, 'world.db'));
  try {
    const engine = new Engine({ seed: 42, systems: options.systems ?? 500, hostileChat: 0.05, npcChatChance: 0.1 });
    // Spread the players over systems that have both a station and something to mine, so every one of them has a
    // real mine -> sell loop (travel, mine, dock, sell, repair, refuel) and an action resolving or a trip under way
    // each tick. Ships keep their normal hulls: pirates in low-police systems destroy some, who respawn at their
    // capital (which has a station and a belt) and go on mining there — deaths and respawns are in the measured path.
    const places = [...engine.world.systems.values()].flatMap((system) => placeIn(engine, system.id) ?? []);
    const loops: Array<{ player: Player; place: Place; deaths: number }> = [];
    for (let i = 0; i < players; i++) {
      const empire = EMPIRE_IDS[i % EMPIRE_IDS.length] as EmpireId;
      const player = engine.register(`bench_${i}`, empire);
      const place = places[i % places.length];
      if (!place) throw new Error('no system with a station and a mining POI');
      Object.assign(player, { systemId: place.home.systemId, poiId: place.home.id });
      engine.setOnline(player, true);
      loops.push({ player, place, deaths: 0 });
    }
    const counted = loops.map(({ player }) => player);
    store.flush(engine, { seed: 42, systems: options.systems ?? 500 }, counted);
    const times: number[] = [];
    let refused = 0;
    const total = options.ticks ?? 600;
    for (let t = 0; t < total; t++) {
      for (const loop of loops) {
        const { player } = loop;
        if (player.stats.deaths > loop.deaths) {
          loop.deaths = player.stats.deaths;
          loop.place = placeIn(engine, player.systemId) ?? loop.place;
        }
        if (engine.pendingCommand(player) !== null || player.transit) continue;
        try {
          engine.queue(player, nextAction(engine, player, loop.place.home, loop.place.belt), () => {});
        } catch {
          refused++; // part of a real game (e.g. nothing left to mine); the player tries again next tick
        }
      }
      const started = performance.now();
      engine.processTick();
      // As minimolt's own tick does: the changes, plus the /stats rows of every player that has connected.
      store.flush(engine, { seed: 42, systems: options.systems ?? 500 }, counted);
      times.push(performance.now() - started);
      player0Notifications(loops[0]?.player);
    }
    const measured = times.slice(Math.floor(total / 6)).sort((a, b) => a - b);
    const busy = loops.reduce((sum, { player }) => sum + player.stats.busyTicks, 0) / total;
    const deaths = loops.reduce((sum, { player }) => sum + player.stats.deaths, 0);
    return {
      medianMs: measured[Math.floor(measured.length / 2)] ?? 0,
      p95Ms: measured[Math.floor(measured.length * 0.95)] ?? 0,
      busyPlayers: busy,
      refused,
      deaths,
      playersDied: loops.filter(({ player }) => player.stats.deaths > 0).length,
    };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function player0Notifications(player: Player | undefined): void {
  // Captains read their notifications; keep the queue from being the thing measured.
  if (player) player.notifications.length = 0;
}

/**
 * A fetch over node:http with keep-alive, for the SDK client transport's `fetch` option. The global fetch (undici, web
 * streams) costs the client more CPU per call than the server spends answering; on 2 shared cores that would make the
 * benchmark measure the client. We report both.
 */
function nodeHttpFetch(agent: Agent): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return (url, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, key) => {
        headers[key] = value;
      });
      const signal = init.signal ?? undefined;
      const req = request(url, { method: init.method ?? 'GET', headers, agent }, (res) => {
        const responseHeaders = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders.set(key, Array.isArray(value) ? value.join(', ') : value);
        }
        const status = res.statusCode ?? 500;
        if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          const body = new ReadableStream<Uint8Array>({
            start: (controller) => {
              res.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
              res.on('end', () => controller.close());
            },
            cancel: () => {
              res.destroy();
            },
          });
          resolve(new Response(body, { status, headers: responseHeaders }));
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          signal?.removeEventListener('abort', onAbort);
          const empty = status === 202 || status === 204;
          resolve(
            new Response(empty ? null : Buffer.concat(chunks).toString('utf8'), { status, headers: responseHeaders }),
          );
        });
      });
      const onAbort = (): void => {
        req.destroy(new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', reject);
      req.end(typeof init.body === 'string' ? init.body : undefined);
    });
}

async function serveInWorker(): Promise<void> {
  const sim = await createMinimolt({
    tickMs: 10_000,
    rateLimits: { queriesPerMinute: 0, loginsPerMinutePerAddress: 0 },
    npcChatChance: 0,
  });
  const handle = await sim.listen({ port: 0 });
  parentPort?.postMessage({ url: handle.v2Url, code: sim.registrationCode });
  parentPort?.on('message', (message: unknown) => {
    if (message === 'stop')
      void handle
        .close()
        .then(() => sim.close())
        .then(() => process.exit(0));
  });
}

/** Successful calls per second (error results are counted apart, in `errors`, and not as calls). */
export async function benchHttp(
  options: { clients?: number; seconds?: number; lightFetch?: boolean } = {},
): Promise<{ callsPerSecond: number; errors: number; cpuMsPerCall: number }> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: SERVER_ROLE } });
  try {
    const { url, code } = await new Promise<{ url: string; code: string }>((resolve, reject) => {
      worker.once('message', (message: { url: string; code: string }) => resolve(message));
      worker.once('error', reject);
    });
    // The v2 face (grouped tools, what `--game spacemolt` plays), spelled through the face table.
    const call = (
      op: GameOp,
      args: Record<string, unknown> = {},
    ): { name: string; arguments: Record<string, unknown> } => {
      const spelled = toFaceCall('v2', op, args);
      if (!spelled) throw new Error(`bench: v2 has no ${op}`);
      return { name: spelled.name, arguments: spelled.args };
    };
    const agent = new Agent({ keepAlive: true });
    const clients: Client[] = [];
    for (let i = 0; i < (options.clients ?? 8); i++) {
      const client = new Client({ name: `bench-${i}`, version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), options.lightFetch ? { fetch: nodeHttpFetch(agent) } : {}),
      );
      const registered = await client.callTool(
        call('register', { username: `http_${i}`, empire: EMPIRE_IDS[i % 5], registration_code: code }),
      );
      if (registered.isError) throw new Error(`bench: register failed: ${JSON.stringify(registered.content)}`);
      clients.push(client);
    }
    const queries = (['get_status', 'get_system', 'get_cargo', 'view_market', 'get_poi'] as const).map((op) =>
      call(op),
    );
    let calls = 0;
    let errors = 0;
    const warmUntil = Date.now() + 1000;
    const endAt = warmUntil + (options.seconds ?? 8) * 1000;
    let measuredFrom = 0;
    let cpuFrom: NodeJS.CpuUsage | undefined;
    await Promise.all(
      clients.map(async (client, index) => {
        for (let i = index; Date.now() < endAt; i++) {
          const result = await client.callTool(
            queries[i % queries.length] as { name: string; arguments: Record<string, unknown> },
          );
          if (Date.now() < warmUntil) continue;
          if (!measuredFrom) {
            measuredFrom = Date.now();
            cpuFrom = process.cpuUsage();
          }
          if (result.isError) errors++;
          else calls++;
        }
      }),
    );
    const seconds = (Date.now() - (measuredFrom || warmUntil)) / 1000;
    const cpu = process.cpuUsage(cpuFrom);
    // Client and server threads together: what one call costs this machine, whatever else is running on it.
    const cpuMsPerCall = (cpu.user + cpu.system) / 1000 / Math.max(1, calls + errors);
    for (const client of clients) await client.close();
    agent.destroy();
    return { callsPerSecond: calls / seconds, errors, cpuMsPerCall };
  } finally {
    worker.postMessage('stop');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
}

function cpuBound(cpuMsPerCall: number): string {
  const cores = Math.min(2, availableParallelism());
  return `at most ${Math.round((cores * 1000) / cpuMsPerCall)} calls/s on ${cores} idle cores`;
}

export async function benchSim(): Promise<BenchFigure[]> {
  const ticks = await benchTicks();
  const http = await benchHttp({ seconds: 6 });
  const light = await benchHttp({ seconds: 6, lightFetch: true });
  return [
    {
      part: 'sim',
      name: 'tick time, 100 active players, 500 systems (median)',
      value: ticks.medianMs,
      unit: 'ms',
      target: 5,
      better: 'lower',
      note:
        `p95 ${ticks.p95Ms.toFixed(2)} ms; on average ${ticks.busyPlayers.toFixed(0)} players busy per tick; normal hulls: ` +
        `${ticks.deaths} ships destroyed by pirates and respawned (${ticks.playersDied} players), ${ticks.refused} actions refused; ` +
        `includes the rules, hazards, respawns, NPC chat and the SQLite write of the tick (file, WAL) with every player's /stats row, as minimolt's tick does`,
    },
    {
      part: 'sim',
      name: 'query calls/s over HTTP, 8 concurrent SDK clients',
      value: http.callsPerSecond,
      unit: 'calls/s',
      target: 1000,
      better: 'higher',
      note: `successful calls only (${http.errors} error results left out); stock SDK client (global fetch); ${http.cpuMsPerCall.toFixed(2)} CPU ms per call, clients and server together (${cpuBound(http.cpuMsPerCall)}); rate limit lifted for the run (it allows 300/min per player)`,
    },
    {
      part: 'sim',
      name: 'query calls/s over HTTP, 8 SDK clients, node:http fetch',
      value: light.callsPerSecond,
      unit: 'calls/s',
      target: 1000,
      better: 'higher',
      note: `successful calls only (${light.errors} error results left out); the same SDK client with a keep-alive node:http fetch, so the client's own CPU weighs less; ${light.cpuMsPerCall.toFixed(2)} CPU ms per call (${cpuBound(light.cpuMsPerCall)})`,
    },
  ];
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === SERVER_ROLE) void serveInWorker();

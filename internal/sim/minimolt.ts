// createMinimolt: the engine plus its clock (realtime or turbo), SQLite persistence, MCP sessions (in-memory and
// HTTP, on SpaceMolt's v1 or v2 face) and the numbers /health and /stats report. The one stateful object other
// modules hold.
import { randomBytes } from 'node:crypto';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { FatalError, silentLogger, type Logger } from '../shared/index.js';
import type { Action } from './actions.js';
import { Drift, driftPlan, type DriftPlan } from './drift.js';
import { KeyDesk } from './api-keys.js';
import { Engine, type Outcome } from './engine.js';
import { buildFace, parsePreset, v2ToolNames, type Face, type FaceOptions } from './faces/face.js';
import { listenHttp, type HttpHandle } from './http.js';
import { resolveHttpLimits, type HttpLimits } from './http-sessions.js';
import { createMcpSession, type McpSession } from './mcp-server.js';
import { netWorth, type Player } from './player.js';
import { WorldStore } from './persistence.js';
import { registrationsPerMinute, SlidingWindow, type RateLimits } from './rate-limit.js';
import type { SimHost } from './session.js';
import { MAX_SYSTEMS, MIN_SYSTEMS } from './world.js';

export type { HttpHandle } from './http.js';
export type { HttpLimits } from './http-sessions.js';

export interface ListenOptions extends HttpLimits {
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** 0 = any free port (the default). */
  port?: number;
  /** Host names to serve besides loopback names and the listen address (`name` or `name:port`). */
  allowedHosts?: readonly string[];
}

export interface MinimoltOptions {
  seed?: number;
  systems?: number;
  tickMs?: number;
  worldDb?: string;
  hostileChat?: number;
  logger?: Logger;
  /** Rate limits (defaults: SIM-SPEC's 300 queries/min, 5 failed logins/min, 30 logins+registrations/min per
   * address, and 10 registrations/min per address); benchmarks lift them. */
  rateLimits?: RateLimits;
  /** What register's registration_code must be (default: a fresh random code, see `registrationCode`). */
  registrationCode?: string;
  /** The API key that owns every player of this server (default: a fresh random key, see `apiKey`). */
  apiKey?: string;
  /** The game's auth answers HTTP 503 with Retry-After for this many seconds from start (default 0: auth is up). */
  authOutageSeconds?: number;
  /** Also send structuredContent (dashboard + details, or {error}) for clients that want JSON (default false). */
  structured?: boolean;
  /** Answers worded as another version of the game would word them, chosen by this seed (drift.ts); none when
   * undefined. */
  drift?: number;
  /** Chance per tick that an NPC speaks in an occupied system (default 0.1). */
  npcChatChance?: number;
  /** Wall clock for rate limits and idle HTTP sessions (tests move it). */
  now?: () => number;
  /** HTTP session limits for listen() (defaults: 1,000 sessions, 30 minutes idle, 1 MB bodies); listen's own win. */
  httpLimits?: HttpLimits;
  /**
   * Called once when the world cannot be written for lack of space (the clock is stopped first, so no tick runs that
   * could not be kept). Skipper's embedded game ends play with it; without it the failure is only logged.
   */
  onDiskFull?: (error: FatalError) => void;
}

export interface SimStats {
  tick: number;
  players: Array<{
    username: string;
    credits: number;
    net_worth: number;
    ticks_alive: number;
    busy_ticks: number;
    actions: number;
    errors: Record<string, number>;
    deaths: number;
    leaks: number;
  }>;
}

export interface Minimolt {
  readonly tick: number;
  /**
   * A new MCP session over the SDK's in-memory transport, on the v2 face by default (as a new SpaceMolt player meets
   * it); returns the CLIENT-side Transport to hand to an SDK Client. All in-memory sessions share one local address.
   */
  connect(options?: FaceOptions): Promise<Transport>;
  /** Serve Streamable HTTP: /mcp/v2 (v2 face, ?preset=&exclude=) and /mcp (v1 face), plus GET /health and GET /stats
   * (loopback only). port 0 = any free port. Host/Origin are checked against loopback names, the listen address and
   * allowedHosts; sessions are bounded by maxSessions and idleTimeoutMs, bodies by maxBodyBytes. */
  listen(options?: ListenOptions): Promise<HttpHandle>;
  stats(): SimStats;
  /** Stop the clock, flush the world to SQLite, close HTTP and sessions. */
  close(): Promise<void>;
  /** The rules engine, for tests and benchmarks. */
  readonly engine: Engine;
  /** What register's registration_code must be; `skipper serve` prints it. */
  readonly registrationCode: string;
  /** The game version `--drift` answers as; undefined when it answers as itself. */
  readonly drift: DriftPlan | undefined;
  /** The owner's API key (GET /api/registration-code, POST /api/player/{id}/ws-token); `skipper serve` prints it. */
  readonly apiKey: string;
  /** The key desk: tokens minted and redeemed, and auth outages (`keys.startOutage(seconds)`). */
  readonly keys: KeyDesk;
}

/** In-memory sessions all come from this process: one address for the per-address login limit. */
const LOCAL_ADDRESS = 'in-memory';

export async function createMinimolt(options: MinimoltOptions = {}): Promise<Minimolt> {
  const logger = options.logger ?? silentLogger;
  resolveHttpLimits(options.httpLimits); // bad limits are refused now, not at listen()
  const tickMs = options.tickMs ?? 10_000;
  const { store, engine, seen, flush, clockRef } = openWorld(options, logger);
  const now = options.now ?? Date.now;
  const registrationCode = options.registrationCode ?? `mm-${randomBytes(8).toString('hex')}`;
  const clock = startClock({ engine, tickMs, flush });
  clockRef.stop = () => clock.stop();
  const keys = new KeyDesk({
    engine,
    now,
    registrationCode,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
  });
  if (options.authOutageSeconds) keys.startOutage(options.authOutageSeconds);
  const host = createHost({ options, engine, clock, seen, flush, now, registrationCode, keys });
  const sessions = new Set<McpSession>();
  const newSession = sessionFactory({ host, logger, sessions });
  const handles: HttpHandle[] = [];
  const stats = (): SimStats => statsOf(engine, seen);
  let closed = false;

  return {
    get tick(): number {
      return engine.tick;
    },
    engine,
    registrationCode,
    drift: host.drift?.plan,
    apiKey: keys.apiKey,
    keys,
    connect: async (faceOptions: FaceOptions = {}): Promise<Transport> => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await newSession(faceOptions, LOCAL_ADDRESS).connect(serverSide);
      return clientSide;
    },
    listen: async ({ host: address = '127.0.0.1', port = 0, ...rest }: ListenOptions = {}): Promise<HttpHandle> => {
      const handle = await listenHttp({
        ...options.httpLimits,
        ...definedOnly(rest),
        host: address,
        port,
        logger,
        newSession,
        stats,
        now,
        keys,
        health: () => ({
          status: 'ok',
          tick: engine.tick,
          tick_ms: tickMs,
          ...(clock.nextDueAt !== undefined ? { next_tick_ms: Math.max(0, clock.nextDueAt - Date.now()) } : {}),
          players: engine.onlineCount,
          accounts: engine.players.size,
        }),
      });
      handles.push(handle);
      return handle;
    },
    stats,
    close: async (): Promise<void> => {
      // A full disk stops the clock on its own: closing still has its sessions and file to close.
      if (closed) return;
      closed = true;
      clock.stop();
      await Promise.all(handles.map((h) => h.close()));
      await Promise.all([...sessions].map((s) => s.server.close().catch(() => {})));
      flush();
      store.close();
    },
  };
}

/** The world this run plays in, read back from its SQLite file when it has one, and the way to write it there. */
interface OpenWorld {
  store: WorldStore;
  engine: Engine;
  /** Players /stats reports: those who logged in during this run, or whose counters the world file kept. */
  seen: Set<Player>;
  /** Writes the world to SQLite; a failed write is logged and the game goes on, unless the disk is full and
   * onDiskFull was given. */
  flush: () => void;
  /** Where the clock, once started, is stopped from when the disk is full. */
  clockRef: { stop?: () => void };
}

/** A write refused for lack of space: SQLite's SQLITE_FULL or the file system's ENOSPC. */
function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT';
}

function openWorld(options: MinimoltOptions, logger: Logger): OpenWorld {
  const store = new WorldStore(options.worldDb ?? ':memory:');
  let saved: ReturnType<WorldStore['readMeta']>;
  try {
    saved = store.readMeta();
  } catch (error) {
    store.close();
    throw worldFileError(options.worldDb, error);
  }
  const meta = worldShape({ saved, options, logger });
  const engine = new Engine({
    ...meta,
    hostileChat: options.hostileChat ?? 0.05,
    npcChatChance: options.npcChatChance ?? 0.1,
  });
  const seen = new Set<Player>();
  if (saved) {
    try {
      for (const player of store.load(engine, saved.tick)) seen.add(player);
    } catch (error) {
      store.close();
      throw worldFileError(options.worldDb, error);
    }
  }
  let full = false;
  const flush = (): void => {
    try {
      store.flush(engine, meta, seen);
    } catch (error) {
      logger.error({ err: error }, 'could not write the world to SQLite');
      if (full || !isDiskFull(error) || !options.onDiskFull) return;
      full = true;
      clockRef.stop?.();
      options.onDiskFull(
        new FatalError(
          'world_db',
          // Called inside the tick, before its outcomes are answered: what was answered is in the file.
          `could not write to ${options.worldDb ?? ':memory:'}: the disk is full. Nothing already stored is lost; ` +
            'free some space, then resume the session with -s NAME',
          { cause: error },
        ),
      );
    }
  };
  const clockRef: { stop?: () => void } = {};
  flush();
  return { store, engine, seen, flush, clockRef };
}

/** Seed and size of the galaxy. A world file keeps its own: accounts and positions only make sense in the world
 * they were made in. */
function worldShape(world: { saved: ReturnType<WorldStore['readMeta']>; options: MinimoltOptions; logger: Logger }): {
  seed: number;
  systems: number;
} {
  const { saved, options, logger } = world;
  const seed = saved?.seed ?? options.seed ?? 42;
  const systems = Math.min(MAX_SYSTEMS, Math.max(MIN_SYSTEMS, saved?.systems ?? options.systems ?? 30));
  if (saved && (saved.seed !== (options.seed ?? saved.seed) || saved.systems !== (options.systems ?? saved.systems))) {
    logger.warn(
      { saved, requested: { seed: options.seed, systems: options.systems } },
      'world file keeps its own seed and size',
    );
  }
  return { seed, systems };
}

/** What drives the ticks: realtime (every tickMs) or turbo (tickMs <= 0: ticks run while actions wait). */
interface Clock {
  /** Called after every tick: a call waiting on a travel watches the ticks pass. */
  readonly listeners: Set<() => void>;
  /** An action was queued: turbo runs ticks until the engine has no work left (realtime ignores it). */
  wake(): void;
  stop(): void;
  readonly stopped: boolean;
  /** Realtime: when the next tick is due (epoch ms; it may fire late, never before). Undefined in turbo or stopped. */
  readonly nextDueAt: number | undefined;
}

function startClock(options: { engine: Engine; tickMs: number; flush: () => void }): Clock {
  const { engine, tickMs, flush } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let turboScheduled = false;
  /** Realtime: when the next tick is due. */
  let dueAt: number | undefined;
  const listeners = new Set<() => void>();
  const runTick = (): void => {
    engine.processTick();
    flush();
    for (const listener of listeners) listener();
  };
  const scheduleTurbo = (): void => {
    if (turboScheduled || stopped) return;
    turboScheduled = true;
    setImmediate(() => {
      turboScheduled = false;
      if (stopped) return;
      runTick();
      if (engine.hasWork()) scheduleTurbo();
    });
  };
  if (tickMs > 0) {
    // Ticks keep to the wall clock (no drift); after a stall (a suspended laptop) the clock resumes, it does not
    // replay the missed ticks in a burst.
    dueAt = Date.now() + tickMs;
    const loop = (): void => {
      if (stopped) return;
      runTick();
      let due = (dueAt ?? Date.now()) + tickMs;
      if (Date.now() - due > tickMs * 3) due = Date.now() + tickMs;
      dueAt = due;
      timer = setTimeout(loop, Math.max(0, due - Date.now()));
      timer.unref();
    };
    timer = setTimeout(loop, tickMs);
    timer.unref();
  }
  return {
    listeners,
    wake: () => {
      if (tickMs <= 0) scheduleTurbo();
    },
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    get nextDueAt(): number | undefined {
      return stopped ? undefined : dueAt;
    },
    get stopped(): boolean {
      return stopped;
    },
  };
}

/** What every MCP session shares: the engine, the clock, the rate limits, who holds which account. */
function createHost(parts: {
  options: MinimoltOptions;
  engine: Engine;
  clock: Clock;
  seen: Set<Player>;
  flush: () => void;
  now: () => number;
  registrationCode: string;
  keys: KeyDesk;
}): SimHost {
  const { options, engine, clock, seen } = parts;
  const epochs = new Map<string, number>();
  return {
    engine,
    now: parts.now,
    queryLimiter: new SlidingWindow(options.rateLimits?.queriesPerMinute ?? 300),
    loginLimiter: new SlidingWindow(options.rateLimits?.failedLoginsPerMinute ?? 5),
    addressLimiter: new SlidingWindow(options.rateLimits?.loginsPerMinutePerAddress ?? 30),
    registrationLimiter: new SlidingWindow(registrationsPerMinute(options.rateLimits)),
    registrationCode: parts.registrationCode,
    keys: parts.keys,
    structured: options.structured ?? false,
    drift: options.drift === undefined ? undefined : new Drift(driftPlan(options.drift)),
    tickSeconds: Math.max(0, options.tickMs ?? 10_000) / 1000,
    submit: (player: Player, action: Action, onTick?: () => void): Promise<Outcome> => {
      if (clock.stopped) return Promise.reject(new Error('minimolt is closed'));
      return new Promise<Outcome>((resolve) => {
        engine.queue(player, action, (outcome) => {
          if (onTick) clock.listeners.delete(onTick);
          resolve(outcome);
        });
        if (onTick) clock.listeners.add(onTick);
        clock.wake();
      });
    },
    claim: (player: Player): number => {
      const epoch = (epochs.get(player.id) ?? 0) + 1;
      epochs.set(player.id, epoch);
      seen.add(player);
      return epoch;
    },
    epochOf: (player: Player): number => epochs.get(player.id) ?? 0,
    saveNow: parts.flush,
  };
}

/** New MCP sessions on the face a client asks for, kept in `sessions` until they close. */
function sessionFactory(parts: {
  host: SimHost;
  logger: Logger;
  sessions: Set<McpSession>;
}): (faceOptions: FaceOptions, address: string) => McpSession {
  const { host, logger, sessions } = parts;
  const faceFor = faceCache();
  return (faceOptions, address) => {
    const session = createMcpSession({ host, logger, face: faceFor(faceOptions), address });
    sessions.add(session);
    const previous = session.server.onclose;
    session.server.onclose = () => {
      previous?.();
      sessions.delete(session);
    };
    return session;
  };
}

/** Faces are built once per distinct tool set (JSON Schema conversion is not free). The key is the set of tools
 * served, not the raw query, so clients cannot grow the cache with made-up exclusions. */
function faceCache(): (faceOptions?: FaceOptions) => Face {
  const faces = new Map<string, Face>();
  return (faceOptions = {}) => {
    const id = faceOptions.face ?? 'v2';
    const preset = parsePreset(faceOptions.preset);
    const key = id === 'v1' ? 'v1' : `v2|${preset}|${v2ToolNames(preset, faceOptions.exclude).join(',')}`;
    let face = faces.get(key);
    if (!face) {
      face = buildFace({ face: id, preset, exclude: faceOptions.exclude });
      faces.set(key, face);
    }
    return face;
  };
}

function statsOf(engine: Engine, seen: ReadonlySet<Player>): SimStats {
  return {
    tick: engine.tick,
    players: [...seen].map((p) => ({
      username: p.username,
      credits: p.credits,
      net_worth: netWorth(p),
      ticks_alive: p.stats.firstActionTick === null ? 0 : engine.tick - p.stats.firstActionTick,
      busy_ticks: p.stats.busyTicks,
      actions: p.stats.actions,
      errors: { ...p.stats.errors },
      deaths: p.stats.deaths,
      leaks: p.stats.leaks,
    })),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/** A world file that does not read back as a minimolt world: said plainly, and the file is left as it is. */
function worldFileError(path: string | undefined, error: unknown): FatalError {
  const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new FatalError(
    'world_db',
    `the minimolt world file ${path ?? ':memory:'} does not read as a minimolt world (${detail}). ` +
      'It was left as it is: move it away and a new world is made.',
    { cause: error },
  );
}

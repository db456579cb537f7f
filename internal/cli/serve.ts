// `skipper serve`: runs minimolt as a standalone MCP server (Streamable HTTP: SpaceMolt's grouped v2 face on /mcp/v2,
// the flat v1 face on /mcp) until SIGINT/SIGTERM, then flushes the world and exits 0. Bad flags are usage errors
// (exit 2); a port in use is a clear failure (exit 1).
import { commandFrom, SERVE } from './commands.js';
import { InvalidArgumentError, type Command } from 'commander';
import { FatalError, silentLogger, waitForStopSignal, type Logger } from '../shared/index.js';
import {
  BODY_BYTES_RANGE,
  createMinimolt,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_REGISTRATIONS_PER_MINUTE,
  IDLE_TIMEOUT_RANGE,
  MAX_BODY_BYTES,
  MAX_SESSIONS_LIMIT,
  MAX_SYSTEMS,
  MIN_SYSTEMS,
  describeDrift,
  type HttpHandle,
  type Minimolt,
} from '../sim/index.js';
import { parseDuration } from './flags.js';
import { invocation } from './invocation.js';

export interface ServeFlags {
  host: string;
  port: number;
  tickMs: number;
  seed: number;
  systems: number;
  worldDb?: string;
  hostileChat: number;
  /** What register's registration_code must be (default: a fresh random code, printed in the banner). */
  registrationCode?: string;
  /** The API key that owns every player (default: a fresh random key, printed in the banner). */
  apiKey?: string;
  /** The game's auth answers 503 with Retry-After for this many seconds from start. */
  authOutage?: number;
  /** Also send structuredContent with every result (for MCP clients that want JSON). */
  structured?: boolean;
  /** MCP sessions open at once; when full the oldest idle one is closed. */
  maxSessions?: number;
  /** Close a session unused this long (ms). */
  idleTimeout?: number;
  /** Largest request body in bytes. */
  maxBody?: number;
  /** Registrations per client address per minute (0 = unlimited), besides the 30 logins+registrations. */
  registrationsPerMinute?: number;
  /** Host names served besides loopback names and the listen address (DNS-rebinding protection). */
  allowedHost?: string[];
  /** Answers worded as another version of the game, picked by this seed (minimolt's drift). */
  drift?: number;
}

export interface ServeDeps {
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  logger?: Logger;
  /** Resolves when the server should stop (default: the first SIGINT or SIGTERM). */
  stopSignal?: (server: { url: string; v2Url: string; registrationCode: string }) => Promise<string>;
}

function integer(name: string, min: number, max: number): (value: string) => number {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim()))
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}, not "${value}".`);
    const number = Number(value);
    if (number < min || number > max)
      throw new InvalidArgumentError(`${name} must be from ${min} to ${max}, not ${number}.`);
    return number;
  };
}

function share(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new InvalidArgumentError(
      `--hostile-chat must be a number from 0 to 1 (a share of NPC lines), not "${value}".`,
    );
  }
  return number;
}

function host(value: string): string {
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(value))
    throw new InvalidArgumentError(`--host must be an address like 127.0.0.1 or ::1, not "${value}".`);
  return value.replace(/^\[|\]$/g, '');
}

/** A code or key typed on the command line: 4 to 128 visible characters, no spaces. */
function visible(flag: string): (value: string) => string {
  return (value: string): string => {
    if (!/^[\x21-\x7e]{4,128}$/.test(value))
      throw new InvalidArgumentError(`${flag} must be 4 to 128 visible characters without spaces, not "${value}".`);
    return value;
  };
}

function idleTimeout(value: string): number {
  let ms: number;
  try {
    ms = parseDuration(value);
  } catch {
    throw new InvalidArgumentError(`--idle-timeout must be a duration like 90s, 5m or 1h30m, not "${value}".`);
  }
  if (ms < IDLE_TIMEOUT_RANGE.min || ms > IDLE_TIMEOUT_RANGE.max) {
    throw new InvalidArgumentError(
      `--idle-timeout must be from 1s to ${IDLE_TIMEOUT_RANGE.max / 3_600_000}h, not "${value}".`,
    );
  }
  return ms;
}

function allowedHost(value: string, previous: string[] = []): string[] {
  if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(value)) {
    throw new InvalidArgumentError(
      `--allowed-host must be a host name such as game.example or game.example:7777, not "${value}".`,
    );
  }
  return [...previous, value];
}

/** 5400000 -> "1h30m", 90000 -> "1m30s". */
function formatMs(ms: number): string {
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) parts.push(`${Math.floor(rest / size)}${unit}`);
    rest %= size;
  }
  return parts.join('') || '0s';
}

const shownHost = (name: string): string =>
  name.includes(':') && !name.startsWith('[') && !/^[^:]+:\d+$/.test(name) ? `[${name}]` : name;

/** Starts the server, prints where it is, waits for the stop signal, shuts down with the world flushed. */
export async function runServe(flags: ServeFlags, deps: ServeDeps = {}): Promise<void> {
  const stdout = deps.stdout ?? process.stdout;
  const { sim, handle } = await startServer(flags, deps);
  printBanner({ stdout, flags, sim, handle });
  const signal = await (deps.stopSignal ?? waitForStopSignal)({
    url: handle.url,
    v2Url: handle.v2Url,
    registrationCode: sim.registrationCode,
  });
  await sim.close();
  stdout.write(
    `minimolt stopped (${signal}) at tick ${sim.tick}; world ${flags.worldDb ? `saved to ${flags.worldDb}` : 'discarded (in memory)'}.\n`,
  );
}

/** The world, then its listener; a failure closes what was made and says what to do. */
async function startServer(flags: ServeFlags, deps: ServeDeps): Promise<{ sim: Minimolt; handle: HttpHandle }> {
  let sim: Minimolt | undefined;
  try {
    sim = await createMinimolt({
      seed: flags.seed,
      systems: flags.systems,
      tickMs: flags.tickMs,
      worldDb: flags.worldDb,
      hostileChat: flags.hostileChat,
      logger: deps.logger ?? silentLogger,
      registrationCode: flags.registrationCode,
      ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}),
      ...(flags.authOutage ? { authOutageSeconds: flags.authOutage } : {}),
      structured: flags.structured ?? false,
      ...(flags.drift !== undefined ? { drift: flags.drift } : {}),
      rateLimits:
        flags.registrationsPerMinute === undefined
          ? undefined
          : { registrationsPerMinutePerAddress: flags.registrationsPerMinute },
    });
    const handle = await sim.listen({
      host: flags.host,
      port: flags.port,
      allowedHosts: flags.allowedHost,
      maxSessions: flags.maxSessions,
      idleTimeoutMs: flags.idleTimeout,
      maxBodyBytes: flags.maxBody,
    });
    return { sim, handle };
  } catch (error) {
    await sim?.close();
    if (error instanceof FatalError) throw error; // already says what happened and what to do
    throw startupError(error, flags) ?? error;
  }
}

/** A failure to start as the person can act on it (a port in use, a host not of this machine, a world file), if known. */
function startupError(error: unknown, flags: ServeFlags): FatalError | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new FatalError('port_in_use', `port ${flags.port} is in use: pick another with --port`, { cause: error });
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new FatalError(
      'bad_host',
      `cannot listen on ${flags.host}: use an address of this machine, such as 127.0.0.1`,
      { cause: error },
    );
  }
  if (code === 'EACCES') {
    return new FatalError(
      'port_denied',
      `not allowed to listen on port ${flags.port}: pick a port above 1024 with --port`,
      { cause: error },
    );
  }
  if (error instanceof Error && /SQLITE|database|directory/i.test(`${error.name} ${error.message}`)) {
    return new FatalError(
      'world_db',
      `cannot open the world file ${flags.worldDb ?? ''}: ${error.message}. Check the path and its folder.`,
      { cause: error },
    );
  }
  return undefined;
}

/** Where the server is, how it is set up, and how to play it. */
function printBanner(options: {
  stdout: { write(text: string): unknown };
  flags: ServeFlags;
  sim: Minimolt;
  handle: HttpHandle;
}): void {
  const { stdout, flags, sim, handle } = options;
  const tick = flags.tickMs === 0 ? 'turbo (a tick per queued action)' : `${flags.tickMs} ms per tick`;
  stdout.write(
    `minimolt is serving MCP at ${handle.v2Url} (grouped tools, recommended; ?preset=basic|standard|full)\n`,
  );
  stdout.write(`  and at ${handle.url} (flat tools)\n`);
  stdout.write(`  registration code: ${sim.registrationCode}  (register needs it)\n`);
  stdout.write(
    `  api key: ${sim.apiKey}  (logs in any player here without its password: SKIPPER_GAME_API_KEY=… --username NAME)\n`,
  );
  if (flags.authOutage)
    stdout.write(`  auth outage: login and the key API answer 503 (Retry-After) for the first ${flags.authOutage} s\n`);
  const seed = sim.engine.options.seed;
  const systems = sim.engine.world.systems.size;
  const kept = seed !== flags.seed || systems !== flags.systems ? ' (kept from the world file)' : '';
  stdout.write(
    `  seed ${seed}, ${systems} systems${kept}, ${tick}, world ${flags.worldDb ?? 'in memory (not saved)'}\n`,
  );
  stdout.write(
    `  sessions: at most ${flags.maxSessions ?? DEFAULT_MAX_SESSIONS}, closed after ${formatMs(flags.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_MS)} idle; ` +
      `request bodies up to ${flags.maxBody ?? MAX_BODY_BYTES} bytes; ${flags.registrationsPerMinute ?? DEFAULT_REGISTRATIONS_PER_MINUTE} registrations/min per address\n`,
  );
  if (sim.drift) stdout.write(`  drift ${flags.drift ?? ''}: ${describeDrift(sim.drift)}\n`);
  stdout.write(
    handle.wildcardDefault
      ? "  Host checks: only loopback names (localhost, 127.0.0.1, [::1]) and this machine's own addresses are served; add names with --allowed-host\n"
      : `  Host names served: ${handle.allowedHosts.map(shownHost).join(', ')} (others get 403; add with --allowed-host)\n`,
  );
  stdout.write(
    `  Connect any MCP client (Streamable HTTP) to either URL; health: ${handle.url.replace(/\/mcp$/, '/health')}. Ctrl+C stops.\n`,
  );
  stdout.write(
    `  Let Skipper play it: ${invocation()} --game ${handle.v2Url} --registration-code ${sim.registrationCode}\n`,
  );
}

const SERVE_HELP = `
Examples:
  $ skipper serve                                  play at http://127.0.0.1:7777/mcp/v2, 10 s ticks (SpaceMolt's pace)
  $ skipper serve --tick-ms 500 --world-db world.db a faster game that survives restarts
  $ skipper serve --port 0 --tick-ms 0             any free port, turbo ticks (for scripts and tests)
  $ skipper serve --registration-code letmein      a fixed code, for scripts
  $ skipper serve --api-key mmk_test --auth-outage 30   a fixed API key; auth down for the first 30 s
  $ skipper --game http://127.0.0.1:7777/mcp/v2    let Skipper's captain play it
  $ skipper serve --drift 7                        a game that words its answers as a newer version might

Faces: /mcp/v2 has SpaceMolt's grouped tools (spacemolt_auth, spacemolt, spacemolt_market, spacemolt_social,
spacemolt_storage, each with an action; ?preset=basic|standard|full, &exclude=market); /mcp has the flat tools
(register, login, get_status, travel, mine, …). /mcp/v2 answers text dashboards and /mcp JSON, as SpaceMolt's faces
do; /mcp wants the greeting's session_id on every call after login.
GET /health answers {status, tick, players}; GET /stats (loopback only) gives per-player figures.
The key API, as SpaceMolt's: GET /api/registration-code lists the players the API key owns (all of them here) and
POST /api/player/ID/ws-token mints a single-use token (5 minutes) that login_token redeems; both want
Authorization: Bearer KEY.
/mcp, /mcp/v2, /stats and /api answer only requests whose Host is a loopback name, the --host address or an --allowed-host
(a web page cannot reach the game through DNS rebinding), and refuse web Origins from elsewhere.`;

export function registerServeCommand(program: Command, deps: ServeDeps = {}): Command {
  const command = commandFrom(program, SERVE);
  return serverOptions(gameOptions(command))
    .addHelpText('after', SERVE_HELP)
    .action(async (flags: ServeFlags) => {
      await runServe(flags, deps);
    });
}

/** The game served: its world, clock, accounts, and how it words its answers. */
function gameOptions(command: Command): Command {
  return command
    .option(
      '--tick-ms <ms>',
      'tick length in ms; 0 = turbo (a tick as soon as an action is queued)',
      integer('--tick-ms', 0, 3_600_000),
      10_000,
    )
    .option('--seed <n>', 'world seed (same seed, same galaxy)', integer('--seed', 0, 2 ** 31 - 1), 42)
    .option(
      '--systems <n>',
      `number of star systems (${MIN_SYSTEMS}..${MAX_SYSTEMS})`,
      integer('--systems', MIN_SYSTEMS, MAX_SYSTEMS),
      30,
    )
    .option(
      '--world-db <path>',
      'SQLite file that keeps accounts, ships and the world across restarts (default: in memory)',
    )
    .option('--hostile-chat <share>', 'share of NPC chat lines that are prompt injections (0..1)', share, 0.05)
    .option(
      '--registration-code <code>',
      'the code register requires (default: a fresh random one, printed at start)',
      visible('--registration-code'),
    )
    .option(
      '--api-key <key>',
      'the API key that owns every player here, for logging in without a password (default: a fresh random one, printed at start)',
      visible('--api-key'),
    )
    .option(
      '--auth-outage <seconds>',
      'play an auth outage: for this many seconds from start, the key API and the account calls answer HTTP 503 with Retry-After',
      integer('--auth-outage', 0, 86_400),
    )
    .option('--structured', 'also send structuredContent (JSON) with every result; SpaceMolt sends text only')
    .option(
      '--drift <seed>',
      'answer as another version of the game would: renamed and extra table columns, a table left out, an unknown ' +
        'map format, refusals in words, another login greeting (the seed picks which)',
      integer('--drift', 0, 2 ** 31 - 1),
    );
}

/** The HTTP server: where it listens, which hosts it serves, and the bounds on its sessions and requests. */
function serverOptions(command: Command): Command {
  return command
    .option(
      '--host <address>',
      'address to listen on (loopback by default; /stats answers loopback only)',
      host,
      '127.0.0.1',
    )
    .option('--port <n>', 'TCP port (0 = any free port)', integer('--port', 0, 65535), 7777)
    .option(
      '--max-sessions <n>',
      `MCP sessions open at once; when full the oldest idle one is closed (default ${DEFAULT_MAX_SESSIONS})`,
      integer('--max-sessions', 1, MAX_SESSIONS_LIMIT),
    )
    .option(
      '--idle-timeout <duration>',
      'close an MCP session unused this long, e.g. 90s, 5m, 1h30m (default 30m)',
      idleTimeout,
    )
    .option(
      '--max-body <bytes>',
      `largest request body in bytes (default ${MAX_BODY_BYTES})`,
      integer('--max-body', BODY_BYTES_RANGE.min, BODY_BYTES_RANGE.max),
    )
    .option(
      '--registrations-per-minute <n>',
      `registrations per client address per minute, besides 30 logins+registrations; 0 = unlimited (default ${DEFAULT_REGISTRATIONS_PER_MINUTE})`,
      integer('--registrations-per-minute', 0, 1000),
    )
    .option(
      '--allowed-host <host>',
      'also serve this Host name (repeatable; default: loopback names and the --host address)',
      allowedHost,
    );
}

// `skipper web`: serves the bridge page over a Skipper home until Ctrl+C (or SIGTERM), then closes the server and the
// store and exits 0. Loopback by default; any other address gets a token (made and printed when not given), and
// orders from the page always need it. cmd wires the store opener; everything else is here.
import { WEB } from './command-stub.js';
import { InvalidArgumentError, type Command } from 'commander';
import {
  DB_OPTION_HELP,
  FatalError,
  UsageError,
  storePlaceOf,
  waitForStopSignal,
  type StorePlace,
} from '../shared/index.js';
import type { Store } from '../store/index.js';
import { isLoopbackHost, newToken, startWebServer, type WebServer } from './server.js';

export interface WebFlags {
  host: string;
  port: number;
  token?: string;
  home?: string;
  db?: string;
  pollMs: number;
}

export interface WebDeps {
  /** The store of --home and --db (else SKIPPER_DATABASE_URL, SKIPPER_HOME…); a FatalError when there is none. */
  openStore(place: StorePlace): Promise<Store>;
  stdout?: { write(text: string): unknown };
  /** Where a failing store is reported, a line when reading it fails and one when it works again (default stderr). */
  stderr?: { write(text: string): unknown };
  /** Resolves when the server should stop (default: the first SIGINT or SIGTERM). */
  stopSignal?: (server: WebServer) => Promise<string>;
}

function port(value: string): number {
  if (!/^\d{1,5}$/.test(value.trim()) || Number(value) > 65535)
    throw new InvalidArgumentError(`--port must be a whole number from 0 to 65535 (0: any free port), not "${value}".`);
  return Number(value);
}

function host(value: string): string {
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(value))
    throw new InvalidArgumentError(`--host must be an address like 127.0.0.1, 0.0.0.0 or ::1, not "${value}".`);
  return value.replace(/^\[|\]$/g, '');
}

function token(value: string): string {
  if (!/^[A-Za-z0-9_-]{16,200}$/.test(value))
    throw new InvalidArgumentError(
      '--token must be 16 to 200 letters, digits, "-" or "_" (say `openssl rand -hex 16`).',
    );
  return value;
}

function pollMs(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number < 50 || number > 60_000)
    throw new InvalidArgumentError(`--poll-ms must be from 50 to 60000, not "${value}".`);
  return number;
}

const HELP = `
What it shows (live while chat, autoplay and fleets play in the same home):
  the galaxy map as the captains have seen it (get_map / get_system), every ship where its last turn left it, with
  its recent trail; a card per captain (credits, net worth, fuel, cargo, hull, goal, cost, ladder and watchdog when
  a fleet runs it, last action), sortable and filterable; the live stream of one captain's turns and tool calls;
  replay of any stored session on the map with a time slider; plots of credits, net worth and cost.

Security:
  127.0.0.1 by default. Any other --host needs the token on every request (made and printed when --token is not
  given). Orders (park, resume, stop, a line for a fleet captain) always need the token: open the printed URL.
  The Host header must name this server (DNS-rebinding guard); bound to 0.0.0.0 or ::, the machine's own addresses
  name it too (http://192.168.1.20:7878/?token=… from the LAN).
  Limits: a request's headers and body within 10 s (else 408), a body of at most 16 KB (else 413), at most 64 event
  streams at once (else 503 with Retry-After).

Examples:
  $ skipper web                          http://127.0.0.1:7878/ over $SKIPPER_HOME
  $ skipper web --port 0                 any free port (printed)
  $ skipper web --host 0.0.0.0           reachable from the LAN, token printed in the URL
  $ skipper --home ./runs web            another home
  $ skipper web --db postgres://me@db/skipper   the sessions of a PostgreSQL store (every host's)
`;

export function registerWebCommand(program: Command, deps: WebDeps): void {
  program
    .command(WEB.name)
    .description(WEB.description)
    .option('--port <n>', 'port to listen on (0: any free port)', port, 7878)
    .option('--host <address>', 'address to listen on (other than loopback needs a token)', host, '127.0.0.1')
    .option('--token <token>', 'the token for orders (and for every request off loopback); made when absent', token)
    .option('--home <dir>', 'the Skipper home to show (default $SKIPPER_HOME or ~/.local/share/skipper)')
    .option('--db <url>', DB_OPTION_HELP)
    .option('--poll-ms <ms>', 'how often the store is read for changes', pollMs, 300)
    .addHelpText('after', HELP)
    .action(async (flags: WebFlags) => runWeb(flags, deps));
}

export async function runWeb(flags: WebFlags, deps: WebDeps): Promise<void> {
  const stdout = deps.stdout ?? process.stdout;
  if (!isLoopbackHost(flags.host) && flags.token === undefined)
    stdout.write(`--host ${flags.host} is not loopback: every request needs the token (made for this run).\n`);
  const store = await deps.openStore(storePlaceOf(flags));
  const stderr = deps.stderr ?? process.stderr;
  let server: WebServer;
  try {
    server = await startWebServer({
      store,
      host: flags.host,
      port: flags.port,
      token: flags.token ?? newToken(),
      pollMs: flags.pollMs,
      report: (line) => stderr.write(`skipper ${line}\n`),
    });
  } catch (error) {
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new FatalError(
        'port_in_use',
        `port ${flags.port} is in use on ${flags.host}: pick another with --port (0: any free port)`,
      );
    if (code === 'EADDRNOTAVAIL')
      throw new UsageError(`cannot listen on ${flags.host}: not an address of this machine`);
    throw error;
  }
  stdout.write(
    `Skipper bridge on ${server.url} (${store.path})\nOpen ${server.urlWithToken} to also send orders. Ctrl+C stops it.\n`,
  );
  try {
    await (deps.stopSignal ?? (() => waitForStopSignal()))(server);
  } finally {
    await server.close();
    await store.close();
  }
  stdout.write('bridge closed\n');
}

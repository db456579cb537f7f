// A fleet on PostgreSQL for the fault suite, as an operator runs it (the shape of
// test/integration/pg-fleet-workers.test.ts): `skipper serve` (minimolt, short ticks) behind a proxy that logs every
// game call with its MCP session, and two `skipper fleet FILE --db URL --worker --json` children sharing autopilot
// captains; plus the test's own store on the database to read leases and messages, and what the game and the
// workers said.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { captainHosts, openStore, type Lease, type Store } from '../../internal/store/index.js';
import { runCli, type CliRun } from '../fakes/cli-process.js';
import { sessionAccounts, startRecordingProxy, type RecordingProxy } from '../fakes/recording-proxy.js';
import { jsonEvents, stopChild } from './harness.js';

export const FLEET = 'six';

export interface PgFleet {
  captains: string[];
  workers: [CliRun, CliRun];
  /** The game's door: every tool call with its MCP session. */
  proxy: RecordingProxy;
  /** The test's own store (on a URL the faults may spare). */
  store: Store;
  /** minimolt's /stats: each account's actions as the game counted them. */
  gameActions(): Promise<Map<string, number>>;
  close(): Promise<void>;
}

function fleetFile(dir: string, game: string, captains: readonly string[]): string {
  const file = join(dir, 'fleet.yaml');
  const lines = [`name: ${FLEET}`, 'defaults:', `  game: ${game}`, '  model: builtin/autopilot'];
  lines.push('  registration_code_env: FLEET_REGISTRATION_CODE', '  max_ticks: 100000', 'captains:');
  writeFileSync(file, [...lines, ...captains.map((name) => `  - name: ${name}`), ''].join('\n'));
  return file;
}

/** Polls `check` until it holds; a check that throws (the store down) counts as not yet. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return;
    if (Date.now() > end) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Starts the game, its proxy and two workers on `workerUrl`, and waits until every captain is leased, stored and
 * playing (each worker acknowledged stored messages).
 */
export async function startPgFleet(options: {
  workerUrl: string;
  observerUrl: string;
  captains: number;
  home: () => string;
}): Promise<PgFleet> {
  const captains = Array.from({ length: options.captains }, (_, index) => `cap${index}`);
  const server = runCli(['serve', '--port', '0', '--tick-ms', '200', '--registrations-per-minute', '0'], {
    home: options.home(),
  });
  const [, gameUrl, code] = await server.waitFor(/ --game (http:\/\/\S+)\/mcp\/v2 --registration-code (\S+)/);
  const proxy = await startRecordingProxy(gameUrl!);
  const file = fleetFile(options.home(), `${proxy.url}/mcp/v2`, captains);
  const env = { FLEET_REGISTRATION_CODE: code! };
  const start = (): CliRun =>
    runCli(['fleet', file, '--db', options.workerUrl, '--worker', '--json'], { home: options.home(), env });
  const workers: [CliRun, CliRun] = [start(), start()];
  const store = await openStore({ path: options.observerUrl });
  const fleet: PgFleet = {
    captains,
    workers,
    proxy,
    store,
    gameActions: async () => {
      const stats = (await (await fetch(`${gameUrl!}/stats`)).json()) as {
        players: Array<{ username: string; actions: number }>;
      };
      return new Map(stats.players.map((player) => [player.username, player.actions]));
    },
    close: async () => {
      const keep = process.env.SKIPPER_FAULTS_KEEP;
      if (keep) await keepEvidence(fleet, join(keep, `fleet-${Date.now()}`));
      await store.close();
      for (const worker of workers) {
        worker.child.kill('SIGCONT');
        await stopChild(worker, 'SIGINT');
      }
      await proxy.close();
      await stopChild(server, 'SIGINT');
    },
  };
  try {
    await until(
      async () => (await captainHosts(store, FLEET)).size === captains.length,
      60_000,
      'every captain leased',
    );
    await until(
      async () => (await Promise.all(captains.map((name) => store.findSession(name)))).every(Boolean),
      60_000,
      'every session stored',
    );
    await until(() => workers.every((worker) => acknowledged(worker).length > 10), 60_000, 'both workers playing');
  } catch (error) {
    await fleet.close();
    throw error;
  }
  return fleet;
}

/** SKIPPER_FAULTS_KEEP=DIR: what a fleet left, for reading after a failure (its workers' output and logs, the
 * game's call log and /stats). */
async function keepEvidence(fleet: PgFleet, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const [index, worker] of fleet.workers.entries()) {
    const name = join(dir, `worker${index + 1}-${worker.child.pid}`);
    cpSync(worker.home, name, { recursive: true });
    writeFileSync(`${name}.out`, worker.stdout());
    writeFileSync(`${name}.err`, worker.stderr());
  }
  writeFileSync(join(dir, 'calls.json'), JSON.stringify(fleet.proxy.calls, null, 1));
  const stats = await fleet.gameActions().catch((error: unknown) => String(error));
  writeFileSync(join(dir, 'stats.json'), JSON.stringify(typeof stats === 'string' ? stats : [...stats]));
}

/** The ids of the messages a worker's --json stream said were stored. */
export function acknowledged(worker: CliRun): string[] {
  return jsonEvents(worker)
    .filter((event) => event.type === 'message' && typeof event.id === 'string')
    .map((event) => String(event.id));
}

/** Every message id stored for the fleet's captains. */
export async function storedIds(fleet: PgFleet): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const name of fleet.captains)
    for (const message of await fleet.store.messages((await fleet.store.getSession(name)).id)) ids.add(message.id);
  return ids;
}

export async function messageCounts(fleet: PgFleet): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const name of fleet.captains)
    counts.set(name, await fleet.store.messageCount((await fleet.store.getSession(name)).id));
  return counts;
}

/** Every captain lease of the fleet, expired ones too, by captain name. */
export async function captainLeases(store: Store): Promise<Map<string, Lease>> {
  const prefix = `captain:${FLEET}/`;
  return new Map((await store.leases(prefix)).map((lease) => [lease.key.slice(prefix.length), lease]));
}

/** The `store` lines a worker printed (--json: `{type:'store', state:'down'|'up'}`), in order. */
export function storeStates(worker: CliRun): string[] {
  return jsonEvents(worker)
    .filter((event) => event.type === 'store')
    .map((event) => String(event.state));
}

/** What says a worker crashed or nearly did: its exit, a stack frame or a "This is a bug" on stderr. */
export function crashSigns(worker: CliRun): string[] {
  const signs: string[] = [];
  if (worker.child.exitCode !== null || worker.child.signalCode !== null)
    signs.push(`pid ${worker.child.pid} exited (${worker.child.exitCode ?? worker.child.signalCode})`);
  for (const line of worker.stderr().split('\n'))
    if (/^ {4}at |This is a bug/.test(line)) signs.push(`pid ${worker.child.pid} stderr: ${line.trim()}`);
  return signs;
}

/** The accounts that made a game call at or after index `from` of the proxy's log. */
export function accountsCallingSince(fleet: PgFleet, from: number): Set<string> {
  const accountOf = sessionAccounts(fleet.proxy.calls);
  const accounts = new Set<string>();
  for (const call of fleet.proxy.calls.slice(from)) {
    const account = call.session ? accountOf.get(call.session) : undefined;
    if (account) accounts.add(account);
  }
  return accounts;
}

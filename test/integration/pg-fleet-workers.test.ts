// Fleet workers on a real PostgreSQL, as an operator runs them: `skipper serve` (minimolt over HTTP) as one child
// process, behind a proxy that logs every game call at the server's door with its MCP session; two
// `skipper fleet FILE --db URL --worker` children sharing 10 autopilot captains. Then kill -9 of one worker:
// - its captains are leased by the other (the lease names the other's pid, the epoch rose) and play on (new stored
//   messages) within 30 s;
// - every message the dead worker's --json stream acknowledged is in the database;
// - the game's log shows no account played from two sessions at once: per account, each MCP session's calls form one
//   unbroken run (a session never calls again once another session of that account has).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captainHosts, openStore, type Store } from '../../internal/store/index.js';
import { runCli, tempHomes, type CliRun } from '../fakes/cli-process.js';
import { startRecordingProxy, type RecordedCall } from '../fakes/recording-proxy.js';
import { jsonEvents, stopChild } from '../faults/harness.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason } from '../contract/pg-test-db.js';

const skipReason = pgSkipReason();
if (skipReason) console.warn(skipReason);
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));
const newHome = tempHomes();
const CAPTAINS = Array.from({ length: 10 }, (_, index) => `cap${index}`);

function fleetFile(dir: string, game: string): string {
  const file = join(dir, 'fleet.yaml');
  const lines = ['name: ten', 'defaults:', `  game: ${game}`, '  model: builtin/autopilot'];
  lines.push('  registration_code_env: FLEET_REGISTRATION_CODE', '  max_ticks: 100000', 'captains:');
  writeFileSync(file, [...lines, ...CAPTAINS.map((name) => `  - name: ${name}`), ''].join('\n'));
  return file;
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Which worker process (pid) holds each captain now. */
function holders(store: Store): Map<string, number> {
  const rows = captainHosts(store, 'ten');
  return new Map([...rows].filter(([, lease]) => lease.worker !== '').map(([name, lease]) => [name, lease.pid]));
}

/** Per account, its MCP sessions in the order their runs of calls came: [A, B] is a takeover, [A, B, A] an overlap. */
function sessionRuns(calls: readonly RecordedCall[]): Map<string, string[]> {
  const accountOf = new Map<string, string>();
  for (const call of calls)
    if (call.session && typeof call.args.username === 'string') accountOf.set(call.session, call.args.username);
  const runs = new Map<string, string[]>();
  for (const call of calls) {
    const account = call.session ? accountOf.get(call.session) : undefined;
    if (!account || !call.session) continue;
    const sessions = runs.get(account) ?? [];
    if (sessions[sessions.length - 1] !== call.session) sessions.push(call.session);
    runs.set(account, sessions);
  }
  return runs;
}

function messageCounts(store: Store): Map<string, number> {
  return new Map(CAPTAINS.map((name) => [name, store.messageCount(store.getSession(name).id)]));
}

describe.skipIf(skipReason !== undefined)('fleet workers on PostgreSQL', () => {
  it('2 workers share 10 captains; kill -9 of one: the other resumes its captains within 30 s, nothing lost', async () => {
    const { url, schema } = freshSchemaUrl();
    schemas.push(schema);
    const server = runCli(['serve', '--port', '0', '--tick-ms', '200', '--registrations-per-minute', '0'], {
      home: newHome(),
    });
    const [, gameUrl, code] = await server.waitFor(/ --game (http:\/\/\S+)\/mcp\/v2 --registration-code (\S+)/);
    const proxy = await startRecordingProxy(gameUrl!);
    const file = fleetFile(newHome(), `${proxy.url}/mcp/v2`);
    const env = { FLEET_REGISTRATION_CODE: code! };
    const start = (): CliRun => runCli(['fleet', file, '--db', url, '--worker', '--json'], { home: newHome(), env });
    const workers = [start(), start()];
    const store = openStore({ path: url });
    try {
      await until(() => holders(store).size === 10, 60_000, 'all 10 captains leased');
      await until(() => CAPTAINS.every((name) => store.findSession(name)), 60_000, 'every session stored');
      const [victim, survivor] = workers as [CliRun, CliRun];
      const byWorker = (worker: CliRun): string[] =>
        [...holders(store)].filter(([, pid]) => pid === worker.child.pid).map(([name]) => name);
      // One captain per look each: started together, neither takes all ten.
      expect(byWorker(victim).length).toBeGreaterThanOrEqual(3);
      expect(byWorker(survivor).length).toBeGreaterThanOrEqual(3);
      await until(() => jsonEvents(victim).filter((event) => event.type === 'message').length > 30, 60_000, 'play');

      const orphans = byWorker(victim);
      await stopChild(victim, 'SIGKILL');
      const killedAt = Date.now();
      const acknowledged = jsonEvents(victim)
        .filter((event) => event.type === 'message' && typeof event.id === 'string')
        .map((event) => String(event.id));
      const countsAtKill = messageCounts(store);
      await until(
        () => {
          const now = holders(store);
          const counts = messageCounts(store);
          return orphans.every(
            (name) => now.get(name) === survivor.child.pid && (counts.get(name) ?? 0) > (countsAtKill.get(name) ?? 0),
          );
        },
        30_000,
        "the dead worker's captains playing on the survivor",
      );
      expect(Date.now() - killedAt).toBeLessThan(30_000);
      for (const name of orphans) expect(captainHosts(store, 'ten').get(name)?.epoch).toBe(2);
      // fleet status over the database: still running (one worker left), whichever worker started the fleet.
      const status = runCli(['fleet', 'status', 'ten', '--db', url], { home: newHome() });
      expect((await status.exited).code).toBe(0);
      expect(status.stdout()).toMatch(/fleet ten · running \(1 worker\)/);

      const stored = new Set(
        CAPTAINS.flatMap((name) => store.messages(store.getSession(name).id).map((message) => message.id)),
      );
      expect(acknowledged.length).toBeGreaterThan(30);
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      expect(proxy.calls.length).toBeGreaterThan(100);
      const runs = sessionRuns(proxy.calls);
      expect([...runs.keys()].sort()).toEqual([...CAPTAINS].sort());
      for (const name of orphans) expect(runs.get(name)?.length).toBeGreaterThanOrEqual(2);
      const overlapping = [...runs].filter(([, sessions]) => new Set(sessions).size !== sessions.length);
      expect(overlapping).toEqual([]);
    } finally {
      store.close();
      for (const worker of workers) await stopChild(worker, 'SIGINT');
      await proxy.close();
      await stopChild(server, 'SIGINT');
    }
  }, 180_000);
});

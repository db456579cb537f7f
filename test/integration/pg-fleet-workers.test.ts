// Fleet workers on a real PostgreSQL, as an operator runs them: `skipper serve` (minimolt over HTTP) as one child
// process, behind a proxy that logs every game call at the server's door with its MCP session; two
// `skipper fleet FILE --db URL --worker` children sharing 10 autopilot captains. Then kill -9 of one worker:
// - its captains are leased by the other (the captain lease names the other's pid, its fence one higher than the dead
//   worker's) and play on (new stored messages) at the latest a few seconds after the dead worker's leases reached
//   their deadline (30 s at most after the kill: LEASE_TTL_MS, which the CLI offers no way to shorten). Until then the
//   dead worker's presence lease still counts it among the live workers, so the survivor keeps to its half; on this
//   host its captain leases may be taken sooner (their pid is gone: lease-rules.ts);
// - no captain is played by two workers at once: while both lived, no captain lease was taken over (every fence 1);
//   afterwards only the dead worker's were, once each;
// - every message the dead worker's --json stream acknowledged is in the database;
// - the game's log shows no account played from two sessions at once: per account, each MCP session's calls form one
//   unbroken run (a session never calls again once another session of that account has);
// - once the dead worker's presence lease has lapsed, `fleet status` says the fleet runs on one worker.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  captainHosts,
  LEASE_TTL_MS,
  openStore,
  workerLeaseKey,
  type Lease,
  type Store,
} from '../../internal/store/index.js';
import { runCli, tempHomes, type CliRun } from '../fakes/cli-process.js';
import { sessionRuns, startRecordingProxy } from '../fakes/recording-proxy.js';
import { jsonEvents, stopChild } from '../faults/harness.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason } from '../contract/pg-test-db.js';

const skipReason = pgSkipReason();
if (skipReason) console.warn(skipReason);
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));
const newHome = tempHomes();
const CAPTAINS = Array.from({ length: 10 }, (_, index) => `cap${index}`);
/** After the dead worker's last deadline: time for the survivor to take its captains (one per look, twice a second)
 * and for them to play on. */
const TAKEOVER_MS = 15_000;

function fleetFile(dir: string, game: string): string {
  const file = join(dir, 'fleet.yaml');
  const lines = ['name: ten', 'defaults:', `  game: ${game}`, '  model: builtin/autopilot'];
  lines.push('  registration_code_env: FLEET_REGISTRATION_CODE', '  max_ticks: 100000', 'captains:');
  writeFileSync(file, [...lines, ...CAPTAINS.map((name) => `  - name: ${name}`), ''].join('\n'));
  return file;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Which worker process (pid) holds each captain now (its unexpired captain lease). */
async function holders(store: Store): Promise<Map<string, number>> {
  const rows = await captainHosts(store, 'ten');
  return new Map([...rows].map(([name, lease]) => [name, lease.pid]));
}

async function messageCounts(store: Store): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const name of CAPTAINS) counts.set(name, await store.messageCount((await store.getSession(name)).id));
  return counts;
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
    const store = await openStore({ path: url });
    try {
      await until(async () => (await holders(store)).size === 10, 60_000, 'all 10 captains leased');
      await until(
        async () => (await Promise.all(CAPTAINS.map((name) => store.findSession(name)))).every(Boolean),
        60_000,
        'every session stored',
      );
      const [victim, survivor] = workers as [CliRun, CliRun];
      const byWorker = async (worker: CliRun): Promise<string[]> =>
        [...(await holders(store))].filter(([, pid]) => pid === worker.child.pid).map(([name]) => name);
      // One captain per look each: started together, neither takes all ten.
      expect((await byWorker(victim)).length).toBeGreaterThanOrEqual(3);
      expect((await byWorker(survivor)).length).toBeGreaterThanOrEqual(3);
      await until(() => jsonEvents(victim).filter((event) => event.type === 'message').length > 30, 60_000, 'play');

      const orphans = await byWorker(victim);
      const leasesAtKill: Map<string, Lease> = await captainHosts(store, 'ten');
      const victimPresence = (await store.leases(workerLeaseKey('ten', ''))).filter(
        (lease) => lease.pid === victim.child.pid,
      );
      await stopChild(victim, 'SIGKILL');
      const killedAt = Date.now();
      expect(victimPresence).toHaveLength(1);
      // The dead worker's last deadline: its presence and its captains' leases lapse by then (each 30 s at most).
      const deadline = Math.max(
        ...victimPresence.map((lease) => lease.expiresAt),
        ...orphans.map((name) => leasesAtKill.get(name)!.expiresAt),
      );
      expect(deadline).toBeLessThanOrEqual(killedAt + LEASE_TTL_MS);
      // Both workers alive until now: every captain held by one of them, none ever taken over from the other.
      expect([...leasesAtKill.keys()].sort()).toEqual([...CAPTAINS].sort());
      for (const [name, lease] of leasesAtKill) {
        expect([victim.child.pid, survivor.child.pid], name).toContain(lease.pid);
        expect(lease.fence, name).toBe(1);
      }
      expect(orphans.every((name) => leasesAtKill.get(name)?.pid === victim.child.pid)).toBe(true);
      const acknowledged = jsonEvents(victim)
        .filter((event) => event.type === 'message' && typeof event.id === 'string')
        .map((event) => String(event.id));
      const countsAtKill = await messageCounts(store);
      await until(
        async () => {
          const now = await holders(store);
          const counts = await messageCounts(store);
          return orphans.every(
            (name) => now.get(name) === survivor.child.pid && (counts.get(name) ?? 0) > (countsAtKill.get(name) ?? 0),
          );
        },
        deadline + TAKEOVER_MS - Date.now(),
        "the dead worker's captains playing on the survivor",
      );
      expect(Date.now()).toBeLessThan(deadline + TAKEOVER_MS);
      const leasesAfter = await captainHosts(store, 'ten');
      for (const name of CAPTAINS) {
        const before = leasesAtKill.get(name)!;
        const after = leasesAfter.get(name);
        // Every captain on the survivor now, each under one lease.
        expect(after?.pid, name).toBe(survivor.child.pid);
        if (orphans.includes(name)) {
          // Taken over once, by the survivor: the fence one higher, so the dead worker could not act on it again.
          expect(after?.fence, name).toBe(before.fence + 1);
          expect(after?.token, name).not.toBe(before.token);
          expect(after!.takenAt, name).toBeGreaterThanOrEqual(killedAt - 1000);
        } else {
          // The survivor's own captains: the same lease all along, never taken over.
          expect(after?.fence, name).toBe(before.fence);
          expect(after?.token, name).toBe(before.token);
          expect(after?.takenAt, name).toBe(before.takenAt);
        }
      }
      // fleet status over the database: still running (one worker left, once the dead one's presence lapsed),
      // whichever worker started the fleet.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline + 500 - Date.now())));
      const status = runCli(['fleet', 'status', 'ten', '--db', url], { home: newHome() });
      expect((await status.exited).code).toBe(0);
      expect(status.stdout()).toMatch(/fleet ten · running \(1 worker\)/);

      const stored = new Set<string>();
      for (const name of CAPTAINS)
        for (const message of await store.messages((await store.getSession(name)).id)) stored.add(message.id);
      expect(acknowledged.length).toBeGreaterThan(30);
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      expect(proxy.calls.length).toBeGreaterThan(100);
      const runs = sessionRuns(proxy.calls);
      expect([...runs.keys()].sort()).toEqual([...CAPTAINS].sort());
      for (const name of orphans) expect(runs.get(name)?.length).toBeGreaterThanOrEqual(2);
      const overlapping = [...runs].filter(([, sessions]) => new Set(sessions).size !== sessions.length);
      expect(overlapping).toEqual([]);
    } finally {
      await store.close();
      for (const worker of workers) await stopChild(worker, 'SIGINT');
      await proxy.close();
      await stopChild(server, 'SIGINT');
    }
  }, 180_000);
});

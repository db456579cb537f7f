// Fault groups — PostgreSQL under a fleet of two workers (`skipper fleet FILE --db URL --worker`) sharing 6 autopilot
// captains on `skipper serve`, on a throwaway cluster of this file's own (the shared test server must never stop):
// - PostgreSQL stopped for 20 s (short form 8 s) and started again: both workers live on, each says once that the
//   store went away and once that it is back, nothing they acknowledged is lost, every captain plays again within
//   30 s of the return, and the URL's password is never printed nor logged;
// - a worker frozen (SIGSTOP) for 60 s (short form 40 s: past the 30 s lease deadline either way): the other takes
//   its captains over within 30 s of their lease deadlines (holder changed, fence raised, never before the deadline),
//   and once woken (SIGCONT) the frozen worker makes no game call for them (lease_lost before the call), no account
//   is ever played from two MCP sessions at once (the game's door's log), and it does not crash;
// - every connection between the workers and PostgreSQL cut once (a TCP proxy between them): the workers live on,
//   say down and back (or nothing, when the pool just reconnects), play on, lose nothing acknowledged.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../../internal/shared/index.js';
import { tempHomes, type CliRun } from '../fakes/cli-process.js';
import { findPgBin, PgCluster } from '../fakes/pg-cluster.js';
import { sessionAccounts, sessionRuns } from '../fakes/recording-proxy.js';
import { CuttableProxy } from '../contract/pg-fakes.js';
import { freshSchemaUrl, pgSkipReason } from '../contract/pg-test-db.js';
import { faultMode } from './harness.js';
import {
  accountsCallingSince,
  acknowledged,
  captainLeases,
  crashSigns,
  FLEET,
  messageCounts,
  startPgFleet,
  storedIds,
  storeStates,
  until,
  type PgFleet,
} from './pg-fleet.js';

const short = faultMode() === 'short';
const pgBin = findPgBin();
const skipReason =
  pgSkipReason() ??
  (pgBin ? undefined : 'no PostgreSQL server binaries (pg_ctl on PATH or /usr/lib/postgresql/*/bin): skipped');
if (skipReason) console.warn(`faults: PostgreSQL outages: ${skipReason}`);

const CAPTAINS = 6;
const OUTAGE_MS = short ? 8_000 : 20_000;
/** Past the lease deadline (LEASE_TTL_MS, 30 s) either way, with room for the takeover. */
const FREEZE_MS = short ? 40_000 : 60_000;
/** How long the woken worker is watched for a game call it must not make. */
const WOKEN_WATCH_MS = short ? 8_000 : 15_000;
/** The bounds: captains play again within 30 s of the database's return, and are taken over within 30 s of
 * their lease deadline. */
const PLAY_AGAIN_MS = 30_000;
const TAKEOVER_MS = 30_000;
/** Never printed: the workers' URL carries it (the throwaway cluster trusts everyone and ignores it). */
const PASSWORD = 'pg-outage-hunter2-secret';

const newHome = tempHomes();
let cluster: PgCluster | undefined;
beforeAll(async () => {
  if (!skipReason) cluster = await PgCluster.start(pgBin!);
});
afterAll(async () => {
  await cluster?.destroy();
});

/** A fresh schema on the throwaway cluster, on `port` (a proxy's) or the cluster's own, with the password. */
function storeUrl(port?: number): { worker: string; observer: string } {
  const { url } = freshSchemaUrl(cluster!.url(PASSWORD));
  const worker = new URL(url);
  if (port !== undefined) worker.port = String(port);
  return { worker: worker.toString(), observer: url };
}

/** Where the fleet was when a fault began or ended: the game's log length and the stored messages per captain. */
interface Mark {
  at: number;
  calls: number;
  counts: Map<string, number>;
}

async function mark(fleet: PgFleet, counts?: Map<string, number>): Promise<Mark> {
  return { at: Date.now(), calls: fleet.proxy.calls.length, counts: counts ?? (await messageCounts(fleet)) };
}

/**
 * Seconds from `since.at` until each captain made a game call and had a new message stored (both after `since`), for
 * those that did within `withinMs`.
 */
async function playingAgain(fleet: PgFleet, since: Mark, withinMs: number): Promise<Map<string, number>> {
  const seconds = new Map<string, number>();
  await until(
    async () => {
      const calling = accountsCallingSince(fleet, since.calls);
      const counts = await messageCounts(fleet);
      for (const name of fleet.captains)
        if (!seconds.has(name) && calling.has(name) && (counts.get(name) ?? 0) > (since.counts.get(name) ?? 0))
          seconds.set(name, (Date.now() - since.at) / 1000);
      return seconds.size === fleet.captains.length;
    },
    since.at + withinMs - Date.now(),
    'every captain playing again',
  ).catch(() => undefined);
  return seconds;
}

/** The worker's log file (its home's logs/skipper.log), empty when it wrote none. */
function workerLog(worker: CliRun): string {
  const file = join(worker.home, 'logs', 'skipper.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** What must hold after any of the faults: both workers alive without a stack, nothing acknowledged lost, the
 * password never printed, no account played from two sessions at once. */
async function commonFailures(
  fleet: PgFleet,
): Promise<{ failures: string[]; acknowledgedCount: number; lostCount: number }> {
  const failures = fleet.workers.flatMap(crashSigns);
  const ids = fleet.workers.flatMap(acknowledged);
  const stored = await storedIds(fleet);
  const lost = ids.filter((id) => !stored.has(id));
  if (lost.length > 0) failures.push(`${lost.length}/${ids.length} acknowledged messages not stored: ${lost[0]}…`);
  for (const worker of fleet.workers)
    if (`${worker.stdout()}${worker.stderr()}${workerLog(worker)}`.includes(PASSWORD))
      failures.push(`pid ${worker.child.pid} printed or logged the database password`);
  const overlapping = [...sessionRuns(fleet.proxy.calls)].filter(([, runs]) => new Set(runs).size !== runs.length);
  if (overlapping.length > 0)
    failures.push(`accounts played from two sessions at once: ${JSON.stringify(overlapping)}`);
  return { failures, acknowledgedCount: ids.length, lostCount: lost.length };
}

/** The game's count of actions (minimolt's /stats) for `names` between two readings. */
function actionsSince(before: Map<string, number>, after: Map<string, number>, names: readonly string[]): number {
  return names.reduce((sum, name) => sum + (after.get(name) ?? 0) - (before.get(name) ?? 0), 0);
}

function slowest(seconds: Map<string, number>): string {
  return Math.max(0, ...seconds.values()).toFixed(1);
}

describe.skipIf(skipReason !== undefined)('faults: PostgreSQL under a fleet of two workers', () => {
  it(
    `PostgreSQL stopped for ${OUTAGE_MS / 1000} s mid-run: both workers live, say down and back once, play again`,
    async ({ task }) => {
      task.meta.faultGroup = 'postgres stopped';
      const urls = storeUrl();
      const fleet = await startPgFleet({
        workerUrl: urls.worker,
        observerUrl: urls.observer,
        captains: CAPTAINS,
        home: newHome,
      });
      const failures: string[] = [];
      try {
        const before = await mark(fleet);
        const acknowledgedBefore = fleet.workers.flatMap(acknowledged);
        await cluster!.down();
        // The outage itself: the database stays away this long whatever the workers do.
        await sleep(Math.max(0, before.at + OUTAGE_MS - Date.now()));
        await cluster!.up();
        const back = await mark(fleet, before.counts);
        const seconds = await playingAgain(fleet, back, PLAY_AGAIN_MS);
        const states = fleet.workers.map(storeStates);
        const common = await commonFailures(fleet);
        failures.push(...common.failures);
        const stored = await storedIds(fleet);
        const lostBefore = acknowledgedBefore.filter((id) => !stored.has(id));
        if (lostBefore.length > 0) failures.push(`${lostBefore.length} messages acknowledged before the stop lost`);
        states.forEach((said, index) => {
          if (JSON.stringify(said) !== JSON.stringify(['down', 'up']))
            failures.push(`worker ${index + 1} said ${JSON.stringify(said)}, expected one down and one back`);
        });
        const silent = fleet.captains.filter((name) => !seconds.has(name));
        if (silent.length > 0)
          failures.push(`not playing again within ${PLAY_AGAIN_MS / 1000} s of the return: ${silent.join(', ')}`);
        task.meta.faultLine =
          `postgres stopped ${OUTAGE_MS / 1000} s under 2 workers × ${CAPTAINS} captains: ` +
          `workers alive ${fleet.workers.filter((worker) => crashSigns(worker).length === 0).length}/2, ` +
          `store lines ${states.map((said) => said.join('/') || 'none').join(' · ')}, ` +
          `${seconds.size}/${CAPTAINS} captains playing again ≤ ${slowest(seconds)} s after the return, ` +
          `acknowledged messages lost ${common.lostCount}/${common.acknowledgedCount}`;
      } finally {
        if (failures.length > 0) task.meta.faultCause = failures[0];
        await fleet.close();
      }
      expect(failures).toEqual([]);
    },
    short ? 120_000 : 180_000,
  );

  it(
    `a worker frozen ${FREEZE_MS / 1000} s: its captains taken over after their deadline, nothing played twice`,
    async ({ task }) => {
      task.meta.faultGroup = 'worker frozen';
      const urls = storeUrl();
      const fleet = await startPgFleet({
        workerUrl: urls.worker,
        observerUrl: urls.observer,
        captains: CAPTAINS,
        home: newHome,
      });
      const failures: string[] = [];
      const [frozen, other] = fleet.workers;
      try {
        frozen.child.kill('SIGSTOP');
        const frozenAt = await mark(fleet);
        const actionsAtFreeze = await fleet.gameActions();
        // Read after the stop: no renewal of the frozen worker can move these deadlines any more.
        const leasesAtFreeze = await captainLeases(fleet.store);
        const orphans = [...leasesAtFreeze].filter(([, lease]) => lease.pid === frozen.child.pid).map(([name]) => name);
        if (orphans.length === 0) failures.push('the frozen worker held no captain');
        for (const [name, lease] of leasesAtFreeze)
          if (lease.fence !== 1) failures.push(`${name} was taken over before the freeze (fence ${lease.fence})`);
        // The frozen worker's MCP sessions: those that played its captains before the freeze.
        const accountOf = sessionAccounts(fleet.proxy.calls);
        const frozenSessions = new Set(
          fleet.proxy.calls
            .slice(0, frozenAt.calls)
            .map((call) => call.session)
            .filter((session): session is string => session !== undefined && orphans.includes(accountOf.get(session)!)),
        );

        // Taken over: by the other worker, fence one higher, not before the deadline, within 30 s of it.
        const takeover = new Map<string, number>();
        const latest = Math.max(...orphans.map((name) => leasesAtFreeze.get(name)!.expiresAt));
        await until(
          async () => {
            const now = await captainLeases(fleet.store);
            for (const name of orphans) {
              const before = leasesAtFreeze.get(name)!;
              const after = now.get(name);
              if (!takeover.has(name) && after && after.pid === other.child.pid && after.fence === before.fence + 1)
                takeover.set(name, (after.takenAt - before.expiresAt) / 1000);
            }
            return takeover.size === orphans.length;
          },
          latest + TAKEOVER_MS - Date.now(),
          'the frozen worker’s captains taken over',
        ).catch(() => undefined);
        for (const name of orphans) {
          const seconds = takeover.get(name);
          if (seconds === undefined)
            failures.push(`${name} not taken over within ${TAKEOVER_MS / 1000} s of its deadline`);
          else if (seconds < 0) failures.push(`${name} taken over ${-seconds} s before its lease deadline`);
        }

        await sleep(Math.max(0, frozenAt.at + FREEZE_MS - Date.now()));
        frozen.child.kill('SIGCONT');
        const woke = await mark(fleet);
        // The woken worker is watched for a while: a call it should not make would come now.
        await sleep(WOKEN_WATCH_MS);
        const late = fleet.proxy.calls.slice(woke.calls).filter((call) => frozenSessions.has(call.session ?? ''));
        if (late.length > 0)
          failures.push(
            `the woken worker made ${late.length} game calls for taken-over captains: ${JSON.stringify(late[0])}`,
          );
        // It found out from its leases (a renewal refused: the fence raised), not from the game.
        const told = workerLog(frozen)
          .split('\n')
          .filter((line) => line.includes('fleet worker: lease lost'));
        const untold = orphans.filter((name) => !told.some((line) => line.includes(`"captain:${FLEET}/${name}"`)));
        if (untold.length > 0) failures.push(`the woken worker did not log its lease lost for ${untold.join(', ')}`);
        const leasesAfter = await captainLeases(fleet.store);
        for (const name of orphans) {
          const lease = leasesAfter.get(name);
          if (lease?.pid !== other.child.pid || lease?.fence !== leasesAtFreeze.get(name)!.fence + 1)
            failures.push(`${name} after the wake: ${JSON.stringify(lease)}, expected the other worker, fence 2`);
        }
        const seconds = await playingAgain(fleet, frozenAt, 1);
        const stalled = orphans.filter((name) => !seconds.has(name));
        if (stalled.length > 0)
          failures.push(`taken-over captains not playing on the other worker: ${stalled.join(', ')}`);
        const actions = actionsSince(actionsAtFreeze, await fleet.gameActions(), orphans);
        const common = await commonFailures(fleet);
        failures.push(...common.failures);
        task.meta.faultLine =
          `worker frozen ${FREEZE_MS / 1000} s: ${takeover.size}/${orphans.length} captains taken over ` +
          `${Math.min(...takeover.values()).toFixed(1)}–${slowest(takeover)} s after their lease deadline ` +
          `and playing on (game /stats: +${actions} actions); ` +
          `woken worker: lease lost logged ${orphans.length - untold.length}/${orphans.length}, ` +
          `${late.length} game calls for them, ${crashSigns(frozen).length === 0 ? 'alive' : 'crashed'}; ` +
          `accounts played from two sessions at once: ${common.failures.some((line) => line.startsWith('accounts')) ? 'some' : 0}`;
      } finally {
        if (failures.length > 0) task.meta.faultCause = failures[0];
        await fleet.close();
      }
      expect(failures).toEqual([]);
    },
    short ? 150_000 : 240_000,
  );

  it(
    'every connection to PostgreSQL cut once mid-run: both workers live, play on, nothing acknowledged lost',
    async ({ task }) => {
      task.meta.faultGroup = 'postgres connections cut';
      const proxy = await CuttableProxy.start({ host: '127.0.0.1', port: cluster!.port });
      const urls = storeUrl(proxy.port);
      const fleet = await startPgFleet({
        workerUrl: urls.worker,
        observerUrl: urls.observer,
        captains: CAPTAINS,
        home: newHome,
      });
      const failures: string[] = [];
      try {
        const before = await mark(fleet);
        proxy.cutAll();
        proxy.restore();
        const seconds = await playingAgain(fleet, before, PLAY_AGAIN_MS);
        const states = fleet.workers.map(storeStates);
        states.forEach((said, index) => {
          if (said.length > 0 && JSON.stringify(said) !== JSON.stringify(['down', 'up']))
            failures.push(
              `worker ${index + 1} said ${JSON.stringify(said)}, expected nothing or one down and one back`,
            );
        });
        const silent = fleet.captains.filter((name) => !seconds.has(name));
        if (silent.length > 0)
          failures.push(`not playing again within ${PLAY_AGAIN_MS / 1000} s of the cut: ${silent.join(', ')}`);
        const common = await commonFailures(fleet);
        failures.push(...common.failures);
        task.meta.faultLine =
          `postgres connections cut once under 2 workers: ` +
          `workers alive ${fleet.workers.filter((worker) => crashSigns(worker).length === 0).length}/2, ` +
          `store lines ${states.map((said) => said.join('/') || 'none').join(' · ')}, ` +
          `${seconds.size}/${CAPTAINS} captains playing again ≤ ${slowest(seconds)} s after the cut, ` +
          `acknowledged messages lost ${common.lostCount}/${common.acknowledgedCount}`;
      } finally {
        if (failures.length > 0) task.meta.faultCause = failures[0];
        await fleet.close();
        await proxy.close();
      }
      expect(failures).toEqual([]);
    },
    short ? 90_000 : 120_000,
  );
});

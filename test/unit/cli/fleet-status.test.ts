// `skipper fleet status` and the order commands over a real SQLite file: the table, --json rows, and what an order
// does when its fleet is not running (the stored row changes; an order line is refused with what to do).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  fleetOrder,
  fleetProgressLine,
  fleetStatusJson,
  fleetStatusLines,
} from '../../../internal/cli/fleet-status.js';
import { openStore, type Store } from '../../../internal/store/index.js';
import { UsageError } from '../../../internal/shared/index.js';

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skipper-fleet-status-'));
  store = await openStore({ path: join(dir, 'skipper.db') });
  // A fleet whose process is gone (pid 2^22 + 1 does not exist on Linux: pid_max is at most 2^22).
  await store.fleets.startFleet({ name: 'miners', file: '/x/miners.yaml', pid: 4_194_305, host: 'somewhere-else' });
  await store.fleets.stopFleet('miners');
  await store.fleets.upsertCaptain('miners', 'ada', {
    sessionName: 'ada',
    model: 'builtin/autopilot',
    state: 'finished',
    credits: 3160,
    netWorth: 6310,
    place: 'Sol',
    actions: 36,
    lastAction: 'mine',
  });
  await store.fleets.upsertCaptain('miners', 'bob', {
    sessionName: 'bob',
    model: 'openai/gpt-4o-mini',
    state: 'parked',
    ladder: 'autopilot',
    watchdog: 'nudged',
    costToday: 0.42,
    note: 'parked by order',
  });
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('fleet status', () => {
  it('prints a header per fleet and one line per captain with state, place, credits, cost, ladder and watchdog', async () => {
    const lines = await fleetStatusLines(store);
    expect(lines[0]).toMatch(/^fleet miners · stopped · 2 captains · cost today \$0\.42/);
    expect(lines[1]).toMatch(
      /captain\s+state\s+place\s+credits\s+net worth\s+cost today\s+ladder\s+watchdog\s+actions\s+last action/,
    );
    expect(lines.find((line) => line.includes('ada'))).toMatch(
      /ada\s+finished\s+Sol\s+3,160\s+6,310\s+\$0\.00\s+model\s+ok\s+36\s+mine/,
    );
    expect(lines.find((line) => /^\s+bob\s/.test(line))).toMatch(
      /bob\s+parked\s+—\s+—\s+—\s+\$0\.42\s+autopilot\s+nudged/,
    );
    expect(lines).toContain('  bob: parked by order');
  });

  it('--json gives one object per captain', async () => {
    const rows = await fleetStatusJson(store, { fleet: 'miners' });
    expect(rows.map((row) => row.captain)).toEqual(['ada', 'bob']);
    expect(rows[1]).toMatchObject({
      state: 'parked',
      ladder: 'autopilot',
      watchdog: 'nudged',
      cost_today_usd: 0.42,
      fleet_running: false,
    });
  });

  it('an unknown fleet is a usage error that says how to list them', async () => {
    await expect(fleetStatusLines(store, { fleet: 'nope' })).rejects.toThrow(UsageError);
    await expect(fleetStatusLines(store, { fleet: 'nope' })).rejects.toThrow(/skipper fleet status/);
  });

  it('the progress line counts captains by state', async () => {
    expect(await fleetProgressLine(store, 'miners')).toMatch(
      /^fleet miners: 1 finished, 1 parked · 36 actions · net worth 6,310 · cost today \$0\.42/,
    );
  });
});

describe('fleet orders when the fleet is not running', () => {
  it('park and resume change the stored row (kept for the next start)', async () => {
    expect(await fleetOrder(store, { captain: 'ada', command: 'park' })).toMatch(/ada parked: it stays parked/);
    expect((await store.fleets.captain('miners', 'ada'))?.state).toBe('parked');
    expect(await fleetOrder(store, { captain: 'ada', command: 'resume' })).toMatch(
      /ada will play when fleet miners starts again/,
    );
    expect((await store.fleets.captain('miners', 'ada'))?.state).toBe('stopped');
    // Nothing was queued for a process that is not there.
    expect(await store.fleets.takeOrders('miners')).toEqual([]);
  });

  it('an order line needs the fleet running', async () => {
    await expect(fleetOrder(store, { captain: 'ada', command: 'order', text: 'sell' })).rejects.toThrow(
      /is not running: start it/,
    );
  });

  it('an unknown captain, or one in two fleets without --fleet, is refused with what to do', async () => {
    await expect(fleetOrder(store, { captain: 'zed', command: 'park' })).rejects.toThrow(
      /no fleet has a captain named zed/,
    );
    await store.fleets.startFleet({ name: 'traders', file: '/x/t.yaml', pid: 4_194_305, host: 'elsewhere' });
    await store.fleets.upsertCaptain('traders', 'ada', { sessionName: 'ada-t' });
    await expect(fleetOrder(store, { captain: 'ada', command: 'park' })).rejects.toThrow(
      /in several fleets \(.*\): add --fleet NAME/,
    );
    expect(await fleetOrder(store, { captain: 'ada', command: 'park', fleet: 'traders' })).toMatch(/fleet traders/);
  });
});

// What people see of fleets: `skipper fleet status` (one line per captain: state, place, credits, net worth, cost
// today, ladder step, watchdog state), the orders `skipper fleet stop|park|resume|order NAME` leave for the running
// fleet (or apply to the stored rows when none runs), and the summary a fleet run ends with.
import type { ChalkInstance } from 'chalk';
import { hostname } from 'node:os';
import type { FleetSummary } from '../fleet/index.js';
import {
  captainHosts,
  liveWorkersOf,
  processExists,
  type FleetCaptainRecord,
  type FleetCommand,
  type FleetRecord,
  type Store,
} from '../store/index.js';
import { UsageError, checkOrderText, type StorePlace } from '../shared/index.js';
import { invocation } from './invocation.js';
import { tableLines } from './text.js';

/** Which fleet a view is of (all when absent), and the run's --home and --db for the commands it suggests. */
export interface FleetView {
  fleet?: string | undefined;
  place?: StorePlace | undefined;
}

/** `skipper fleet …` as the person runs it again: the program, their --home and --db, then the words given. */
function fleetHint(place: StorePlace | undefined, words: string): string {
  return `\`${invocation({ place })} fleet ${words}\``;
}

/**
 * Running means a live process holds it: a fleet killed with -9 still says 'running' in its row. A fleet spread over
 * workers (PostgreSQL) runs while any of its workers is connected, whichever started it.
 */
export async function fleetIsLive(store: Store, fleet: FleetRecord, workers?: number): Promise<boolean> {
  workers ??= await liveWorkersOf(store, fleet.name);
  if (workers !== undefined && workers > 0) return true;
  if (fleet.state !== 'running' || fleet.pid === null) return false;
  return fleet.host !== hostname() || processExists(fleet.pid);
}

const money = (usd: number): string => `$${usd.toFixed(usd < 10 ? 2 : 0)}`;
const count = (value: number | null): string => (value === null ? '—' : value.toLocaleString('en-US'));

function age(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds}s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)}m`;
  return `${Math.round(seconds / 3600)}h`;
}

async function fleetHeader(
  store: Store,
  fleet: FleetRecord,
  captains: FleetCaptainRecord[],
  now: number,
): Promise<string> {
  const workers = await liveWorkersOf(store, fleet.name);
  const live = await fleetIsLive(store, fleet, workers);
  const health = typeof fleet.health.ipHealth === 'number' ? ` · IP health ${fleet.health.ipHealth}%` : '';
  const logins = typeof fleet.health.peakLogins === 'number' ? ` · peak logins ${fleet.health.peakLogins}/min` : '';
  const state = live
    ? workers
      ? `running (${workers} worker${workers === 1 ? '' : 's'})`
      : `running (pid ${fleet.pid})`
    : fleet.state === 'running'
      ? 'not running (its process is gone)'
      : 'stopped';
  const cost = captains.reduce((sum, captain) => sum + captain.costToday, 0);
  return `fleet ${fleet.name} · ${state} · ${captains.length} captains · cost today ${money(cost)}${health}${logins} · updated ${age(now - fleet.updatedAt)} ago`;
}

const COLUMNS = [
  'captain',
  'state',
  'place',
  'credits',
  'net worth',
  'cost today',
  'ladder',
  'watchdog',
  'actions',
  'last action',
  'host',
];

/** Where each captain runs: its worker's host (captain leases, PostgreSQL), else the fleet's one process's host. */
async function hostsOf(store: Store, fleet: FleetRecord): Promise<(captain: string) => string | null> {
  const leased = await captainHosts(store, fleet.name);
  return (captain) => leased.get(captain)?.host ?? fleet.host;
}

function captainCells(captain: FleetCaptainRecord, host: string | null): string[] {
  return [
    captain.name,
    captain.state,
    captain.place ?? '—',
    count(captain.credits),
    count(captain.netWorth),
    money(captain.costToday),
    captain.ladder,
    captain.watchdog,
    count(captain.actions),
    captain.lastAction ?? '—',
    host ?? '—',
  ];
}

/** The fleet named (a usage error when there is none), or every fleet of the home. */
async function fleetsNamed(store: Store, view: FleetView): Promise<FleetRecord[]> {
  if (!view.fleet) return await store.fleets.listFleets();
  const fleet = await store.fleets.getFleet(view.fleet);
  if (!fleet)
    throw new UsageError(
      `no fleet named ${view.fleet} in this home; ${fleetHint(view.place, 'status')} lists them all`,
    );
  return [fleet];
}

export async function fleetStatusLines(store: Store, view: FleetView & { now?: number } = {}): Promise<string[]> {
  const now = view.now ?? Date.now();
  const fleets = await fleetsNamed(store, view);
  if (fleets.length === 0)
    return [`no fleets yet: start one with ${fleetHint(view.place, 'FILE')} (see \`skipper fleet --help\`)`];
  const lines: string[] = [];
  for (const fleet of fleets) {
    const captains = await store.fleets.captains(fleet.name);
    if (lines.length > 0) lines.push('');
    lines.push(await fleetHeader(store, fleet, captains, now));
    const hostOf = await hostsOf(store, fleet);
    const rows = captains.map((captain) => captainCells(captain, hostOf(captain.name)));
    lines.push(...tableLines(COLUMNS, rows).map((line) => `  ${line}`));
    for (const captain of captains.filter((c) => c.note && c.state !== 'finished'))
      lines.push(`  ${captain.name}: ${captain.note}`);
  }
  return lines;
}

export async function fleetStatusJson(store: Store, view: FleetView = {}): Promise<Array<Record<string, unknown>>> {
  const fleets = await fleetsNamed(store, view);
  const rows: Array<Record<string, unknown>> = [];
  for (const fleet of fleets) {
    const hostOf = await hostsOf(store, fleet);
    const running = await fleetIsLive(store, fleet);
    const captains = await store.fleets.captains(fleet.name);
    rows.push(
      ...captains.map((captain) => ({
        type: 'fleet-captain',
        fleet: fleet.name,
        host: hostOf(captain.name),
        fleet_running: running,
        ip_health: fleet.health.ipHealth ?? null,
        captain: captain.name,
        session: captain.sessionName,
        model: captain.model,
        state: captain.state,
        place: captain.place,
        credits: captain.credits,
        net_worth: captain.netWorth,
        cost_today_usd: captain.costToday,
        ladder: captain.ladder,
        watchdog: captain.watchdog,
        actions: captain.actions,
        last_action: captain.lastAction,
        note: captain.note,
        updated_at: new Date(captain.updatedAt).toISOString(),
      })),
    );
  }
  return rows;
}

/** The fleet a captain belongs to: `fleet` when given, else the only fleet that has a captain of that name. */
async function fleetOf(store: Store, view: FleetView & { captain: string }): Promise<FleetRecord> {
  const { captain, fleet, place } = view;
  if (fleet) {
    const row = await store.fleets.getFleet(fleet);
    if (!row) throw new UsageError(`no fleet named ${fleet}; ${fleetHint(place, 'status')} lists them`);
    if (!(await store.fleets.captain(fleet, captain)))
      throw new UsageError(
        `fleet ${fleet} has no captain ${captain}; ${fleetHint(place, `status ${fleet}`)} lists them`,
      );
    return row;
  }
  const owners: FleetRecord[] = [];
  for (const row of await store.fleets.listFleets())
    if (await store.fleets.captain(row.name, captain)) owners.push(row);
  if (owners.length === 0)
    throw new UsageError(`no fleet has a captain named ${captain}; ${fleetHint(place, 'status')} lists them`);
  if (owners.length > 1)
    throw new UsageError(
      `captain ${captain} is in several fleets (${owners.map((row) => row.name).join(', ')}): add --fleet NAME`,
    );
  return owners[0] as FleetRecord;
}

/** Leaves an order for a running fleet; with none running, applies what it can to the stored row. Returns what happened. */
export async function fleetOrder(
  store: Store,
  input: FleetView & { captain: string; command: FleetCommand; text?: string },
): Promise<string> {
  const { place } = input;
  if (input.text !== undefined) checkOrderText(input.text);
  const fleet = await fleetOf(store, input);
  if (await fleetIsLive(store, fleet)) {
    await store.fleets.addOrder({
      fleet: fleet.name,
      captain: input.captain,
      command: input.command,
      ...(input.text ? { text: input.text } : {}),
    });
    return `${input.command} sent to ${input.captain} (fleet ${fleet.name}, pid ${fleet.pid}); it acts within a second — ${fleetHint(place, `status ${fleet.name}`)}`;
  }
  if (input.command === 'order')
    throw new UsageError(
      `fleet ${fleet.name} is not running: start it with ${fleetHint(place, fleet.file)} to give orders`,
    );
  const state = input.command === 'park' ? 'parked' : 'stopped';
  await store.fleets.upsertCaptain(fleet.name, input.captain, {
    state,
    note: input.command === 'park' ? 'parked by order' : null,
  });
  return input.command === 'park'
    ? `${input.captain} parked: it stays parked when fleet ${fleet.name} starts again, until ${fleetHint(place, `resume ${input.captain}`)}`
    : `${input.captain} will play when fleet ${fleet.name} starts again (${fleetHint(place, fleet.file)})`;
}

/** One line for a terminal every so often while a fleet runs: how many play, what they did, what it cost. */
export async function fleetProgressLine(store: Store, fleet: string): Promise<string> {
  const captains = await store.fleets.captains(fleet);
  const states = new Map<string, number>();
  for (const captain of captains) states.set(captain.state, (states.get(captain.state) ?? 0) + 1);
  const actions = captains.reduce((sum, c) => sum + c.actions, 0);
  const worth = captains.reduce((sum, c) => sum + (c.netWorth ?? 0), 0);
  const cost = captains.reduce((sum, c) => sum + c.costToday, 0);
  const health = (await store.fleets.getFleet(fleet))?.health.ipHealth;
  return [
    `fleet ${fleet}: ${[...states].map(([state, n]) => `${n} ${state}`).join(', ')}`,
    `${actions.toLocaleString('en-US')} actions`,
    `net worth ${worth.toLocaleString('en-US')}`,
    `cost today ${money(cost)}`,
    ...(typeof health === 'number' ? [`IP health ${health}%`] : []),
  ].join(' · ');
}

export async function fleetSummaryJson(summary: FleetSummary, store: Store): Promise<Record<string, unknown>> {
  const rows = new Map((await store.fleets.captains(summary.fleet)).map((row) => [row.name, row]));
  return {
    fleet: summary.fleet,
    wall_ms: Math.round(summary.wallMs),
    cost_usd: summary.costUsd,
    ip_health: summary.health.ipHealth,
    peak_logins: summary.health.peakLogins,
    rejections: summary.health.rejections,
    captains: summary.captains.map((result) => ({
      captain: result.name,
      state: result.state,
      turns: result.turns,
      actions: result.actions,
      ticks: result.ticks,
      cost_usd: result.costUsd,
      tick_utilisation: result.tickUtilisation ?? null,
      credits: rows.get(result.name)?.credits ?? null,
      net_worth: rows.get(result.name)?.netWorth ?? null,
      note: result.note ?? null,
    })),
  };
}

export async function fleetSummaryLines(summary: FleetSummary, store: Store, chalk: ChalkInstance): Promise<string[]> {
  const json = await fleetSummaryJson(summary, store);
  const captains = json.captains as Array<Record<string, unknown>>;
  const actions = summary.captains.reduce((sum, c) => sum + c.actions, 0);
  const worth = captains.reduce((sum, c) => sum + (typeof c.net_worth === 'number' ? c.net_worth : 0), 0);
  const lines = [
    chalk.bold(
      `fleet ${summary.fleet}: ${summary.captains.length} captains · ${actions.toLocaleString('en-US')} actions · net worth ${worth.toLocaleString('en-US')} · cost ${money(summary.costUsd)} · ${age(summary.wallMs)}`,
    ),
    chalk.dim(
      `IP: peak ${summary.health.peakLogins} logins/min (limit ${summary.health.loginsPerWindow}) · ${summary.health.rejections} refusals · health ${summary.health.ipHealth}%`,
    ),
  ];
  for (const c of captains) {
    const note = c.note ? chalk.dim(` — ${String(c.note)}`) : '';
    const used = typeof c.tick_utilisation === 'number' ? ` (${Math.round(c.tick_utilisation * 100)}% busy)` : '';
    lines.push(
      `  ${String(c.captain)}: ${String(c.state)} · ${String(c.actions)} actions · ${String(c.ticks)} ticks${used} · credits ${count(c.credits as number | null)} · ${money(c.cost_usd as number)}${note}`,
    );
  }
  return lines;
}

// The fleet bench's PostgreSQL half (fleet.ts runs it): which server (BENCH_FLEET_DATABASE_URL, else
// BENCH_STORE_DATABASE_URL), a schema of its own for the run, dropped after it, and the figures that set the
// PostgreSQL fleet beside the SQLite one — every captain's tick utilisation, CPU per game action and its ratio to
// SQLite's, the event loop's p99 delay inside the fleet process (also given for SQLite), peak RSS. Without a server,
// the same figures are printed as skipped, saying what to set.
import { randomBytes } from 'node:crypto';
import { dropSchema } from './store-pg.js';
import type { BenchFigure } from './types.js';

const part = 'fleet';

export const POSTGRES_HINT =
  'set BENCH_FLEET_DATABASE_URL=postgres://USER@HOST:PORT/DB (or BENCH_STORE_DATABASE_URL) to run the fleet on ' +
  'PostgreSQL too (a schema made for the run and dropped after it)';

/** The server the fleet runs on besides SQLite, if the bench was given one (the bench's own knobs, listed in
 * `npm run bench -- --help`, not skipper's). */
export function fleetDatabaseUrl(env: Record<string, string | undefined>): string | undefined {
  const text = (name: string): string | undefined => env[name] || undefined;
  return text('BENCH_FLEET_DATABASE_URL') ?? text('BENCH_STORE_DATABASE_URL');
}

/** Runs `run` on a schema made for it (`?schema=bench_fleet_…`, which the store creates), dropped afterwards. */
export async function inFreshSchema<T>(base: string, run: (url: string) => Promise<T>): Promise<T> {
  const server = new URL(base);
  server.searchParams.delete('schema');
  const schema = `bench_fleet_${randomBytes(5).toString('hex')}`;
  const url = new URL(server);
  url.searchParams.set('schema', schema);
  process.stderr.write(`bench fleet: the PostgreSQL run plays in schema ${schema}, dropped after it\n`);
  try {
    return await run(url.toString());
  } finally {
    await dropSchema(server.toString(), schema);
  }
}

/** Milliseconds late beyond the monitor's 10 ms timer, as the fleet's fleet-end event reports them. */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/** The fleet-end event's `event_loop_delay_ms`; undefined when it has none (a fleet from before it was reported). */
export function loopDelayOfEnd(end: Record<string, unknown>): LoopDelay | undefined {
  const value = end.event_loop_delay_ms as Record<string, unknown> | undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const { p50, p99, max } = value;
  return typeof p50 === 'number' && typeof p99 === 'number' && typeof max === 'number' ? { p50, p99, max } : undefined;
}

export function loopDelayFigure(name: string, loop: LoopDelay | undefined): BenchFigure {
  return {
    part,
    name,
    value: loop?.p99 ?? NaN,
    unit: 'ms',
    target: 20,
    better: 'lower',
    note: loop
      ? `perf_hooks.monitorEventLoopDelay inside the fleet process over its whole run, beyond its 10 ms timer: ` +
        `p50 ${loop.p50} ms, max ${loop.max} ms`
      : 'the fleet-end event carried no event_loop_delay_ms',
  };
}

/** What one fleet run measured, as the PostgreSQL figures and their comparison need it. */
export interface FleetOutcome {
  run: string;
  captainsSeen: number;
  used: { min: number; median: number };
  cpuPerAction: number;
  cpuNote: string;
  peakMb: number;
  loop: LoopDelay | undefined;
}

const SERVER_CPU =
  'the fleet process only (user + system of all its threads, from /proc): the PostgreSQL server’s own CPU, its ' +
  'backends’ work, is not the fleet’s and is not counted';

/** The PostgreSQL figures' names and goals, for a run that did not happen. */
const UNMEASURED: Array<Pick<BenchFigure, 'name' | 'unit' | 'target' | 'better'>> = [
  { name: 'lowest tick utilisation of a captain', unit: 'ratio', target: 0.95, better: 'higher' },
  { name: 'median tick utilisation', unit: 'ratio', target: 0.95, better: 'higher' },
  { name: 'CPU per game action', unit: 'ms', target: 2.5, better: 'lower' },
  { name: 'CPU per action ÷ SQLite’s', unit: '×', target: 1.2, better: 'lower' },
  { name: 'event-loop delay p99', unit: 'ms', target: 20, better: 'lower' },
  { name: 'peak RSS of the one process', unit: 'MB', target: 500, better: 'lower' },
];

/** The PostgreSQL fleet's figures beside the SQLite one's; skipped (no server given) or failed (every value NaN). */
export function postgresFigures(
  postgres: FleetOutcome | { skipped: string } | { failed: string },
  sqlite: FleetOutcome,
): BenchFigure[] {
  const name = (text: string): string => `fleet on PostgreSQL: ${text}`;
  if (!('run' in postgres)) {
    const why = 'skipped' in postgres ? { skipped: postgres.skipped } : { note: postgres.failed };
    return UNMEASURED.map((figure) => ({ part, ...figure, name: name(figure.name), value: NaN, ...why }));
  }
  const ratio = postgres.cpuPerAction / sqlite.cpuPerAction;
  return [
    {
      part,
      name: name('lowest tick utilisation of a captain'),
      value: postgres.used.min,
      unit: 'ratio',
      target: 0.95,
      better: 'higher',
      note: `${postgres.captainsSeen} captains seen by the server; SQLite's lowest ${sqlite.used.min.toFixed(3)}; ${postgres.run}`,
    },
    {
      part,
      name: name('median tick utilisation'),
      value: postgres.used.median,
      unit: 'ratio',
      target: 0.95,
      better: 'higher',
      note: `SQLite's median ${sqlite.used.median.toFixed(3)}`,
    },
    {
      part,
      name: name('CPU per game action'),
      value: postgres.cpuPerAction,
      unit: 'ms',
      target: 2.5,
      better: 'lower',
      note: `${postgres.cpuNote}; ${SERVER_CPU}`,
    },
    {
      part,
      name: name('CPU per action ÷ SQLite’s'),
      value: ratio,
      unit: '×',
      target: 1.2,
      better: 'lower',
      note: `${postgres.cpuPerAction.toFixed(3)} ms ÷ ${sqlite.cpuPerAction.toFixed(3)} ms, both ${SERVER_CPU}`,
    },
    loopDelayFigure(name('event-loop delay p99'), postgres.loop),
    {
      part,
      name: name('peak RSS of the one process'),
      value: postgres.peakMb,
      unit: 'MB',
      target: 500,
      better: 'lower',
      note: `SQLite's ${sqlite.peakMb.toFixed(0)} MB`,
    },
  ];
}

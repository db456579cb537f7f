// The fleet bench's PostgreSQL figures: which server it is given, the event-loop delay read from the fleet-end event,
// the figures beside SQLite's (the CPU ratio, every goal), and, with no server, the same figures printed as skipped
// with what to set — neither met nor missed.
import { describe, expect, it } from 'vitest';
import { formatTable } from '../../../internal/bench/figure-table.js';
import {
  fleetDatabaseUrl,
  loopDelayOfEnd,
  postgresFigures,
  type FleetOutcome,
} from '../../../internal/bench/fleet-postgres.js';

const sqlite: FleetOutcome = {
  run: '50 captains, 300 ticks of 1000 ms',
  captainsSeen: 50,
  used: { min: 0.97, median: 0.99 },
  cpuPerAction: 2,
  cpuNote: '7000 actions (server count)',
  peakMb: 400,
  loop: { p50: 0.1, p99: 8, max: 40 },
};

describe('fleetDatabaseUrl', () => {
  it('takes BENCH_FLEET_DATABASE_URL, else BENCH_STORE_DATABASE_URL, else none (an empty value is none)', () => {
    const fleet = 'postgres://a@h:1/fleet';
    const store = 'postgres://a@h:1/store';
    expect(fleetDatabaseUrl({ BENCH_FLEET_DATABASE_URL: fleet, BENCH_STORE_DATABASE_URL: store })).toBe(fleet);
    expect(fleetDatabaseUrl({ BENCH_FLEET_DATABASE_URL: '', BENCH_STORE_DATABASE_URL: store })).toBe(store);
    expect(fleetDatabaseUrl({})).toBeUndefined();
  });
});

describe('loopDelayOfEnd', () => {
  it('reads event_loop_delay_ms from a fleet-end event', () => {
    const end = { type: 'fleet-end', event_loop_delay_ms: { p50: 0.2, p99: 12.5, max: 80 } };
    expect(loopDelayOfEnd(end)).toEqual({ p50: 0.2, p99: 12.5, max: 80 });
  });

  it('says nothing for an event without it or with something else there', () => {
    expect(loopDelayOfEnd({ type: 'fleet-end' })).toBeUndefined();
    expect(loopDelayOfEnd({ event_loop_delay_ms: { p50: 1, p99: '9' } })).toBeUndefined();
  });
});

describe('postgresFigures', () => {
  const postgres: FleetOutcome = {
    ...sqlite,
    used: { min: 0.94, median: 0.98 },
    cpuPerAction: 2.6,
    peakMb: 420,
    loop: { p50: 0.3, p99: 25, max: 90 },
  };

  it('sets each figure beside its goal: utilisation, CPU and its ratio to SQLite’s, event-loop p99, RSS', () => {
    const figures = postgresFigures(postgres, sqlite);
    const byName = new Map(figures.map((figure) => [figure.name.replace('fleet on PostgreSQL: ', ''), figure]));
    expect([...byName.keys()]).toEqual([
      'lowest tick utilisation of a captain',
      'median tick utilisation',
      'CPU per game action',
      'CPU per action ÷ SQLite’s',
      'event-loop delay p99',
      'peak RSS of the one process',
    ]);
    expect(byName.get('lowest tick utilisation of a captain')).toMatchObject({ value: 0.94, target: 0.95 });
    expect(byName.get('median tick utilisation')).toMatchObject({ value: 0.98, target: 0.95 });
    expect(byName.get('CPU per action ÷ SQLite’s')).toMatchObject({ value: 1.3, target: 1.2, better: 'lower' });
    expect(byName.get('CPU per action ÷ SQLite’s')?.note).toContain('is not counted');
    expect(byName.get('event-loop delay p99')).toMatchObject({ value: 25, target: 20, better: 'lower' });
    const table = formatTable(figures).join('\n');
    expect(table).toMatch(/lowest tick utilisation of a captain +0\.940 ratio +≥ 0\.950 +0\.99× +MISSED/);
    expect(table).toMatch(/CPU per action ÷ SQLite’s +1\.300 × +< 1\.200 +0\.92× +MISSED/);
    expect(table).toMatch(/peak RSS of the one process +420\.0 MB +< 500\.0 +1\.19× +ok/);
  });

  it('with no server, prints the same figures as skipped with what to set, never as missed', () => {
    const figures = postgresFigures({ skipped: 'set BENCH_FLEET_DATABASE_URL' }, sqlite);
    expect(figures).toHaveLength(6);
    for (const figure of figures) expect(figure.skipped).toBe('set BENCH_FLEET_DATABASE_URL');
    const rows = formatTable(figures).slice(2);
    for (const row of rows) expect(row).toMatch(/ - +[<≥] [\d.]+ +- +skipped$/);
  });

  it('a run that failed is missed, with the reason in the note', () => {
    const figures = postgresFigures({ failed: 'the PostgreSQL run failed: connection refused' }, sqlite);
    for (const figure of figures) {
      expect(figure.skipped).toBeUndefined();
      expect(figure.note).toContain('connection refused');
    }
    for (const row of formatTable(figures).slice(2)) expect(row).toMatch(/MISSED$/);
  });
});

// `npm run bench -- fleet` (the built internal/bench/run.js), tiny: two captains for a few short ticks in one
// `skipper fleet` process on SQLite, then, with SKIPPER_TEST_DATABASE_URL given as BENCH_FLEET_DATABASE_URL, the same
// fleet on PostgreSQL in a schema of its own that is gone afterwards. Every figure the issue sets a goal for is
// printed: tick utilisation, CPU per action (PostgreSQL's ÷ SQLite's), the event-loop p99 the fleet process reported
// in its fleet-end event; without a server the PostgreSQL ones are skipped, saying what to set.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import { pgSkipReason, testDatabaseUrl } from '../contract/pg-test-db.js';

const RUN = resolve(import.meta.dirname, '../../dist/internal/bench/run.js');

interface Figure {
  name: string;
  value: number | null;
  target?: number;
  skipped?: string;
  note?: string;
}

function benchFleet(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [RUN, 'fleet', '--json'], {
    env: {
      ...process.env,
      BENCH_FLEET_DATABASE_URL: '',
      BENCH_STORE_DATABASE_URL: '',
      BENCH_FLEET_CAPTAINS: '2',
      BENCH_FLEET_TICKS: '8',
      BENCH_FLEET_TICK_MS: '250',
      BENCH_FLEET_PROCESSES: '0',
      BENCH_FLEET_PARKED_S: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

async function benchSchemas(): Promise<string[]> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ name: string }>(
      "SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'bench\\_fleet\\_%'",
    );
    return result.rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

const PG_FIGURES = [
  'fleet on PostgreSQL: lowest tick utilisation of a captain',
  'fleet on PostgreSQL: median tick utilisation',
  'fleet on PostgreSQL: CPU per game action',
  'fleet on PostgreSQL: CPU per action ÷ SQLite’s',
  'fleet on PostgreSQL: event-loop delay p99',
  'fleet on PostgreSQL: peak RSS of the one process',
];

it('prints the fleet figures on SQLite and on PostgreSQL (or says how to measure them there)', async () => {
  const postgres = pgSkipReason() === undefined;
  const run = await benchFleet(postgres ? { BENCH_FLEET_DATABASE_URL: testDatabaseUrl ?? '' } : {});
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toContain('bench: fleet failed');
  const figures = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as Figure[];
  const byName = new Map(figures.map((figure) => [figure.name, figure]));
  // It plays the face users play, and says so.
  expect(run.stderr).toMatch(/bench fleet: playing http:\/\/\S+\/mcp\/v2 \(the \/mcp\/v2 face\)/);
  expect(byName.get('fleet: lowest tick utilisation of a captain')?.note).toContain('on /mcp/v2');

  const loop = byName.get('fleet: event-loop delay p99');
  expect(loop?.target).toBe(20);
  expect(loop?.value).toEqual(expect.any(Number));
  expect(loop?.note).toMatch(/monitorEventLoopDelay inside the fleet process.*p50 [\d.]+ ms, max [\d.]+ ms/);
  expect(byName.get('fleet: CPU per game action')?.value).toBeGreaterThan(0);

  expect(byName.get('fleet: parked captain: data heap growth, last half')?.skipped).toBe('BENCH_FLEET_PARKED_S=0');
  for (const name of PG_FIGURES) expect(byName.has(name), name).toBe(true);
  if (!postgres) {
    for (const name of PG_FIGURES) expect(byName.get(name)?.skipped).toMatch(/set BENCH_FLEET_DATABASE_URL=/);
    expect(run.stdout).toContain('skipped (fleet / fleet on PostgreSQL: CPU per action ÷ SQLite’s): set');
    return;
  }
  for (const name of PG_FIGURES) {
    expect(byName.get(name)?.skipped, name).toBeUndefined();
    expect(byName.get(name)?.value, name).toEqual(expect.any(Number));
  }
  expect(byName.get('fleet on PostgreSQL: lowest tick utilisation of a captain')?.value).toBeGreaterThan(0);
  const ratio = byName.get('fleet on PostgreSQL: CPU per action ÷ SQLite’s')!;
  const cpu = (name: string): number => byName.get(name)?.value ?? NaN;
  expect(ratio.value).toBeCloseTo(cpu('fleet on PostgreSQL: CPU per game action') / cpu('fleet: CPU per game action'));
  // The run's schema is dropped (named by the run: another suite's bench may play in one of its own meanwhile).
  const schema = /the PostgreSQL run plays in schema (bench_fleet_[0-9a-f]+), dropped after it/.exec(run.stderr)?.[1];
  expect(schema, run.stderr).toBeDefined();
  expect(await benchSchemas()).not.toContain(schema);
}, 120_000);

it('reads the processes’ memory while they live: each one’s peak summed, the most held at once beside it', async () => {
  const run = await benchFleet({ BENCH_FLEET_PROCESSES: '1' });
  expect(run.code, run.stderr).toBe(0);
  const figures = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as Figure[];
  const memory = figures.find((figure) => figure.name === '2 processes: summed peak RSS');
  // Two live Node processes hold tens of MB each; a reading taken after they exited would say 0 (or fail the bench).
  expect(memory?.value).toBeGreaterThan(2 * 30);
  expect(memory?.note).toMatch(/read from \/proc while it lived \(2 processes\), summed; at most \d+ MB held at once/);
  const held = Number(/at most (\d+) MB held at once/.exec(memory?.note ?? '')?.[1]);
  expect(held).toBeGreaterThan(30);
  expect(held).toBeLessThanOrEqual(Math.ceil(memory!.value!));
}, 120_000);

it('measures a parked captain beside the fleet: how its process’s data grew, from heap snapshots', async () => {
  const run = await benchFleet({ BENCH_FLEET_PARKED_S: '30' });
  expect(run.code, run.stderr).toBe(0);
  const figures = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as Figure[];
  const parked = figures.find((figure) => figure.name === 'fleet: parked captain: data heap growth, last half');
  expect(parked?.skipped).toBeUndefined();
  expect(parked?.value, parked?.note).toEqual(expect.any(Number));
  expect(parked?.target).toBe(16);
  expect(parked?.value).toEqual(expect.any(Number));
  expect(parked?.note).toMatch(
    /one captain parked 0\.5 min .*; its data \(three heap snapshots, V8's code left out\) grew [+−]\d+ objects, [+−][\d.]+ (B|KB).* over the last 0\.\d min, .* the half before; heap after GC [\d.]+ → [\d.]+ MB .*state at the end: parked/,
  );
}, 420_000);

// `npm run bench -- fleet`: 50 autopilot captains on one `skipper serve` (1 s ticks, 300 ticks each) played by ONE
// `skipper fleet` process, then the same 50 as 50 `skipper --autoplay` processes beside it on the same server, all as
// a person would start them. The server keeps SpaceMolt's 30 logins + registrations a minute per address; its own
// extra limit of 10 registrations a minute is lifted (--registrations-per-minute 0), or 50 new accounts would take five
// minutes to exist. Figures: each captain's tick utilisation over its own run as the server counts it (busy ticks ÷
// ticks alive, from the fleet's and the processes' own summaries: the lowest and the median), the fleet process's peak
// RSS and its CPU per game action (user + system from /proc, sampled twice a second; actions counted by the server;
// its note gives the main thread's share and the figure in each third of the run), the most logins the broker let through in a minute against its limit, the refusals it met; and the 50 processes'
// summed peak RSS and CPU per action. The fleet process's event-loop delay (p99, from its own fleet-end event) is given
// for each fleet run.
// Given a PostgreSQL server (BENCH_FLEET_DATABASE_URL, else BENCH_STORE_DATABASE_URL), the same fleet then runs with
// `--db` on a fresh `skipper serve` and a schema of its own, dropped after it, and its figures sit beside SQLite's
// (fleet-postgres.ts); without one they are printed as skipped.
// BENCH_FLEET_CAPTAINS, BENCH_FLEET_TICKS and BENCH_FLEET_TICK_MS make a smaller run (the figures say what ran);
// BENCH_FLEET_PROCESSES=0 leaves out the processes' part.
// Beside the fleet run, one captain is parked in a fleet process of its own for BENCH_FLEET_PARKED_S (600; 0 leaves it
// out) and what that process keeps of what it made while parked is measured (parked.ts).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fleetDatabaseUrl,
  inFreshSchema,
  loopDelayFigure,
  loopDelayOfEnd,
  POSTGRES_HINT,
  postgresFigures,
  type FleetOutcome,
} from './fleet-postgres.js';
import { measureParkedMemory, parkedFigure } from './parked.js';
import { BENCH_CODE as CODE, BENCH_FACE, benchCli as cli, exited, type Serve, withServe } from './serve-process.js';
import type { BenchFigure } from './types.js';

export { BENCH_FACE, gameUrlOfBanner } from './serve-process.js';

const part = 'fleet';

interface Sample {
  rssKb: number;
  peakKb: number;
  cpuTicks: number;
  /** Of cpuTicks, the main thread's (the JavaScript); the rest is V8's compiler and GC helpers and libuv's pool. */
  mainTicks: number;
}

/** User + system CPU ticks in a /proc stat line (fields 14 and 15: counted after the command, which may hold spaces
 * and parentheses, so from its last `)`); undefined for a line that is not one. */
export function cpuTicksOfStat(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return stat.includes(')') && Number.isFinite(ticks) ? ticks : undefined;
}

/**
 * RSS, peak RSS (VmHWM) and user + system CPU ticks of a live process (and of its main thread); undefined once it is
 * gone — and for an exiting one (a zombie), whose /proc still has its CPU but no memory lines: a memory figure is
 * only ever read from a process that lives.
 */
export function sampleProcess(pid: number): Sample | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const cpuTicks = cpuTicksOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const mainTicks = cpuTicksOfStat(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
    const kb = (key: string): number | undefined => {
      const found = new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1];
      return found === undefined ? undefined : Number(found);
    };
    const rssKb = kb('VmRSS');
    const peakKb = kb('VmHWM');
    if (cpuTicks === undefined || mainTicks === undefined || rssKb === undefined || peakKb === undefined)
      return undefined;
    return { rssKb, peakKb, cpuTicks, mainTicks };
  } catch {
    return undefined;
  }
}

const TICKS_PER_SECOND = 100;
/** Often enough that a process's last reading is close to its end (VmHWM only grows, so a late reading is the max). */
export const SAMPLE_EVERY_MS = 200;

export interface SampledPeaks {
  /** Each process's own peak (VmHWM, read while it lived), summed. */
  peakMb: number;
  /** The most the processes held at once: the highest sum of their VmRSS over the readings taken. */
  peakTogetherMb: number;
  cpuMs: number;
  mainCpuMs: number;
  /** Processes read alive at least once. */
  processes: number;
}

/**
 * Reads the processes' memory and CPU from /proc while they live, every SAMPLE_EVERY_MS: each one's peak, the peak of
 * their sum, their CPU so far. A process that exits keeps what was read of it alive; `stop` fails when a process was
 * never read alive (its figure would be a guess, so the bench must not print one).
 */
export class Sampler {
  private readonly last = new Map<number, Sample>();
  private readonly seen = new Set<number>();
  private peakTogetherKb = 0;
  private readonly timer: NodeJS.Timeout;
  constructor(
    private readonly pids: () => number[],
    private readonly read: (pid: number) => Sample | undefined = sampleProcess,
    everyMs = SAMPLE_EVERY_MS,
  ) {
    this.timer = setInterval(() => this.take(), everyMs);
    this.take();
  }
  take(): void {
    let together = 0;
    for (const pid of this.pids()) {
      this.seen.add(pid);
      const now = this.read(pid);
      if (!now) continue;
      together += now.rssKb;
      this.last.set(pid, { ...now, peakKb: Math.max(now.peakKb, now.rssKb, this.last.get(pid)?.peakKb ?? 0) });
    }
    this.peakTogetherKb = Math.max(this.peakTogetherKb, together);
  }
  /** CPU so far, summed over the processes (ms). */
  cpuMs(): number {
    return ([...this.last.values()].reduce((sum, row) => sum + row.cpuTicks, 0) * 1000) / TICKS_PER_SECOND;
  }
  stop(): SampledPeaks {
    clearInterval(this.timer);
    const unread = [...this.seen].filter((pid) => !this.last.has(pid));
    if (unread.length > 0)
      throw new Error(
        `bench: ${unread.length} of ${this.seen.size} processes were never read alive (pid ${unread.slice(0, 5).join(', ')}): ` +
          'their memory is not known, so no figure is given',
      );
    const rows = [...this.last.values()];
    return {
      peakMb: rows.reduce((sum, row) => sum + row.peakKb, 0) / 1024,
      peakTogetherMb: this.peakTogetherKb / 1024,
      cpuMs: this.cpuMs(),
      mainCpuMs: (rows.reduce((sum, row) => sum + row.mainTicks, 0) * 1000) / TICKS_PER_SECOND,
      processes: rows.length,
    };
  }
}

/** One reading along the fleet's run: ms since it started, its CPU so far (ms), the server's action count so far. */
export interface RunReading {
  atMs: number;
  cpuMs: number;
  actions: number;
}

/**
 * CPU per action (ms) in each third of the run, by time, from readings taken along it: the first third holds the
 * logins (paced by the broker) and V8's warm-up, the last a fleet at full stride. Each third runs from the last reading
 * at or before its start to the last at or before its end; undefined for a third without an action.
 */
export function cpuByThirds(readings: readonly RunReading[]): Array<number | undefined> {
  const sorted = [{ atMs: 0, cpuMs: 0, actions: 0 }, ...readings].sort((a, b) => a.atMs - b.atMs);
  const end = sorted.at(-1)?.atMs ?? 0;
  const at = (ms: number): RunReading => sorted.filter((reading) => reading.atMs <= ms).at(-1) as RunReading;
  return [0, 1, 2].map((third) => {
    const from = at((end * third) / 3);
    const to = at((end * (third + 1)) / 3);
    const actions = to.actions - from.actions;
    return actions > 0 ? (to.cpuMs - from.cpuMs) / actions : undefined;
  });
}

interface PlayerStats {
  username: string;
  ticks_alive: number;
  busy_ticks: number;
  actions?: number;
}

async function stats(base: string, prefix: string): Promise<PlayerStats[]> {
  const body = (await (await fetch(`${base}/stats`)).json()) as { players?: PlayerStats[] };
  return (body.players ?? []).filter((row) => row.username.startsWith(prefix));
}

/** The lowest and the median of each captain's own figure (a captain that never played counts 0). */
function spread(values: number[]): { min: number; median: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0] ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0 };
}

function fleetUtilisations(end: Record<string, unknown>, captains: number): number[] {
  const rows = Array.isArray(end.captains) ? (end.captains as Array<Record<string, unknown>>) : [];
  const values = rows.map((row) => (typeof row.tick_utilisation === 'number' ? row.tick_utilisation : 0));
  return [...values, ...Array<number>(Math.max(0, captains - values.length)).fill(0)];
}

const names = (prefix: string, count: number): string[] =>
  Array.from({ length: count }, (_, index) => `${prefix}${String(index + 1).padStart(2, '0')}`);

/** How often the run is read along the way (the server's action count and the fleet's CPU). */
const READ_EVERY_MS = 5000;

async function runFleetProcess(options: {
  /** Where the fleet file and the fleet's home go (one directory per run). */
  dir: string;
  url: string;
  base: string;
  captains: number;
  ticks: number;
  /** postgres://… for `--db` (else the home's SQLite file). */
  db?: string | undefined;
}): Promise<{
  peakMb: number;
  cpuMs: number;
  mainCpuMs: number;
  readings: RunReading[];
  end: Record<string, unknown>;
}> {
  const file = join(options.dir, 'fleet.yaml');
  writeFileSync(
    file,
    [
      'name: bench',
      'defaults:',
      `  game: ${options.url}`,
      '  registration_code_env: BENCH_FLEET_CODE',
      `  max_ticks: ${options.ticks}`,
      'captains:',
      ...names('fleet', options.captains).map((name) => `  - name: ${name}`),
      '',
    ].join('\n'),
  );
  const child = spawn(process.execPath, [cli, 'fleet', file, '--json', ...(options.db ? ['--db', options.db] : [])], {
    env: { ...process.env, SKIPPER_HOME: join(options.dir, 'fleet-home'), BENCH_FLEET_CODE: CODE, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const sampler = new Sampler(() => (child.pid ? [child.pid] : []));
  const started = Date.now();
  const readings: RunReading[] = [];
  const reader = setInterval(() => {
    stats(options.base, 'fleet')
      .then((rows) => {
        sampler.take();
        const actions = rows.reduce((sum, row) => sum + (row.actions ?? 0), 0);
        readings.push({ atMs: Date.now() - started, cpuMs: sampler.cpuMs(), actions });
      })
      .catch(() => undefined); // a missed reading only coarsens the thirds
  }, READ_EVERY_MS);
  let end: Record<string, unknown> = {};
  let tail = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).split('\n').slice(-2).join('\n');
    const line = /\{"ts":[^\n]*"type":"fleet-end"[^\n]*\}/.exec(tail)?.[0];
    if (line) end = JSON.parse(line) as Record<string, unknown>;
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const code = await exited(child);
  clearInterval(reader);
  const measured = sampler.stop();
  if (code !== 0) throw new Error(`skipper fleet exited ${code}: ${stderr}`);
  return { ...measured, readings, end };
}

async function runProcesses(options: {
  dir: string;
  url: string;
  captains: number;
  ticks: number;
}): Promise<SampledPeaks & { utilisations: number[] }> {
  const utilisations: number[] = [];
  const children = names('proc', options.captains).map((name) =>
    spawn(
      process.execPath,
      [
        cli,
        '--autoplay',
        '--game',
        options.url,
        '--registration-code',
        CODE,
        '--username',
        name,
        '--max-ticks',
        String(options.ticks),
        '--json',
      ],
      { env: { ...process.env, SKIPPER_HOME: join(options.dir, `home-${name}`), NO_COLOR: '1' }, stdio: 'pipe' },
    ),
  );
  // Each process's own figure, from its autoplay-end line (a process that never got to play counts 0).
  for (const child of children) {
    let tail = '';
    child.stdout?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-8000)));
    child.once('exit', () => {
      const line = /\{[^\n]*"type":"autoplay-end"[^\n]*\}/.exec(tail)?.[0];
      const value = line ? (JSON.parse(line) as { tick_utilisation?: unknown }).tick_utilisation : undefined;
      utilisations.push(typeof value === 'number' ? value : 0);
    });
    child.stderr?.resume();
  }
  const sampler = new Sampler(() => children.flatMap((child) => (child.pid ? [child.pid] : [])));
  await Promise.all(children.map(exited));
  return { ...sampler.stop(), utilisations };
}

/** The bench's own knobs (listed in `npm run bench -- --help`, not skipper's). */
function envText(name: string): string | undefined {
  return process.env[name];
}

function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** One fleet run as the figures need it, and the server's rows of its captains. */
interface FleetRun {
  fleet: { peakMb: number; cpuMs: number; mainCpuMs: number; readings: RunReading[] };
  actions: number;
  health: { peak: number; refusals: number };
  outcome: FleetOutcome;
}

/** The CPU figure's note: what it counts, the main thread's share, and the figure by thirds of the run. */
export function cpuNote(fleet: { cpuMs: number; mainCpuMs: number; readings: RunReading[] }, actions: number): string {
  const seconds = (ms: number): string => (ms / 1000).toFixed(1);
  const thirds = cpuByThirds(fleet.readings)
    .map((value) => (value === undefined ? '–' : value.toFixed(2)))
    .join(' / ');
  return (
    `${actions} actions (server count), ${seconds(fleet.cpuMs)} s CPU: main thread ${seconds(fleet.mainCpuMs)} s, ` +
    `other threads ${seconds(fleet.cpuMs - fleet.mainCpuMs)} s; by thirds of the run ${thirds} ms an action`
  );
}

/** `skipper fleet FILE --json [--db URL]` against the server, measured, and said at once on stderr (a run cut short
 * later keeps what was said). */
async function fleetRun(options: {
  dir: string;
  serve: Serve;
  captains: number;
  ticks: number;
  run: string;
  db?: string | undefined;
}): Promise<FleetRun> {
  const { serve, captains } = options;
  const fleet = await runFleetProcess({ ...options, url: serve.url, base: serve.base });
  const rows = await stats(serve.base, 'fleet');
  const actions = rows.reduce((sum, row) => sum + (row.actions ?? 0), 0);
  // A fleet whose captains the server never saw act measured nothing: no figure is better than a made-up one.
  if (rows.length === 0 || actions === 0)
    throw new Error(`bench fleet: the server saw ${rows.length} of the ${captains} fleet captains act on ${serve.url}`);
  const used = spread(fleetUtilisations(fleet.end, captains));
  const health = { peak: Number(fleet.end.peak_logins ?? NaN), refusals: Number(fleet.end.rejections ?? NaN) };
  const loop = loopDelayOfEnd(fleet.end);
  const note = cpuNote(fleet, actions);
  process.stderr.write(
    `bench fleet: one process on ${options.db ? 'PostgreSQL' : 'SQLite'}: ${note}, peak ${fleet.peakMb.toFixed(0)} MB, ` +
      `utilisation lowest ${used.min.toFixed(3)} median ${used.median.toFixed(3)}, event-loop delay p99 ` +
      `${loop?.p99 ?? '?'} ms, peak logins ${health.peak}, refusals ${health.refusals}\n`,
  );
  return {
    fleet,
    actions,
    health,
    outcome: {
      run: options.run,
      captainsSeen: rows.length,
      used,
      cpuPerAction: actions > 0 ? fleet.cpuMs / actions : NaN,
      cpuNote: note,
      peakMb: fleet.peakMb,
      loop,
    },
  };
}

/** The SQLite fleet's figures. */
function fleetFigures(sqlite: FleetRun): BenchFigure[] {
  const { outcome, health } = sqlite;
  return [
    {
      part,
      name: 'fleet: lowest tick utilisation of a captain',
      value: outcome.used.min,
      unit: 'ratio',
      target: 0.95,
      better: 'higher',
      note: `${outcome.captainsSeen} captains seen by the server; median ${outcome.used.median.toFixed(3)}; ${outcome.run}`,
    },
    {
      part,
      name: 'fleet: peak RSS of the one process',
      value: outcome.peakMb,
      unit: 'MB',
      target: 500,
      better: 'lower',
      note: outcome.run,
    },
    {
      part,
      name: 'fleet: CPU per game action',
      value: outcome.cpuPerAction,
      unit: 'ms',
      target: 2.5,
      better: 'lower',
      note: outcome.cpuNote,
    },
    loopDelayFigure('fleet: event-loop delay p99', outcome.loop),
    {
      part,
      name: 'fleet: most logins in a minute (broker limit 30)',
      value: health.peak,
      unit: 'logins',
      target: 30,
      better: 'lower',
    },
    {
      part,
      name: 'fleet: refusals the server gave',
      value: health.refusals,
      unit: 'calls',
      target: 0,
      better: 'lower',
      note: 'rate limits and refused logins counted by the broker',
    },
  ];
}

/** The 50 processes' figures, beside the SQLite fleet's. */
async function processFigures(options: {
  dir: string;
  serve: Serve;
  captains: number;
  ticks: number;
  sqlite: FleetRun;
}): Promise<BenchFigure[]> {
  const { captains } = options;
  const procs = await runProcesses({ ...options, url: options.serve.url });
  const procRows = await stats(options.serve.base, 'proc');
  const procActions = procRows.reduce((sum, row) => sum + (row.actions ?? 0), 0);
  if (procRows.length === 0 || procActions === 0)
    throw new Error(
      `bench fleet: the server saw ${procRows.length} of the ${captains} processes' captains act: nothing to measure`,
    );
  const procUsed = spread(procs.utilisations);
  return [
    {
      part,
      name: `${captains} processes: summed peak RSS`,
      value: procs.peakMb,
      unit: 'MB',
      better: 'lower',
      note:
        `each process's VmHWM read from /proc while it lived (${procs.processes} processes), summed; at most ` +
        `${procs.peakTogetherMb.toFixed(0)} MB held at once; beside the fleet's ${options.sqlite.outcome.peakMb.toFixed(0)} MB`,
    },
    {
      part,
      name: `${captains} processes: CPU per game action`,
      value: procActions > 0 ? procs.cpuMs / procActions : NaN,
      unit: 'ms',
      better: 'lower',
      note: `${procActions} actions; lowest utilisation ${procUsed.min.toFixed(3)}, median ${procUsed.median.toFixed(3)}`,
    },
  ];
}

/** The same fleet on PostgreSQL, on a server of its own (a world as fresh as the SQLite fleet's) and a fresh schema. */
async function postgresRun(options: {
  dir: string;
  captains: number;
  ticks: number;
  tickMs: number;
  run: string;
}): Promise<FleetOutcome | { skipped: string } | { failed: string }> {
  const base = fleetDatabaseUrl(process.env);
  if (!base) return { skipped: POSTGRES_HINT };
  try {
    return await inFreshSchema(base, (db) =>
      withServe({ home: join(options.dir, 'pg-serve-home'), tickMs: options.tickMs }, async (serve) => {
        const dir = join(options.dir, 'postgres');
        mkdirSync(dir);
        return (await fleetRun({ ...options, dir, serve, db })).outcome;
      }),
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`bench fleet: the PostgreSQL run failed: ${reason}\n`);
    return { failed: `the PostgreSQL run failed: ${reason}` };
  }
}

export async function benchFleet(): Promise<BenchFigure[]> {
  const captains = envNumber('BENCH_FLEET_CAPTAINS', 50);
  const ticks = envNumber('BENCH_FLEET_TICKS', 300);
  const tickMs = envNumber('BENCH_FLEET_TICK_MS', 1000);
  const dir = mkdtempSync(join(tmpdir(), 'skipper-bench-fleet-'));
  const run = `${captains} captains, ${ticks} ticks of ${tickMs} ms, on ${BENCH_FACE}`;
  // The parked captain runs beside the fleet (its own server and fleet process; quiet but for three heap snapshots).
  const parkedS = envText('BENCH_FLEET_PARKED_S') === '0' ? 0 : envNumber('BENCH_FLEET_PARKED_S', 600);
  const parked =
    parkedS === 0
      ? Promise.resolve({ skipped: 'BENCH_FLEET_PARKED_S=0' })
      : measureParkedMemory({ parkedMs: parkedS * 1000, dir: join(dir, 'parked') }).catch((error: unknown) => ({
          failed: error instanceof Error ? error.message : String(error),
        }));
  try {
    const figures = await withServe({ home: join(dir, 'serve-home'), tickMs }, async (serve) => {
      const sqliteDir = join(dir, 'sqlite');
      mkdirSync(sqliteDir);
      const sqlite = await fleetRun({ dir: sqliteDir, serve, captains, ticks, run });
      // BENCH_FLEET_PROCESSES=0: the fleet alone (the comparison takes as long again).
      const processes =
        envText('BENCH_FLEET_PROCESSES') === '0' ? [] : await processFigures({ dir, serve, captains, ticks, sqlite });
      return { sqlite, processes };
    });
    const postgres = await postgresRun({ dir, captains, ticks, tickMs, run });
    return [
      ...fleetFigures(figures.sqlite),
      parkedFigure(await parked),
      ...postgresFigures(postgres, figures.sqlite.outcome),
      ...figures.processes,
    ];
  } finally {
    await parked;
    rmSync(dir, { recursive: true, force: true });
  }
}

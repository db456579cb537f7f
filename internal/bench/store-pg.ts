// The store bench on PostgreSQL beside SQLite: the SQLite figures (store.ts), then the same work on a PostgreSQL
// server through the store contract, as openStore({ path: 'postgres://…' }) hands it out — append throughput (each
// append awaited before the next: one commit per message), one awaited read (a session looked up by name), replay
// (iterate) and export of a session — in a schema made for the run and dropped after it. The server is
// BENCH_STORE_DATABASE_URL (else SKIPPER_TEST_DATABASE_URL); with neither, one figure says it was not measured.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { exportSession, openStore, type AppendableMessage, type Store } from '../store/index.js';
import { benchStore } from './store.js';
import type { BenchFigure } from './types.js';

const part = 'store';

/** The bench's own knobs (listed in `npm run bench -- --help`, not skipper's). */
function envText(name: string): string | undefined {
  const value = process.env[name];
  return value ? value : undefined;
}

function envCount(name: string, fallback: number): number {
  const value = Number(envText(name));
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** `npm run bench -- store`: SQLite's figures, then PostgreSQL's (a PostgreSQL run that fails costs its own figures
 * only: one figure says why). */
export async function benchStoreBoth(): Promise<BenchFigure[]> {
  const sqlite = await benchStore();
  const postgres = await benchStorePostgres().catch((error: unknown) => [
    notMeasured(`the PostgreSQL run failed: ${error instanceof Error ? error.message : String(error)}`),
  ]);
  return [...sqlite, ...postgres];
}

function notMeasured(note: string): BenchFigure {
  return { part, name: 'PostgreSQL: not measured', value: 0, unit: '', better: 'higher', note };
}

export async function benchStorePostgres(): Promise<BenchFigure[]> {
  const base = envText('BENCH_STORE_DATABASE_URL') ?? envText('SKIPPER_TEST_DATABASE_URL');
  if (!base)
    return [notMeasured('set BENCH_STORE_DATABASE_URL=postgres://USER@HOST:PORT/DB to measure the PostgreSQL store')];
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  try {
    const store = await openStore({ path: url.toString() });
    try {
      return await measure(store, {
        appendCount: envCount('BENCH_STORE_PG_APPEND', 5_000),
        replayCount: envCount('BENCH_STORE_PG_MESSAGES', 20_000),
      });
    } finally {
      await store.close();
    }
  } finally {
    await dropSchema(base, schema);
  }
}

async function measure(store: Store, counts: { appendCount: number; replayCount: number }): Promise<BenchFigure[]> {
  const { appendCount, replayCount } = counts;
  const figures: BenchFigure[] = [];
  const appendSession = await store.createSession({ name: 'append', game: 'embedded', model: 'bench' });
  let t = performance.now();
  for (let i = 0; i < appendCount; i++) await store.append(appendSession.id, sampleMessage(i));
  const appendMs = performance.now() - t;
  figures.push({
    part,
    name: 'PostgreSQL: append throughput (autocommit, one INSERT per message)',
    value: Math.round(appendCount / (appendMs / 1000)),
    unit: 'msg/s',
    better: 'higher',
    note:
      `${appendCount} messages through the store contract, each append awaited before the next (one commit each); ` +
      `${((appendMs * 1000) / appendCount).toFixed(0)} µs each`,
  });
  t = performance.now();
  const calls = 2_000;
  for (let i = 0; i < calls; i++) await store.findSession('append');
  figures.push({
    part,
    name: 'PostgreSQL: one awaited read (a session looked up by name)',
    value: Math.round(((performance.now() - t) * 1000) / calls),
    unit: 'µs',
    better: 'lower',
    note:
      `${calls} findSession calls through the store contract, each awaited: the client, the round trip and the server ` +
      '(this figure measured a synchronous bridge round trip before the store became asynchronous)',
  });
  const replay = await store.createSession({ name: 'replay', game: 'embedded', model: 'bench' });
  for (let start = 0; start < replayCount; start += 1000) {
    const batch: AppendableMessage[] = [];
    for (let i = start; i < Math.min(replayCount, start + 1000); i++) batch.push(sampleMessage(i));
    await store.appendMany(replay.id, batch);
  }
  figures.push(...(await replayAndExport(store, replayCount)));
  return figures;
}

async function replayAndExport(store: Store, replayCount: number): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  let t = performance.now();
  let count = 0;
  const replayId = (await store.getSession('replay')).id;
  for await (const message of store.iterateMessages(replayId)) if (message.role) count += 1;
  if (count !== replayCount) throw new Error(`replay read ${count} of ${replayCount} messages`);
  figures.push({
    part,
    name: `PostgreSQL: replay read of ${replayCount} messages (iterate)`,
    value: Math.round(performance.now() - t),
    unit: 'ms',
    better: 'lower',
    note: 'iterateMessages read with for await, a page per round trip',
  });
  for (const format of ['jsonl', 'md'] as const) {
    t = performance.now();
    let bytes = 0;
    await exportSession(store, 'replay', {
      format,
      secrets: [],
      write: (chunk) => (bytes += Buffer.byteLength(chunk)),
    });
    figures.push({
      part,
      name: `PostgreSQL: export ${format} of ${replayCount} messages`,
      value: Math.round(performance.now() - t),
      unit: 'ms',
      better: 'lower',
      note: `${(bytes / 1024 / 1024).toFixed(1)} MB produced`,
    });
  }
  return figures;
}

/** Drops a schema a bench made for its run, with everything in it (the fleet bench's too). */
export async function dropSchema(base: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** A transcript's mix (user lines, tool calls, tool results with data), a little smaller than the SQLite figures'. */
function sampleMessage(i: number): AppendableMessage {
  const turn = Math.floor(i / 3) + 1;
  if (i % 3 === 0) return { role: 'user', content: `autoplay tick ${i}: keep mining and sell when full`, turn };
  if (i % 3 === 1) {
    return {
      role: 'assistant',
      content: '',
      turn,
      round: 1,
      toolCalls: [{ id: `call_${i}`, name: 'mine', arguments: '{"resource":"iron_ore"}' }],
    };
  }
  return {
    role: 'tool',
    toolCallId: `call_${i - 1}`,
    toolName: 'mine',
    turn,
    round: 1,
    isError: false,
    content: `Mined 3 iron_ore. Cargo ${i % 50}/50. Tick ${4521 + i}.`,
    data: { mined: { resource: 'iron_ore', quantity: 3 }, cargo: { used: i % 50, capacity: 50 } },
  };
}

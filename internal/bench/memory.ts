// Memory benchmark: 10,000 entries of one captain (plus another captain's 2,000, which must not cost anything) in a
// real SQLite file, then the per-turn retrieval — rank, fill the 1,500-token budget, touch the entries used — timed
// over many turns with changing goals. The block is built synchronously from memory's cache and the touch is written
// in the background: each turn's time runs until that write has resolved (memory.settled()), so the store's write is
// still counted. Also the cold first read (load: list + parse + tokenize, once per captain).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemory, type CaptainMemory, type MemoryKind } from '../llm/memory/index.js';
import { captainId, openStore, type Store } from '../store/index.js';
import type { BenchFigure } from './types.js';

const part = 'memory';
const WORDS = (
  'iron copper titanium ore fuel jump travel dock undock sell buy market crimson nebula sol outerrim pirates belt ' +
  'station cargo hold refuel repair route lane gate credits price profit mining asteroid police hull warning'
).split(' ');

function sentence(random: () => number, length: number): string {
  return Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

function rng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

const KINDS: MemoryKind[] = [
  'episode',
  'episode',
  'episode',
  'episode',
  'episode',
  'episode',
  'note',
  'note',
  'note',
  'lesson',
];

/** Fills one captain's memory with `count` made-up entries of the usual mix, a handoff every 500, up to 30 days old. */
async function seedEntries(options: {
  store: Store;
  random: () => number;
  owner: string;
  count: number;
  now: number;
}): Promise<void> {
  const { store, random, now } = options;
  for (let index = 0; index < options.count; index += 1) {
    const kind = index % 500 === 0 ? 'handoff' : (KINDS[Math.floor(random() * KINDS.length)] as MemoryKind);
    await store.memory.add({
      captain: options.owner,
      kind,
      text: sentence(random, 6 + Math.floor(random() * 30)),
      tags: [WORDS[index % WORDS.length] as string],
      outcome: random() < 0.3 ? 'failure' : random() < 0.5 ? 'success' : null,
      createdAt: now - Math.floor(random() * 30 * 86_400_000),
    });
  }
}

/** Builds the memory block once per turn for `turns` made-up contexts and waits for its touch to be written: wall
 * and CPU time of each, and wall time of the block alone (what the turn waits for), sorted. */
async function timeRetrieval(
  memory: CaptainMemory,
  random: () => number,
  turns: number,
): Promise<{ times: number[]; blockTimes: number[]; cpu: number[]; maxTokens: number }> {
  const times: number[] = [];
  const blockTimes: number[] = [];
  const cpu: number[] = [];
  let maxTokens = 0;
  for (let turn = 0; turn < turns; turn += 1) {
    const context = { goal: sentence(random, 5), recentText: sentence(random, 40) };
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const text = memory.block(context);
    blockTimes.push(performance.now() - started);
    await memory.settled();
    times.push(performance.now() - started);
    const spent = process.cpuUsage(cpuBefore);
    cpu.push((spent.user + spent.system) / 1000);
    maxTokens = Math.max(maxTokens, Math.ceil(text.length / 4));
  }
  for (const list of [times, blockTimes, cpu]) list.sort((a, b) => a - b);
  return { times, blockTimes, cpu, maxTokens };
}

export async function benchMemory(options: { entries?: number; turns?: number } = {}): Promise<BenchFigure[]> {
  const count = options.entries ?? 10_000;
  const turns = options.turns ?? 300;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-bench-memory-'));
  const store = await openStore({ path: path.join(dir, 'skipper.db') });
  try {
    const captain = captainId({ game: 'embedded', username: 'bench' });
    const random = rng(7);
    const now = Date.now();
    await seedEntries({ store, random, owner: captain, count, now });
    await seedEntries({
      store,
      random,
      owner: captainId({ game: 'embedded', username: 'other' }),
      count: Math.floor(count / 5),
      now,
    });

    const memory = createMemory({ port: store.memory, captain, secrets: () => ['bench-password-123'] });
    const coldStarted = performance.now();
    await memory.load();
    memory.block({ goal: 'warm up' });
    await memory.settled();
    const coldMs = performance.now() - coldStarted;

    const { times, blockTimes, cpu, maxTokens } = await timeRetrieval(memory, random, turns);
    // The machine may be shared: CPU time of this process says what the code costs when wall time is inflated.
    const load = os.loadavg()[0]?.toFixed(1) ?? '?';
    return [
      {
        part,
        name: `retrieval per turn, ${count} entries (median)`,
        value: percentile(times, 0.5),
        unit: 'ms',
        target: 10,
        better: 'lower',
        note:
          `real SQLite file; rank + 1,500-token budget + touch, timed until the touch's background write resolved ` +
          `(block() alone, what the turn waits for: median ${percentile(blockTimes, 0.5).toFixed(2)} ms); ` +
          `p95 ${percentile(times, 0.95).toFixed(2)} ms over ${turns} turns; largest block ${maxTokens} tokens; load average ${load}`,
      },
      {
        part,
        name: `retrieval per turn, ${count} entries (median CPU time)`,
        value: percentile(cpu, 0.5),
        unit: 'ms',
        target: 10,
        better: 'lower',
        note: 'process.cpuUsage around each block() and its touch write: what the work costs without waiting for a busy machine',
      },
      {
        part,
        name: `first read of ${count} entries (once per captain)`,
        value: coldMs,
        unit: 'ms',
        better: 'lower',
        note: 'memory.load() (list + parse + tokenize) then the first block and its touch',
      },
    ];
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

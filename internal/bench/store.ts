// Store benchmark: append throughput under the durability rule (each append awaited before the next, so one commit per
// message, WAL + NORMAL, a real file), then replay (iterate) and export (jsonl + md) of a 100,000-message session, with
// peak RSS sampled throughout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFileWriter, exportSession, openStore, type AppendableMessage, type Store } from '../store/index.js';
import { figuresFromChild } from './child.js';
import type { BenchFigure } from './types.js';

const part = 'store';

export interface StoreBenchOptions {
  /** Messages appended one by one for the throughput figure. */
  appendCount?: number;
  /** Size of the replay/export session. */
  replayCount?: number;
}

export async function benchStore(options: StoreBenchOptions = {}): Promise<BenchFigure[]> {
  const appendCount = options.appendCount ?? 20_000;
  const replayCount = options.replayCount ?? 100_000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-bench-store-'));
  const figures: BenchFigure[] = [];
  try {
    const file = path.join(dir, 'skipper.db');
    const store = await openStore({ path: file });
    try {
      figures.push(await appendThroughput(store, appendCount));
      const replay = await store.createSession({ name: 'replay', game: 'embedded', model: 'bench' });
      for (let start = 0; start < replayCount; start += 5000) {
        const batch: AppendableMessage[] = [];
        for (let i = start; i < Math.min(replayCount, start + 5000); i++) batch.push(sampleMessage(i));
        await store.appendMany(replay.id, batch);
      }
    } finally {
      await store.close();
    }

    // Replay and export run in a fresh process, as `skipper replay` / `skipper export` would: its peak RSS is theirs,
    // not this process's (which just wrote 120,000 messages).
    figures.push(
      ...(await figuresFromChild(new URL('./store-child.js', import.meta.url), [file, String(replayCount)])),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

/** Appends awaited one by one (the durability rule: each resolves once its commit has), the clock stopped after the
 * last one resolved. */
async function appendThroughput(store: Store, appendCount: number): Promise<BenchFigure> {
  const appendSession = await store.createSession({ name: 'append', game: 'embedded', model: 'bench' });
  const started = performance.now();
  for (let i = 0; i < appendCount; i++) await store.append(appendSession.id, sampleMessage(i));
  const seconds = (performance.now() - started) / 1000;
  return {
    part,
    name: 'append throughput (autocommit, WAL, synchronous=NORMAL)',
    value: Math.round(appendCount / seconds),
    unit: 'msg/s',
    target: 5000,
    better: 'higher',
    note: `${appendCount} messages on a real file, each append awaited before the next (one commit per message)`,
  };
}

/** Open, replay and export of the replay session, in the calling process, with its peak RSS. */
export async function replayAndExport(file: string, replayCount: number): Promise<BenchFigure[]> {
  const rss = new RssSampler();
  rss.reset();
  const size = fs.statSync(file).size;
  const t = performance.now();
  const store = await openStore({ path: file });
  try {
    const replayId = (await store.getSession('replay')).id;
    const openMs = performance.now() - t;
    const figures: BenchFigure[] = [
      {
        part,
        name: 'open with quick_check',
        value: Math.round(openMs),
        unit: 'ms',
        better: 'lower',
        note: `${(size / 1024 / 1024).toFixed(1)} MB file, ${await store.messageCount(replayId)} messages in the replayed session, more in others`,
      },
    ];
    figures.push(await replayRead(store, replayId, replayCount, rss));
    figures.push(...(await exportFigures(store, path.dirname(file), replayCount, rss)));
    rss.sample();
    figures.push({
      part,
      name: 'peak RSS during replay and export',
      value: Math.round(rss.peak / 1024 / 1024),
      unit: 'MB',
      target: 300,
      better: 'lower',
      note: 'a fresh process, as `skipper replay`/`export` run; process.memoryUsage().rss sampled every 2000 messages',
    });
    return figures;
  } finally {
    await store.close();
  }
}

async function replayRead(store: Store, replayId: string, replayCount: number, rss: RssSampler): Promise<BenchFigure> {
  const t = performance.now();
  let count = 0;
  let chars = 0;
  for await (const message of store.iterateMessages(replayId)) {
    chars += message.content.length;
    if (++count % 2000 === 0) rss.sample();
  }
  if (count !== replayCount) throw new Error(`replay read ${count} of ${replayCount} messages`);
  return {
    part,
    name: `replay read of ${replayCount} messages (iterate)`,
    value: Math.round(performance.now() - t),
    unit: 'ms',
    target: 3000,
    better: 'lower',
    note: `${(chars / 1024 / 1024).toFixed(1)} MB of content, iterateMessages read with for await`,
  };
}

async function exportFigures(store: Store, dir: string, replayCount: number, rss: RssSampler): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const format of ['jsonl', 'md'] as const) {
    const t = performance.now();
    const bytes = await exportTo(store, { format, file: path.join(dir, `export.${format}`), rss });
    figures.push({
      part,
      name: `export ${format} of ${replayCount} messages`,
      value: Math.round(performance.now() - t),
      unit: 'ms',
      target: 3000,
      better: 'lower',
      note: `${(bytes / 1024 / 1024).toFixed(1)} MB written`,
    });
  }
  return figures;
}

/** Exports through the store's buffered file writer, as the CLI would; returns bytes written. */
async function exportTo(
  store: Store,
  options: { format: 'md' | 'jsonl'; file: string; rss: RssSampler },
): Promise<number> {
  const fd = fs.openSync(options.file, 'w', 0o600);
  try {
    const writer = createFileWriter(fd);
    let chunks = 0;
    await exportSession(store, 'replay', {
      format: options.format,
      secrets: ['sk-bench-secret-key'],
      write: (chunk) => {
        writer.write(chunk);
        if (++chunks % 2000 === 0) options.rss.sample();
      },
    });
    writer.flush();
    return writer.bytes();
  } finally {
    fs.closeSync(fd);
  }
}

class RssSampler {
  peak = 0;
  reset(): void {
    this.peak = process.memoryUsage().rss;
  }
  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage().rss);
  }
}

/** A realistic mix: user lines, assistant replies with tool calls, tool results with structured data. */
function sampleMessage(i: number): AppendableMessage {
  const turn = Math.floor(i / 4) + 1;
  switch (i % 4) {
    case 0:
      return { role: 'user', content: `autoplay tick ${i}: keep mining and sell when full`, turn };
    case 1:
      return {
        role: 'assistant',
        content: i % 8 === 1 ? 'Cargo is nearly full; heading to the station.' : '',
        turn,
        round: 1,
        reasoning: 'The belt still has iron; one more mine then travel.',
        toolCalls: [
          { id: `call_${i}_a`, name: 'get_status', arguments: '{}' },
          { id: `call_${i}_b`, name: 'mine', arguments: '{"resource":"iron_ore"}' },
        ],
      };
    case 2:
      return {
        role: 'tool',
        toolCallId: `call_${i - 1}_a`,
        toolName: 'get_status',
        turn,
        round: 1,
        isError: false,
        content:
          `Credits: ${1000 + i}. Ship: Sparrow, hull 100/100, fuel 71/100, cargo 12/50. Docked at Sol Station. ` +
          'Tick 4521. Nearby: Sol Belt (asteroid_belt, 0.4 AU), Earth (planet, 1.0 AU), Gate to Alpha (gate).',
        data: {
          player: { credits: 1000 + i },
          ship: { fuel: 71, max_fuel: 100, cargo_used: 12, cargo_capacity: 50 },
          location: { system_id: 'sol', poi_id: 'sol_station', docked: true },
          tick: 4521,
        },
      };
    default:
      return {
        role: 'tool',
        toolCallId: `call_${i - 2}_b`,
        toolName: 'mine',
        turn,
        round: 1,
        isError: false,
        content: 'Mined 3 iron_ore (deposit 812 remaining). +6 mining XP.',
        data: { details: { resource_id: 'iron_ore', quantity: 3, deposit_remaining: 812, xp_gained: 6 } },
      };
  }
}

// An in-memory MemoryPort for unit tests: the same asynchronous contract as the store's memory table (ids ascending,
// list per captain oldest first), plus counters to prove the cache spares the store, gates to hold reads and
// background writes back, and synchronous helpers (addNow, rowsOf, row) to seed and inspect the rows.
import {
  createMemory,
  type CaptainMemory,
  type CreateMemoryOptions,
  type MemoryPort,
  type MemoryRecord,
  type MemoryRecordInput,
} from '../../../../internal/llm/memory/index.js';

/** A captain's memory with its cache loaded: what block, preview and entries need. */
export async function loadedMemory(options: CreateMemoryOptions): Promise<CaptainMemory> {
  const memory = createMemory(options);
  await memory.load();
  return memory;
}

export class FakeMemoryPort implements MemoryPort {
  readonly rows = new Map<number, MemoryRecord>();
  listCalls = 0;
  /** Every touch handed in, in order (resolved or not). */
  readonly touchCalls: number[][] = [];
  /** When set, each touch waits for it before it writes (or fails), so tests can hold background writes back. */
  touchGate: Promise<void> | undefined;
  /** When set, touches reject with this error (after the gate) and write nothing. */
  touchError: Error | undefined;
  /** When set, list() waits for it before it reads, so tests can hold a load back. */
  listGate: Promise<void> | undefined;
  private nextId = 1;
  constructor(private readonly now: () => number = () => 1_000) {}

  async add(input: MemoryRecordInput): Promise<MemoryRecord> {
    return this.addNow(input);
  }
  /** The same insert, synchronous: for seeding rows in tests. */
  addNow(input: MemoryRecordInput): MemoryRecord {
    if (input.text.trim() === '') throw new Error('empty');
    const record: MemoryRecord = {
      id: this.nextId++,
      captain: input.captain,
      kind: input.kind,
      text: input.text,
      tags: input.tags ?? [],
      outcome: input.outcome ?? null,
      evidence: input.evidence === undefined ? null : structuredClone(input.evidence),
      uses: 0,
      createdAt: input.createdAt ?? this.now(),
      lastUsedAt: null,
    };
    this.rows.set(record.id, record);
    return { ...record };
  }
  async list(captain: string, options: { kind?: MemoryRecord['kind']; limit?: number } = {}): Promise<MemoryRecord[]> {
    this.listCalls += 1;
    if (this.listGate) await this.listGate;
    return this.rowsOf(captain, options);
  }
  /** The rows of a captain as list() reads them, synchronously and without counting as a read. */
  rowsOf(captain: string, options: { kind?: MemoryRecord['kind']; limit?: number } = {}): MemoryRecord[] {
    const rows = [...this.rows.values()].filter(
      (row) => row.captain === captain && (!options.kind || row.kind === options.kind),
    );
    return rows.slice(0, options.limit ?? rows.length).map((row) => ({ ...row }));
  }
  async get(id: number): Promise<MemoryRecord | undefined> {
    return this.row(id);
  }
  /** One row as get() reads it, synchronously. */
  row(id: number): MemoryRecord | undefined {
    const row = this.rows.get(id);
    return row ? { ...row } : undefined;
  }
  async remove(id: number): Promise<boolean> {
    return this.rows.delete(id);
  }
  async touch(ids: readonly number[]): Promise<void> {
    this.touchCalls.push([...ids]);
    if (this.touchGate) await this.touchGate;
    if (this.touchError) throw this.touchError;
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row) {
        row.uses += 1;
        row.lastUsedAt = this.now();
      }
    }
  }
  texts(captain: string): string[] {
    return this.rowsOf(captain).map((row) => row.text);
  }
}

/** A small seeded PRNG (mulberry32) so property-style tests are reproducible. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

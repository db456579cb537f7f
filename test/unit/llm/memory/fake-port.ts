// An in-memory MemoryPort for unit tests: the same contract as the SQLite memory store (ids ascending, list per
// captain oldest first), plus counters to prove the cache spares the store.
import type { MemoryPort, MemoryRecord, MemoryRecordInput } from '../../../../internal/llm/memory/index.js';

export class FakeMemoryPort implements MemoryPort {
  readonly rows = new Map<number, MemoryRecord>();
  listCalls = 0;
  private nextId = 1;
  constructor(private readonly now: () => number = () => 1_000) {}

  add(input: MemoryRecordInput): MemoryRecord {
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
  list(captain: string, options: { kind?: MemoryRecord['kind']; limit?: number } = {}): MemoryRecord[] {
    this.listCalls += 1;
    const rows = [...this.rows.values()].filter(
      (row) => row.captain === captain && (!options.kind || row.kind === options.kind),
    );
    return rows.slice(0, options.limit ?? rows.length).map((row) => ({ ...row }));
  }
  get(id: number): MemoryRecord | undefined {
    const row = this.rows.get(id);
    return row ? { ...row } : undefined;
  }
  remove(id: number): boolean {
    return this.rows.delete(id);
  }
  touch(ids: readonly number[]): void {
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row) {
        row.uses += 1;
        row.lastUsedAt = this.now();
      }
    }
  }
  texts(captain: string): string[] {
    return this.list(captain).map((row) => row.text);
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

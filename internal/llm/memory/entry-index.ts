// The per-captain memory cache: entries by id and by kind, each with its words as ids of a shared vocabulary and
// its recency precomputed, so ranking 10,000 entries is integer lookups and one multiplication per entry.
import { tokenize } from './tokenize.js';
import type { MemoryKind, MemoryRecord } from './types.js';

const HOUR = 3_600_000;
const HALF_LIFE_HOURS: Record<MemoryKind, number> = { handoff: 24, lesson: 72, note: 168, episode: 24 };
export const DECAY: Record<MemoryKind, number> = {
  handoff: Math.LN2 / HALF_LIFE_HOURS.handoff,
  lesson: Math.LN2 / HALF_LIFE_HOURS.lesson,
  note: Math.LN2 / HALF_LIFE_HOURS.note,
  episode: Math.LN2 / HALF_LIFE_HOURS.episode,
};

/** An entry as the cache keeps it: its distinct words as ids of the index's vocabulary, computed once. */
export interface CachedEntry {
  record: MemoryRecord;
  words: Uint32Array;
  /** Recency at the index's reference time (may exceed 1 for entries added later); see scoreEntry. */
  recencyAtReference: number;
  /** The part of the score that does not depend on the query or the clock: uses and outcome (see scoreEntry). */
  bonus: number;
  /** Scratch: the score of the last ranking. */
  score: number;
  /** The secrets (joined) this entry was last found free of; see buildBlock. */
  cleanFor: string | undefined;
  /** Its text with the numbers blanked, once buildBlock needed it (the text of a cached entry never changes). */
  shape?: string;
}

/**
 * The per-captain cache: entries by id and by kind plus a vocabulary, so a ranking is integer lookups in a mask
 * and one multiplication for recency, instead of string hashing and Math.exp per entry.
 */
export class EntryIndex {
  /** Recency decays from here: recency(now) = recencyAtReference × exp(-(now - reference) × decay). */
  readonly reference: number;
  private readonly vocabulary = new Map<string, number>();
  private readonly byId = new Map<number, CachedEntry>();
  private readonly byKind: Record<MemoryKind, CachedEntry[]> = { handoff: [], lesson: [], note: [], episode: [] };

  constructor(records: Iterable<MemoryRecord>, reference: number) {
    this.reference = reference;
    for (const record of records) this.put(record);
  }

  get size(): number {
    return this.byId.size;
  }

  /** Adds or replaces an entry. */
  put(record: MemoryRecord): CachedEntry {
    const ids: number[] = [];
    for (const word of tokenize(`${record.text} ${record.tags.join(' ')}`)) {
      let id = this.vocabulary.get(word);
      if (id === undefined) {
        id = this.vocabulary.size;
        this.vocabulary.set(word, id);
      }
      ids.push(id);
    }
    const ageHours = (this.reference - record.createdAt) / HOUR;
    const entry: CachedEntry = {
      record,
      words: Uint32Array.from(ids),
      recencyAtReference: Math.exp(-ageHours * DECAY[record.kind]),
      bonus: staticBonus(record),
      score: 0,
      cleanFor: undefined,
    };
    this.delete(record.id);
    this.byId.set(record.id, entry);
    this.byKind[record.kind].push(entry);
    return entry;
  }

  /** Marks an entry used now (the store is told by the caller). */
  touched(id: number, at: number): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    entry.record = { ...entry.record, uses: entry.record.uses + 1, lastUsedAt: at };
    entry.bonus = staticBonus(entry.record);
  }

  get(id: number): CachedEntry | undefined {
    return this.byId.get(id);
  }

  delete(id: number): boolean {
    const entry = this.byId.get(id);
    if (!entry) return false;
    this.byId.delete(id);
    const list = this.byKind[entry.record.kind];
    const position = list.indexOf(entry);
    if (position >= 0) list.splice(position, 1);
    return true;
  }

  values(): IterableIterator<CachedEntry> {
    return this.byId.values();
  }

  /** The entries of one kind, oldest first (do not modify). */
  ofKind(kind: MemoryKind): readonly CachedEntry[] {
    return this.byKind[kind];
  }

  /** A mask over the vocabulary with the query's words set; words no entry has are irrelevant and dropped. */
  mask(text: string): Uint8Array {
    const mask = new Uint8Array(this.vocabulary.size);
    for (const word of tokenize(text)) {
      const id = this.vocabulary.get(word);
      if (id !== undefined) mask[id] = 1;
    }
    return mask;
  }

  /** exp(-(now - reference) × decay) per kind: multiply by an entry's recencyAtReference to get its recency. */
  decayFactors(now: number): Record<MemoryKind, number> {
    const hours = (now - this.reference) / HOUR;
    return {
      handoff: Math.exp(-hours * DECAY.handoff),
      lesson: Math.exp(-hours * DECAY.lesson),
      note: Math.exp(-hours * DECAY.note),
      episode: Math.exp(-hours * DECAY.episode),
    };
  }
}

const LOG20 = Math.log(20);

/** Entries used before get a little (capped, so being shown cannot snowball); failures teach most, then successes. */
export function staticBonus(record: MemoryRecord): number {
  const uses = record.uses === 0 ? 0 : Math.min(1, Math.log1p(record.uses) / LOG20) * 0.3;
  const outcome = record.outcome === 'failure' ? 0.3 : record.outcome === 'success' ? 0.15 : 0;
  return uses + outcome;
}

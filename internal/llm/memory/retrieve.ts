// Retrieval: scores a captain's entries against the goal and recent context (keyword overlap), recency, uses and
// outcome, then fills a token budget in priority order — latest handoff, lessons, notes, episodes — as one labelled
// block. Pure over the cached entries; the caller touches the ids it returns. Tokens are estimated as chars/4.
import { containsSecret } from './secrets.js';
import { tokenize } from './tokenize.js';
import type { MemoryKind, MemoryRecord } from './types.js';

export const BLOCK_HEADING = "## Captain's memory (from earlier sessions)";
const BLOCK_INTRO =
  'What you noted and learned before, ranked for this goal. It is advice from your past self, not orders: check it ' +
  'against the game. Tools: remember(text, tags) to keep a note, recall(query) to search, forget(id) to drop one.';

const SECTIONS: Array<{ kind: MemoryKind; title: string }> = [
  { kind: 'handoff', title: '### Handoff from the last session' },
  { kind: 'lesson', title: '### Lessons (from repeated failures)' },
  { kind: 'note', title: '### Your notes' },
  { kind: 'episode', title: '### Past turns' },
];

/** Longest line per entry, so one long note cannot take the whole budget. */
const LINE_CHARS = 480;
/** The handoff may take at most this share of the budget. */
const HANDOFF_SHARE = 0.4;
const HOUR = 3_600_000;
const HALF_LIFE_HOURS: Record<MemoryKind, number> = { handoff: 24, lesson: 72, note: 168, episode: 24 };

/** An entry as the cache keeps it: tokens computed once. */
export interface CachedEntry {
  record: MemoryRecord;
  tokens: Set<string>;
}

export function cacheEntry(record: MemoryRecord): CachedEntry {
  return { record, tokens: tokenize(`${record.text} ${record.tags.join(' ')}`) };
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function scoreEntry(entry: CachedEntry, query: ReadonlySet<string>, now: number): number {
  const { record, tokens } = entry;
  let matched = 0;
  if (query.size > 0 && tokens.size > 0) {
    // Iterate the smaller set: queries are short, entries usually too.
    const [small, large] = query.size <= tokens.size ? [query, tokens] : [tokens, query];
    for (const token of small) if (large.has(token)) matched += 1;
  }
  const relevance = matched === 0 ? 0 : matched / Math.sqrt(tokens.size);
  // Being shown is not the same as being new: recency counts from creation, uses add a small bonus of their own.
  const ageHours = Math.max(0, now - record.createdAt) / HOUR;
  const recency = 0.5 ** (ageHours / HALF_LIFE_HOURS[record.kind]);
  const uses = Math.min(1, Math.log1p(record.uses) / Math.log(20)) * 0.3;
  const outcome = record.outcome === 'failure' ? 0.3 : record.outcome === 'success' ? 0.15 : 0;
  return 3 * relevance + recency + uses + outcome;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function age(ms: number, now: number): string {
  const minutes = Math.max(0, Math.round((now - ms) / 60_000));
  if (minutes < 60) return `${minutes}m ago`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)}h ago`;
  return `${Math.round(minutes / 1440)}d ago`;
}

function line(record: MemoryRecord, now: number, max: number): string {
  const tags = record.kind === 'note' && record.tags.length > 0 ? ` [${record.tags.slice(0, 5).join(', ')}]` : '';
  const when = record.kind === 'episode' || record.kind === 'note' ? ` (${age(record.createdAt, now)})` : '';
  return `- #${record.id}${when} ${clip(record.text, max)}${tags}`;
}

export interface BuildBlockOptions {
  entries: readonly CachedEntry[];
  goal?: string;
  recentText?: string;
  budgetTokens: number;
  secrets: readonly string[];
  now: number;
}

export interface BuiltBlock {
  text: string;
  tokens: number;
  ids: number[];
}

export function buildBlock(options: BuildBlockOptions): BuiltBlock {
  const { budgetTokens, secrets, now } = options;
  const maxChars = Math.max(0, budgetTokens) * 4;
  const head = `${BLOCK_HEADING}\n${BLOCK_INTRO}`;
  if (head.length > maxChars) return { text: '', tokens: 0, ids: [] };
  const query = tokenize(`${options.goal ?? ''} ${options.recentText ?? ''}`);

  const byKind: Record<MemoryKind, Array<{ entry: CachedEntry; score: number }>> = {
    handoff: [],
    lesson: [],
    note: [],
    episode: [],
  };
  let latestHandoff: CachedEntry | undefined;
  for (const entry of options.entries) {
    const kind = entry.record.kind;
    if (kind === 'handoff') {
      if (!latestHandoff || entry.record.id > latestHandoff.record.id) latestHandoff = entry;
      continue;
    }
    byKind[kind].push({ entry, score: scoreEntry(entry, query, now) });
  }

  const lines: string[] = [head];
  let length = head.length;
  const ids: number[] = [];
  // Adds a section title with its first line, or a further line; false when it would not fit.
  const tryAdd = (text: string): boolean => {
    if (length + 1 + text.length > maxChars) return false;
    lines.push(text);
    length += 1 + text.length;
    return true;
  };
  const safe = (record: MemoryRecord): boolean => !containsSecret(record.text, secrets) && !containsSecret(record.tags.join(' '), secrets);

  for (const section of SECTIONS) {
    let titled = false;
    const add = (record: MemoryRecord, max: number): boolean => {
      const text = line(record, now, max);
      const chunk = titled ? text : `${section.title}\n${text}`;
      if (!tryAdd(chunk)) return false;
      titled = true;
      ids.push(record.id);
      return true;
    };
    if (section.kind === 'handoff') {
      if (latestHandoff && safe(latestHandoff.record)) {
        const room = Math.floor(maxChars * HANDOFF_SHARE) - section.title.length - 20;
        if (room > 40) add(latestHandoff.record, Math.min(room, 4 * LINE_CHARS));
      }
      continue;
    }
    const ranked = byKind[section.kind].sort((a, b) => b.score - a.score || b.entry.record.id - a.entry.record.id);
    let misses = 0;
    for (const { entry } of ranked) {
      if (!safe(entry.record)) continue;
      if (!add(entry.record, LINE_CHARS)) {
        // A long line may not fit where a short one still does; stop after a few misses to stay fast.
        misses += 1;
        if (misses >= 8) break;
      }
    }
  }
  if (ids.length === 0) return { text: '', tokens: 0, ids: [] };
  const text = lines.join('\n');
  return { text, tokens: estimateTokens(text), ids };
}

/** Entries best matching a query (all kinds), for recall. */
export function searchEntries(options: { entries: readonly CachedEntry[]; query: string; now: number; limit: number; secrets: readonly string[] }): MemoryRecord[] {
  const query = tokenize(options.query);
  const scored: Array<{ record: MemoryRecord; score: number; matched: boolean }> = [];
  for (const entry of options.entries) {
    if (containsSecret(entry.record.text, options.secrets)) continue;
    let matched = false;
    for (const token of query) {
      if (entry.tokens.has(token)) {
        matched = true;
        break;
      }
    }
    if (query.size > 0 && !matched) continue;
    scored.push({ record: entry.record, score: scoreEntry(entry, query, options.now), matched });
  }
  scored.sort((a, b) => b.score - a.score || b.record.id - a.record.id);
  return scored.slice(0, options.limit).map((item) => item.record);
}

export function recallLine(record: MemoryRecord, now: number): string {
  return `#${record.id} ${record.kind} (${age(record.createdAt, now)}, used ${record.uses}×): ${clip(record.text, LINE_CHARS)}`;
}

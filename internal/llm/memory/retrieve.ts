// Retrieval: scores a captain's entries against the goal and recent context (keyword overlap), recency, uses and
// outcome, then fills a token budget in priority order — latest handoff, lessons, notes, episodes — as one labelled
// block. Pure over the cached entries; the caller touches the ids it returns. Tokens are estimated as chars/4.
import { clip } from '../../shared/index.js';
import type { CachedEntry, EntryIndex } from './entry-index.js';
import { episodeGoalPrefix } from './episode.js';
import { containsSecret } from './secrets.js';
import type { MemoryKind, MemoryRecord } from './types.js';

export const BLOCK_HEADING = "## Captain's memory (from earlier sessions)";
const BLOCK_INTRO =
  'What you noted and learned before, ranked for this goal. It is advice from your past self, not orders: check it ' +
  'against the game.';

const SECTIONS: Array<{ kind: MemoryKind; title: string }> = [
  { kind: 'handoff', title: '### Handoff from the last session' },
  { kind: 'lesson', title: '### Lessons (from repeated failures)' },
  { kind: 'note', title: '### Your notes' },
  { kind: 'episode', title: '### Past turns (for this goal unless another is named)' },
];

/**
 * The most past turns shown: they are routine (mined, sold, travelled) and the current session's are in its own
 * transcript; a full block of them was ~900 of the ~1,300 o200k tokens of an autoplay system message
 * (`npm run bench -- tokens`, issue 50). Lessons and notes, which say what was learnt, keep the rest of the budget.
 */
const EPISODE_LINES = 4;

/** Longest line per entry, so one long note cannot take the whole budget. */
const LINE_CHARS = 480;
/** The handoff may take at most this share of the budget. */
const HANDOFF_SHARE = 0.4;
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * 3 × keyword overlap (matched words / √words, so long entries do not win by size) + recency (half-life per kind)
 * + a small bonus for entries used before + a bonus for what came from failure (lessons, failed turns teach most)
 * or success.
 */
export function scoreEntry(entry: CachedEntry, mask: Uint8Array, decay: number): number {
  const words = entry.words;
  let matched = 0;
  for (let index = 0; index < words.length; index += 1) matched += mask[words[index] as number] as number;
  const relevance = matched === 0 ? 0 : matched / Math.sqrt(words.length);
  // Being shown is not the same as being new: recency counts from creation; uses are part of the bonus.
  const recency = Math.min(1, entry.recencyAtReference * decay);
  return 3 * relevance + recency + entry.bonus;
}

/** Best first; ties go to the newer entry, so the order is total and top-K agrees with a full sort. */
function better(a: CachedEntry, b: CachedEntry): number {
  return b.score - a.score || b.record.id - a.record.id;
}

/**
 * The k best entries, best first, without sorting the whole list: quickselect finds the k-th best score in linear
 * time, then only the entries at or above it are sorted.
 */
export function topK(list: readonly CachedEntry[], k: number): CachedEntry[] {
  if (list.length <= k) return [...list].sort(better);
  if (k <= 0) return [];
  const scores = new Float64Array(list.length);
  for (let index = 0; index < list.length; index += 1) scores[index] = (list[index] as CachedEntry).score;
  const threshold = kthLargest(scores, k);
  const picked: CachedEntry[] = [];
  for (const entry of list) if (entry.score >= threshold) picked.push(entry);
  // Ties at the threshold may add more than k: the full order (newer first) decides, as a full sort would.
  return picked.sort(better).slice(0, k);
}

/** The k-th largest value (1-based); reorders `values`. Iterative quickselect, median-of-three pivots. */
function kthLargest(values: Float64Array, k: number): number {
  let low = 0;
  let high = values.length - 1;
  const target = k - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    const a = values[low] as number;
    const b = values[middle] as number;
    const c = values[high] as number;
    const pivot = a > b ? (b > c ? b : a > c ? c : a) : a > c ? a : b > c ? c : b;
    let left = low;
    let right = high;
    while (left <= right) {
      while ((values[left] as number) > pivot) left += 1;
      while ((values[right] as number) < pivot) right -= 1;
      if (left <= right) {
        const swap = values[left] as number;
        values[left] = values[right] as number;
        values[right] = swap;
        left += 1;
        right -= 1;
      }
    }
    if (target <= right) high = right;
    else if (target >= left) low = left;
    else return values[target] as number;
  }
  return values[target] as number;
}

/** One line: whitespace runs become one space, then clipped to `max` characters. */
function clipLine(text: string, max: number): string {
  return clip(text.replace(/\s+/g, ' ').trim(), max);
}

function age(ms: number, now: number): string {
  const minutes = Math.max(0, Math.round((now - ms) / 60_000));
  if (minutes < 60) return `${minutes}m ago`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)}h ago`;
  return `${Math.round(minutes / 1440)}d ago`;
}

/** A past turn's text without its goal when that is the goal of now (the section title says so): the same ~20 tokens
 * repeated on every past-turn line of every request (`npm run bench -- tokens`, issue 50). */
function entryText(record: MemoryRecord, goal: string | undefined): string {
  if (record.kind !== 'episode' || !goal) return record.text;
  const prefix = `${episodeGoalPrefix(goal)}: `;
  return record.text.startsWith(prefix) ? record.text.slice(prefix.length) : record.text;
}

function line(record: MemoryRecord, now: number, max: number, goal?: string): string {
  const tags = record.kind === 'note' && record.tags.length > 0 ? ` [${record.tags.slice(0, 5).join(', ')}]` : '';
  const when = record.kind === 'episode' || record.kind === 'note' ? ` (${age(record.createdAt, now)})` : '';
  return `- #${record.id}${when} ${clipLine(entryText(record, goal), max)}${tags}`;
}

export interface BuildBlockOptions {
  index: EntryIndex;
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

/** Candidates ranked per section before falling back to a full sort (a 1,500-token block holds far fewer lines). */
const RANKED = 200;
/** Lines that did not fit before a section gives up (a short one may still fit after a long one did not). */
const MISSES = 8;

export function buildBlock(options: BuildBlockOptions): BuiltBlock {
  const { budgetTokens, secrets, now, index } = options;
  const maxChars = Math.max(0, budgetTokens) * 4;
  const head = `${BLOCK_HEADING}\n${BLOCK_INTRO}`;
  if (head.length > maxChars) return { text: '', tokens: 0, ids: [] };
  const mask = index.mask(`${options.goal ?? ''} ${options.recentText ?? ''}`);

  const decay = index.decayFactors(now);
  let latestHandoff: CachedEntry | undefined;
  for (const entry of index.ofKind('handoff')) {
    if (!latestHandoff || entry.record.id > latestHandoff.record.id) latestHandoff = entry;
  }
  const rank = (kind: MemoryKind): readonly CachedEntry[] => {
    const list = index.ofKind(kind);
    const factor = decay[kind];
    for (const entry of list) entry.score = scoreEntry(entry, mask, factor);
    return list;
  };

  const lines: string[] = [head];
  let length = head.length;
  const ids: number[] = [];
  const shapes = new Set<string>();
  const tryAdd = (text: string): boolean => {
    if (length + 1 + text.length > maxChars) return false;
    lines.push(text);
    length += 1 + text.length;
    return true;
  };
  // An entry found clean for these secrets stays clean until the secrets change (the check is a regex per entry).
  const secretsKey = secrets.join('\u0000');
  const safe = (entry: CachedEntry): boolean => {
    if (entry.cleanFor === secretsKey) return true;
    const clean = !containsSecret(entry.record.text, secrets) && !containsSecret(entry.record.tags.join(' '), secrets);
    if (clean) entry.cleanFor = secretsKey;
    return clean;
  };

  for (const section of SECTIONS) {
    let titled = false;
    // The section title goes in with its first line, so an empty section costs nothing.
    const add = (entry: CachedEntry, max: number): boolean => {
      const record = entry.record;
      // Entries that differ only in their numbers (the same routine turn again) are shown once: room for variety.
      // Routine turns make most episodes such repeats, so each entry's shape is worked out once, not every turn.
      const shape = (entry.shape ??= record.text.toLowerCase().replace(/\d+/g, '#'));
      if (shapes.has(shape)) return true;
      const text = line(record, now, max, options.goal);
      if (!tryAdd(titled ? text : `${section.title}\n${text}`)) return false;
      titled = true;
      shapes.add(shape);
      ids.push(record.id);
      return true;
    };
    if (section.kind === 'handoff') {
      if (latestHandoff && safe(latestHandoff)) {
        const room = Math.floor(maxChars * HANDOFF_SHARE) - section.title.length - 20;
        if (room > 40) add(latestHandoff, Math.min(room, 4 * LINE_CHARS));
      }
      continue;
    }
    const candidates = rank(section.kind);
    let ranked = topK(candidates, RANKED);
    let misses = 0;
    const before = ids.length;
    const most = section.kind === 'episode' ? EPISODE_LINES : Number.POSITIVE_INFINITY;
    for (let position = 0; misses < MISSES && ids.length - before < most; position += 1) {
      if (position === ranked.length) {
        if (ranked.length >= candidates.length) break;
        // Room left after the best ones ranked so far (short entries, big budget, or repeats of one routine): rank
        // more and go on from here. The order is total, so the longer list starts with the shorter one.
        ranked = topK(candidates, ranked.length * 4);
      }
      const entry = ranked[position] as CachedEntry;
      if (!safe(entry)) continue;
      if (!add(entry, LINE_CHARS)) misses += 1;
    }
  }
  if (ids.length === 0) return { text: '', tokens: 0, ids: [] };
  const text = lines.join('\n');
  return { text, tokens: estimateTokens(text), ids };
}

/** Entries best matching a query (all kinds, at least one word in common), for recall. */
export function searchEntries(options: {
  index: EntryIndex;
  query: string;
  now: number;
  limit: number;
  secrets: readonly string[];
}): MemoryRecord[] {
  const mask = options.index.mask(options.query);
  const decay = options.index.decayFactors(options.now);
  const found: CachedEntry[] = [];
  for (const entry of options.index.values()) {
    let matched = false;
    for (let position = 0; position < entry.words.length && !matched; position += 1)
      matched = mask[entry.words[position] as number] === 1;
    if (!matched || containsSecret(entry.record.text, options.secrets)) continue;
    entry.score = scoreEntry(entry, mask, decay[entry.record.kind]);
    found.push(entry);
  }
  return topK(found, options.limit).map((entry) => entry.record);
}

export function recallLine(record: MemoryRecord, now: number): string {
  return `#${record.id} ${record.kind} (${age(record.createdAt, now)}, used ${record.uses}×): ${clipLine(record.text, LINE_CHARS)}`;
}

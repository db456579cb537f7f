// createMemory: one captain's memory (game + username) over the store's memory rows. Keeps the parsed entries in
// a cache (the store is read once per captain; writes made here update the cache), serves the local tools,
// builds the prompt block, writes episodes, lessons and handoffs. Secrets are refused on the way in and filtered
// again on the way out, because the password may only become known after an entry was written.
import type { ToolResult } from '../../shared/index.js';
import type { LocalTool } from '../dispatch.js';
import { clipArgs, episodeErrors, episodeOutcome, episodeText, isEventful } from './episode.js';
import { LESSON_THRESHOLD, isLessonWorthy, lessonKey, lessonText, type LessonEvidence } from './lessons.js';
import { EntryIndex, buildBlock, recallLine, searchEntries } from './retrieve.js';
import { containsSecret, redactSecrets } from './secrets.js';
import { tokenize } from './tokenize.js';
import { MEMORY_TOOL_NAMES, memoryTools } from './tools.js';
import type {
  BlockReport,
  CaptainMemory,
  HandoffResult,
  MemoryContext,
  MemoryPort,
  MemoryRecord,
  MemoryRecordInput,
  RecordTurnResult,
  TurnFacts,
} from './types.js';

export const DEFAULT_MEMORY_BUDGET = 1500;
const HANDOFF_MAX_CHARS = 4000;
/** Older handoffs are never shown (latest only); a few are kept for `skipper memory list`. */
const HANDOFFS_KEPT = 5;
const RECALL_LIMIT = 8;

export interface CreateMemoryOptions {
  port: MemoryPort;
  /** captainId({game, username}) from the store: "game#username". */
  captain: string;
  /** Current secrets (game password, API keys); asked each time, since a password may be captured later. */
  secrets: () => string[];
  budgetTokens?: number;
  now?: () => number;
}

export function createMemory(options: CreateMemoryOptions): CaptainMemory {
  const { port, captain } = options;
  const now = options.now ?? Date.now;
  const budgetTokens = options.budgetTokens ?? DEFAULT_MEMORY_BUDGET;
  const secrets = (): string[] => options.secrets().filter((secret) => secret.length > 0);
  let cache: EntryIndex | undefined;

  // list() is per captain: another captain's rows never enter this cache.
  const entries = (): EntryIndex => (cache ??= new EntryIndex(port.list(captain), now()));
  const add = (input: Omit<MemoryRecordInput, 'captain'>): MemoryRecord => {
    const record = port.add({ ...input, captain, createdAt: input.createdAt ?? now() });
    entries().put(record);
    return record;
  };
  const remove = (id: number): boolean => {
    entries().delete(id);
    return port.remove(id);
  };
  const touch = (ids: number[]): void => {
    if (ids.length === 0) return;
    port.touch(ids);
    const at = now();
    const map = entries();
    for (const id of ids) {
      const entry = map.get(id);
      if (entry) entry.record = { ...entry.record, uses: entry.record.uses + 1, lastUsedAt: at };
    }
  };
  const ofKind = (kind: MemoryRecord['kind']): MemoryRecord[] =>
    entries()
      .ofKind(kind)
      .map((entry) => entry.record);

  const preview = (context: MemoryContext): BlockReport =>
    buildBlock({
      index: entries(),
      ...(context.goal !== undefined ? { goal: context.goal } : {}),
      ...(context.recentText !== undefined ? { recentText: context.recentText } : {}),
      budgetTokens,
      secrets: secrets(),
      now: now(),
    });

  const operations = {
    remember(text: string, tags: string[]): ToolResult {
      if (containsSecret(`${text} ${tags.join(' ')}`, secrets())) {
        return {
          text: 'remember refused: the note contains a password, key or token. Secrets are never stored; write the note without it.',
          isError: true,
          code: 'refused',
        };
      }
      const record = add({ kind: 'note', text, tags });
      return { text: `Remembered as #${record.id}. It will be offered to you in later sessions when it matters.`, isError: false };
    },
    recall(query: string): ToolResult {
      const found = searchEntries({ index: entries(), query, now: now(), limit: RECALL_LIMIT, secrets: secrets() });
      if (found.length === 0) return { text: `Nothing in memory matches "${query}".`, isError: false };
      touch(found.map((record) => record.id));
      const lines = found.map((record) => recallLine(record, now()));
      return { text: `${found.length} match${found.length === 1 ? '' : 'es'}:\n${lines.join('\n')}`, isError: false };
    },
    forget(id: number): ToolResult {
      const record = entries().get(id)?.record ?? port.get(id);
      // Another captain's entry is answered exactly like a missing one: its existence is not this captain's business.
      if (!record || record.captain !== captain) {
        return { text: `forget: there is no memory #${id}; recall shows the ids`, isError: true, code: 'not_found' };
      }
      remove(id);
      return { text: `Forgot #${id} (${record.kind}) for good.`, isError: false };
    },
  };

  const refreshLessons = (turn: TurnFacts, at: number): RecordTurnResult['lessons'] => {
    const keys = new Map<string, { code: string; tool: string }>();
    for (const error of turn.errors) {
      if (isLessonWorthy(error.code)) keys.set(lessonKey(error.code, error.tool), { code: error.code, tool: error.tool });
    }
    if (keys.size === 0) return [];
    // Counts over every episode of this captain (this turn's episode is already in the cache).
    const stats = new Map<string, { count: number; first: number; last: number; args?: string }>();
    for (const episode of ofKind('episode')) {
      for (const error of episodeErrors(episode.evidence)) {
        const key = lessonKey(error.code, error.tool);
        if (!keys.has(key)) continue;
        const stat = stats.get(key) ?? { count: 0, first: episode.createdAt, last: episode.createdAt };
        stat.count += 1;
        stat.first = Math.min(stat.first, episode.createdAt);
        if (episode.createdAt >= stat.last) {
          stat.last = episode.createdAt;
          if (error.args) stat.args = error.args;
        }
        stats.set(key, stat);
      }
    }
    const lessons = ofKind('lesson');
    const out: RecordTurnResult['lessons'] = [];
    for (const [key, { code, tool }] of keys) {
      const stat = stats.get(key);
      if (!stat || stat.count < LESSON_THRESHOLD) continue;
      const existing = lessons.filter((lesson) => (lesson.evidence as { key?: unknown } | null)?.key === key);
      const evidence: LessonEvidence = { key, code, tool, count: stat.count, firstSeen: stat.first, lastSeen: Math.max(stat.last, at) };
      if (stat.args) evidence.lastArgs = stat.args;
      // The store has no update: the refreshed lesson replaces the old row(s), so there is only ever one per key.
      for (const old of existing) remove(old.id);
      const record = add({ kind: 'lesson', text: lessonText(evidence), tags: [code, tool], outcome: 'failure', evidence, createdAt: at });
      out.push({ id: record.id, key, count: stat.count, created: existing.length === 0 });
    }
    return out;
  };

  const memory: CaptainMemory = {
    captain,
    budgetTokens,
    localTools(): LocalTool[] {
      return memoryTools(operations);
    },
    block(context: MemoryContext): string {
      const built = preview(context);
      touch(built.ids);
      return built.text;
    },
    preview,
    recordTurn(turn: TurnFacts): RecordTurnResult {
      if (!isEventful(turn)) return { lessons: [] };
      const at = now();
      const hidden = secrets();
      const clean = (text: string): string => redactSecrets(text, hidden);
      const actions = turn.actions.filter((name) => !MEMORY_TOOL_NAMES.includes(name));
      const errors = turn.errors.map((error) => {
        const args = clipArgs(error.args);
        // Arguments that held a secret (a login) are dropped, not redacted: their shape is no lesson.
        return args && !containsSecret(args, hidden) ? { tool: error.tool, code: error.code, args } : { tool: error.tool, code: error.code };
      });
      const facts: TurnFacts = { ...turn, actions, errors, ...(turn.goal !== undefined ? { goal: clean(turn.goal) } : {}) };
      const evidence = {
        outcome: turn.outcome,
        actions,
        errors,
        ...(turn.creditsBefore !== undefined ? { creditsBefore: turn.creditsBefore } : {}),
        ...(turn.creditsAfter !== undefined ? { creditsAfter: turn.creditsAfter } : {}),
        ...(turn.netWorthBefore !== undefined ? { netWorthBefore: turn.netWorthBefore } : {}),
        ...(turn.netWorthAfter !== undefined ? { netWorthAfter: turn.netWorthAfter } : {}),
      };
      const tags = [...new Set([...actions, ...errors.map((error) => error.code), ...errors.map((error) => error.tool)])].slice(0, 12);
      const episode = add({ kind: 'episode', text: clean(episodeText(facts)), tags, outcome: episodeOutcome(facts), evidence, createdAt: at });
      return { episodeId: episode.id, lessons: refreshLessons(facts, at) };
    },
    writeHandoff(text: string): HandoffResult {
      const trimmed = text.trim();
      if (trimmed === '') return { ok: false, reason: 'the handoff is empty' };
      if (containsSecret(trimmed, secrets())) return { ok: false, reason: 'the handoff contains a password, key or token; not stored' };
      const record = add({ kind: 'handoff', text: trimmed.slice(0, HANDOFF_MAX_CHARS) });
      const handoffs = ofKind('handoff').sort((a, b) => b.id - a.id);
      for (const old of handoffs.slice(HANDOFFS_KEPT)) remove(old.id);
      return { ok: true, id: record.id };
    },
    entries(): MemoryRecord[] {
      return [...entries().values()].map((entry) => entry.record).sort((a, b) => a.id - b.id);
    },
    refresh(): void {
      cache = undefined;
    },
  };
  return memory;
}

/** Words of a text as retrieval sees them (exported for tests and for callers building recentText). */
export function memoryKeywords(text: string): string[] {
  return [...tokenize(text)];
}

// createMemory: one captain's memory (game + username) over the store's memory rows. Keeps the parsed entries in
// a cache (the store is read once per captain; writes made here update the cache), serves the local tools,
// builds the prompt block, writes episodes, lessons and handoffs. Secrets are refused on the way in and filtered
// again on the way out, because the password may only become known after an entry was written.
import { z } from 'zod';
import type { ToolResult } from '../../shared/index.js';
import type { LocalTool } from '../dispatch.js';
import { clipArgs, episodeErrors, episodeOutcome, episodeText, isEventful } from './episode.js';
import { LESSON_THRESHOLD, isLessonWorthy, lessonKey, lessonText, type LessonEvidence } from './lessons.js';
import { EntryIndex } from './entry-index.js';
import { buildBlock, recallLine, searchEntries } from './retrieve.js';
import { containsSecret, redactSecrets } from './secrets.js';
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
/** Episodes kept per captain; pruning waits for some slack so it runs in batches, not every turn. */
export const EPISODES_KEPT = 2000;
const EPISODES_SLACK = 100;

const lessonEvidenceSchema = z.object({
  key: z.string(),
  code: z.string(),
  tool: z.string(),
  count: z.number().int().nonnegative(),
  firstSeen: z.number(),
  lastSeen: z.number(),
  lastArgs: z.string().optional(),
});

function lessonEvidence(value: unknown): LessonEvidence | undefined {
  const parsed = lessonEvidenceSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { lastArgs, ...rest } = parsed.data;
  return lastArgs === undefined ? rest : { ...rest, lastArgs };
}

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
    const index = entries();
    for (const id of ids) index.touched(id, at);
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
      const same = ofKind('note').find((note) => note.text.trim().toLowerCase() === text.trim().toLowerCase());
      if (same) return { text: `Already remembered as #${same.id}.`, isError: false };
      const record = add({ kind: 'note', text, tags });
      return {
        text: `Remembered as #${record.id}. It will be offered to you in later sessions when it matters.`,
        isError: false,
      };
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
    // This turn's failures by lesson key, with how often and the last arguments.
    const turnStats = new Map<string, { code: string; tool: string; count: number; args?: string }>();
    for (const error of turn.errors) {
      if (!isLessonWorthy(error.code)) continue;
      const key = lessonKey(error.code, error.tool);
      const stat = turnStats.get(key) ?? { code: error.code, tool: error.tool, count: 0 };
      stat.count += 1;
      if (error.args) stat.args = error.args;
      turnStats.set(key, stat);
    }
    if (turnStats.size === 0) return [];
    const existingByKey = new Map<string, Array<{ record: MemoryRecord; evidence: LessonEvidence | undefined }>>();
    for (const lesson of ofKind('lesson')) {
      const evidence = lessonEvidence(lesson.evidence);
      const key = evidence?.key;
      if (key === undefined || !turnStats.has(key)) continue;
      existingByKey.set(key, [...(existingByKey.get(key) ?? []), { record: lesson, evidence }]);
    }
    // A new lesson counts over every episode of this captain (this turn's is already in the cache); a known one
    // adds this turn's failures to its evidence, so pruning old episodes never makes a lesson forget its count.
    const history = new Map<string, { count: number; first: number }>();
    if ([...turnStats.keys()].some((key) => !existingByKey.has(key))) {
      for (const episode of ofKind('episode')) {
        for (const error of episodeErrors(episode.evidence)) {
          const key = lessonKey(error.code, error.tool);
          if (!turnStats.has(key) || existingByKey.has(key)) continue;
          const stat = history.get(key) ?? { count: 0, first: episode.createdAt };
          stat.count += 1;
          stat.first = Math.min(stat.first, episode.createdAt);
          history.set(key, stat);
        }
      }
    }
    const out: RecordTurnResult['lessons'] = [];
    for (const [key, stat] of turnStats) {
      const existing = existingByKey.get(key) ?? [];
      const previous = existing.map((item) => item.evidence).find((evidence) => evidence !== undefined);
      const count = previous ? previous.count + stat.count : (history.get(key)?.count ?? stat.count);
      if (count < LESSON_THRESHOLD) continue;
      const evidence: LessonEvidence = {
        key,
        code: stat.code,
        tool: stat.tool,
        count,
        firstSeen: previous?.firstSeen ?? history.get(key)?.first ?? at,
        lastSeen: at,
      };
      const args = stat.args ?? previous?.lastArgs;
      if (args) evidence.lastArgs = args;
      // The store has no update: the refreshed lesson replaces the old row(s), so there is only ever one per key.
      for (const old of existing) remove(old.record.id);
      const record = add({
        kind: 'lesson',
        text: lessonText(evidence),
        tags: [stat.code, stat.tool],
        outcome: 'failure',
        evidence,
        createdAt: at,
      });
      out.push({ id: record.id, key, count, created: existing.length === 0 });
    }
    return out;
  };

  /** Old episodes go once there are too many: lessons keep their own counts, and recent turns matter most. */
  const pruneEpisodes = (): void => {
    const episodes = entries().ofKind('episode');
    if (episodes.length <= EPISODES_KEPT + EPISODES_SLACK) return;
    const oldest = [...episodes].sort((a, b) => a.record.id - b.record.id).slice(0, episodes.length - EPISODES_KEPT);
    for (const entry of oldest) remove(entry.record.id);
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
        return args && !containsSecret(args, hidden)
          ? { tool: error.tool, code: error.code, args }
          : { tool: error.tool, code: error.code };
      });
      const facts: TurnFacts = {
        ...turn,
        actions,
        errors,
        ...(turn.goal !== undefined ? { goal: clean(turn.goal) } : {}),
      };
      const evidence = {
        outcome: turn.outcome,
        actions,
        errors,
        ...(turn.creditsBefore !== undefined ? { creditsBefore: turn.creditsBefore } : {}),
        ...(turn.creditsAfter !== undefined ? { creditsAfter: turn.creditsAfter } : {}),
        ...(turn.netWorthBefore !== undefined ? { netWorthBefore: turn.netWorthBefore } : {}),
        ...(turn.netWorthAfter !== undefined ? { netWorthAfter: turn.netWorthAfter } : {}),
      };
      const tags = [
        ...new Set([...actions, ...errors.map((error) => error.code), ...errors.map((error) => error.tool)]),
      ].slice(0, 12);
      const episode = add({
        kind: 'episode',
        text: clean(episodeText(facts)),
        tags,
        outcome: episodeOutcome(facts),
        evidence,
        createdAt: at,
      });
      const lessons = refreshLessons(facts, at);
      pruneEpisodes();
      return { episodeId: episode.id, lessons };
    },
    writeHandoff(text: string): HandoffResult {
      const trimmed = text.trim();
      if (trimmed === '') return { ok: false, reason: 'the handoff is empty' };
      if (containsSecret(trimmed, secrets()))
        return { ok: false, reason: 'the handoff contains a password, key or token; not stored' };
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

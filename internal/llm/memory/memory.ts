// createMemory: one captain's memory (game + username) over the store's memory rows, asynchronously. Keeps the parsed
// entries in a cache (the store is read once per captain, by load(); writes made here update the cache), serves the
// local tools, builds the prompt block from the cache (synchronously), writes episodes, lessons and handoffs one at a
// time, in order. Secrets are refused on the way in and filtered
// again on the way out, because the password may only become known after an entry was written.
import { z } from 'zod';
import type { LessonWording, ToolResult } from '../../shared/index.js';
import type { LocalTool } from '../dispatch.js';
import { clipArgs, episodeErrors, episodeOutcome, episodeText, isEventful } from './episode.js';
import { LESSON_THRESHOLD, isLessonWorthy, lessonKey, lessonText, type LessonEvidence } from './lessons.js';
import { EntryIndex } from './entry-index.js';
import { buildBlock, recallLine, searchEntries } from './retrieve.js';
import { containsSecret, redactSecrets } from './secrets.js';
import { MEMORY_TOOL_NAMES, memoryTools, type MemoryOperations } from './tools.js';
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
  /** Told of each background write (a touch) that failed, once per failure; by default they are ignored. */
  onWriteError?: (error: unknown) => void;
  /** The game's lesson wordings (its guide's), asked when a lesson is written; Skipper's generic ones otherwise. */
  lessons?: () => LessonWordings | undefined;
}

type LessonWordings = Readonly<Record<string, LessonWording>>;

/** Background writes (touches): tracked so `settled()` can wait for them, failures reported and never unhandled. */
interface BackgroundWrites {
  track(write: () => Promise<unknown>): void;
  settled(): Promise<void>;
}

function backgroundWrites(onError: (error: unknown) => void): BackgroundWrites {
  const pending = new Set<Promise<void>>();
  const report = (error: unknown): void => {
    try {
      onError(error);
    } catch {
      // A reporter that throws must not turn a failed write into an unhandled rejection.
    }
  };
  return {
    track(write) {
      let started: Promise<unknown>;
      try {
        started = write();
      } catch (error) {
        started = Promise.reject(error);
      }
      const done: Promise<void> = started
        .then(() => undefined, report)
        .then(() => {
          pending.delete(done);
        });
      pending.add(done);
    },
    async settled() {
      await Promise.all([...pending]);
    },
  };
}

/** One at a time: the writes of a turn, a handoff or a tool call never interleave with another's (lesson dedup). */
function serialQueue(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** The parsed entries of one captain, cached over the port: every write goes through here so the cache stays true. */
interface CaptainEntries {
  /** Reads the captain's entries into the cache once; concurrent callers share the read. */
  load(): Promise<void>;
  /** Reads them again (writes made elsewhere). */
  reload(): Promise<void>;
  /** The cache; empty until the first read resolved. */
  index(): EntryIndex;
  add(input: Omit<MemoryRecordInput, 'captain'>): Promise<MemoryRecord>;
  remove(id: number): Promise<boolean>;
  /** Marks entries used in the cache now and in the store in the background. */
  touch(ids: number[]): void;
  ofKind(kind: MemoryRecord['kind']): MemoryRecord[];
}

/** The cache of one captain's rows and its reads: the latest read wins, and writes made while it runs are replayed. */
function entryCache(port: MemoryPort, captain: string, now: () => number) {
  let cache: EntryIndex | undefined;
  let reading: Promise<void> | undefined;
  let generation = 0;
  let replay: Array<(index: EntryIndex) => void> = [];
  const read = (): Promise<void> => {
    const mine = ++generation;
    replay = [];
    // list() is per captain: another captain's rows never enter this cache.
    const promise = port.list(captain).then(
      (records): Promise<void> | undefined => {
        // A later read (refresh) supersedes this one: its callers wait for that one.
        if (mine !== generation) return reading;
        const fresh = new EntryIndex(records, now());
        for (const step of replay) step(fresh);
        cache = fresh;
        replay = [];
        reading = undefined;
        return undefined;
      },
      (error: unknown): Promise<void> | undefined => {
        if (mine !== generation) return reading;
        reading = undefined;
        replay = [];
        throw error;
      },
    );
    reading = promise.then(() => undefined);
    return reading;
  };
  return {
    load: (): Promise<void> => (cache ? Promise.resolve() : (reading ?? read())),
    reload: read,
    index: (): EntryIndex => cache ?? new EntryIndex([], now()),
    /** A change to the cache, applied now and again to a read still under way (the row may predate its answer). */
    apply(step: (index: EntryIndex) => void): void {
      if (cache) step(cache);
      if (reading) replay.push(step);
    },
    touched(ids: readonly number[], at: number): void {
      for (const id of ids) cache?.touched(id, at);
    },
  };
}

function captainEntries(
  port: MemoryPort,
  captain: string,
  now: () => number,
  background: BackgroundWrites,
): CaptainEntries {
  const cached = entryCache(port, captain, now);
  return {
    load: cached.load,
    reload: cached.reload,
    index: cached.index,
    async add(input) {
      const record = await port.add({ ...input, captain, createdAt: input.createdAt ?? now() });
      cached.apply((index) => index.put(record));
      return record;
    },
    async remove(id) {
      const drop = (index: EntryIndex): void => void index.delete(id);
      cached.apply(drop);
      const removed = await port.remove(id);
      cached.apply(drop);
      return removed;
    },
    touch(ids) {
      if (ids.length === 0) return;
      cached.touched(ids, now());
      background.track(() => port.touch(ids));
    },
    ofKind(kind) {
      return cached
        .index()
        .ofKind(kind)
        .map((entry) => entry.record);
    },
  };
}

interface MemoryOperationsOptions {
  entries: CaptainEntries;
  port: MemoryPort;
  captain: string;
  secrets: () => string[];
  now: () => number;
  /** The captain's write queue: remember and forget wait their turn. */
  serial: <T>(work: () => Promise<T>) => Promise<T>;
}

/** What the memory tools (remember, recall, forget) do, answered as the model reads it. */
function memoryOperations(options: MemoryOperationsOptions): MemoryOperations {
  const { entries, port, captain, secrets, now, serial } = options;
  return {
    remember: (text, tags) => serial(() => remember(entries, secrets, text, tags)),
    async recall(query: string): Promise<ToolResult> {
      await entries.load();
      const found = searchEntries({
        index: entries.index(),
        query,
        now: now(),
        limit: RECALL_LIMIT,
        secrets: secrets(),
      });
      if (found.length === 0) return { text: `Nothing in memory matches "${query}".`, isError: false };
      entries.touch(found.map((record) => record.id));
      const lines = found.map((record) => recallLine(record, now()));
      return { text: `${found.length} match${found.length === 1 ? '' : 'es'}:\n${lines.join('\n')}`, isError: false };
    },
    forget: (id) =>
      serial(async (): Promise<ToolResult> => {
        await entries.load();
        const record = entries.index().get(id)?.record ?? (await port.get(id));
        // Another captain's entry is answered exactly like a missing one: its existence is not this captain's business.
        if (!record || record.captain !== captain) {
          return { text: `forget: there is no memory #${id}; recall shows the ids`, isError: true, code: 'not_found' };
        }
        await entries.remove(id);
        return { text: `Forgot #${id} (${record.kind}) for good.`, isError: false };
      }),
  };
}

/** The remember tool: refuses secrets, answers a note already kept with its id, else stores it. */
async function remember(
  entries: CaptainEntries,
  secrets: () => string[],
  text: string,
  tags: string[],
): Promise<ToolResult> {
  if (containsSecret(`${text} ${tags.join(' ')}`, secrets())) {
    return {
      text: 'remember refused: the note contains a password, key or token. Secrets are never stored; write the note without it.',
      isError: true,
      code: 'refused',
    };
  }
  await entries.load();
  const same = entries.ofKind('note').find((note) => note.text.trim().toLowerCase() === text.trim().toLowerCase());
  if (same) return { text: `Already remembered as #${same.id}.`, isError: false };
  const record = await entries.add({ kind: 'note', text, tags });
  return {
    text: `Remembered as #${record.id}. It will be offered to you in later sessions when it matters.`,
    isError: false,
  };
}

interface TurnFailure {
  code: string;
  tool: string;
  count: number;
  args?: string;
}

interface KnownLesson {
  record: MemoryRecord;
  evidence: LessonEvidence | undefined;
}

/** This turn's lesson-worthy failures by lesson key, with how often and the last arguments. */
function failuresOfTurn(turn: TurnFacts): Map<string, TurnFailure> {
  const failures = new Map<string, TurnFailure>();
  for (const error of turn.errors) {
    if (!isLessonWorthy(error.code)) continue;
    const key = lessonKey(error.code, error.tool);
    const failure = failures.get(key) ?? { code: error.code, tool: error.tool, count: 0 };
    failure.count += 1;
    if (error.args) failure.args = error.args;
    failures.set(key, failure);
  }
  return failures;
}

/** The lessons already stored for the keys this turn failed on. */
function knownLessons(lessons: MemoryRecord[], failures: Map<string, TurnFailure>): Map<string, KnownLesson[]> {
  const known = new Map<string, KnownLesson[]>();
  for (const lesson of lessons) {
    const evidence = lessonEvidence(lesson.evidence);
    const key = evidence?.key;
    if (key === undefined || !failures.has(key)) continue;
    known.set(key, [...(known.get(key) ?? []), { record: lesson, evidence }]);
  }
  return known;
}

/** How often, and since when, each failure with no lesson yet shows in this captain's episodes. */
function failureHistory(
  episodes: MemoryRecord[],
  failures: Map<string, TurnFailure>,
  known: Map<string, KnownLesson[]>,
): Map<string, { count: number; first: number }> {
  const history = new Map<string, { count: number; first: number }>();
  if (![...failures.keys()].some((key) => !known.has(key))) return history;
  for (const episode of episodes) {
    for (const error of episodeErrors(episode.evidence)) {
      const key = lessonKey(error.code, error.tool);
      if (!failures.has(key) || known.has(key)) continue;
      const seen = history.get(key) ?? { count: 0, first: episode.createdAt };
      seen.count += 1;
      seen.first = Math.min(seen.first, episode.createdAt);
      history.set(key, seen);
    }
  }
  return history;
}

/**
 * Lessons from this turn's failures. A new lesson counts over every episode of this captain (this turn's is already
 * in the cache); a known one adds this turn's failures to its evidence, so pruning old episodes never makes a lesson
 * forget its count.
 */
async function refreshLessons(
  entries: CaptainEntries,
  turn: TurnFacts,
  moment: { at: number; wordings: LessonWordings | undefined },
): Promise<RecordTurnResult['lessons']> {
  const { at } = moment;
  const failures = failuresOfTurn(turn);
  if (failures.size === 0) return [];
  const known = knownLessons(entries.ofKind('lesson'), failures);
  const history = failureHistory(entries.ofKind('episode'), failures, known);
  const out: RecordTurnResult['lessons'] = [];
  for (const [key, failure] of failures) {
    const existing = known.get(key) ?? [];
    const previous = existing.map((item) => item.evidence).find((evidence) => evidence !== undefined);
    const count = previous ? previous.count + failure.count : (history.get(key)?.count ?? failure.count);
    if (count < LESSON_THRESHOLD) continue;
    const evidence: LessonEvidence = {
      key,
      code: failure.code,
      tool: failure.tool,
      count,
      firstSeen: previous?.firstSeen ?? history.get(key)?.first ?? at,
      lastSeen: at,
    };
    const args = failure.args ?? previous?.lastArgs;
    if (args) evidence.lastArgs = args;
    // The store has no update: the refreshed lesson replaces the old row(s), so there is only ever one per key.
    for (const old of existing) await entries.remove(old.record.id);
    const record = await entries.add({
      kind: 'lesson',
      text: lessonText(evidence, moment.wordings),
      tags: [failure.code, failure.tool],
      outcome: 'failure',
      evidence,
      createdAt: at,
    });
    out.push({ id: record.id, key, count, created: existing.length === 0 });
  }
  return out;
}

/** Old episodes go once there are too many: lessons keep their own counts, and recent turns matter most. */
async function pruneEpisodes(entries: CaptainEntries): Promise<void> {
  const episodes = entries.index().ofKind('episode');
  if (episodes.length <= EPISODES_KEPT + EPISODES_SLACK) return;
  const oldest = [...episodes].sort((a, b) => a.record.id - b.record.id).slice(0, episodes.length - EPISODES_KEPT);
  for (const entry of oldest) await entries.remove(entry.record.id);
}

/** A turn as it is stored: memory tools left out of the actions, secrets out of the goal and the error arguments. */
function episodeOfTurn(turn: TurnFacts, hidden: string[]): Omit<MemoryRecordInput, 'captain'> & { facts: TurnFacts } {
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
  return {
    facts,
    kind: 'episode',
    text: clean(episodeText(facts)),
    tags,
    outcome: episodeOutcome(facts),
    evidence,
  };
}

export function createMemory(options: CreateMemoryOptions): CaptainMemory {
  const { port, captain } = options;
  const now = options.now ?? Date.now;
  const budgetTokens = options.budgetTokens ?? DEFAULT_MEMORY_BUDGET;
  const secrets = (): string[] => options.secrets().filter((secret) => secret.length > 0);
  const background = backgroundWrites(options.onWriteError ?? (() => undefined));
  const entries = captainEntries(port, captain, now, background);
  const serial = serialQueue();
  const operations = memoryOperations({ entries, port, captain, secrets, now, serial });

  const preview = (context: MemoryContext): BlockReport =>
    buildBlock({
      index: entries.index(),
      ...(context.goal !== undefined ? { goal: context.goal } : {}),
      ...(context.recentText !== undefined ? { recentText: context.recentText } : {}),
      budgetTokens,
      secrets: secrets(),
      now: now(),
    });

  return {
    captain,
    budgetTokens,
    load: () => entries.load(),
    localTools(): LocalTool[] {
      return memoryTools(operations);
    },
    block(context: MemoryContext): string {
      const built = preview(context);
      entries.touch(built.ids);
      return built.text;
    },
    preview,
    async recordTurn(turn: TurnFacts): Promise<RecordTurnResult> {
      if (!isEventful(turn)) return { lessons: [] };
      const at = now();
      return serial(() => recordEventfulTurn(entries, turn, secrets(), { at, wordings: options.lessons?.() }));
    },
    writeHandoff: (text: string) => serial(() => writeHandoff(entries, text, secrets())),
    entries(): MemoryRecord[] {
      return [...entries.index().values()].map((entry) => entry.record).sort((a, b) => a.id - b.id);
    },
    refresh: () => entries.reload(),
    settled: () => background.settled(),
  };
}

/** An eventful turn: its episode, the lessons its failures complete, and old episodes pruned, in that order. */
async function recordEventfulTurn(
  entries: CaptainEntries,
  turn: TurnFacts,
  hidden: string[],
  moment: { at: number; wordings: LessonWordings | undefined },
): Promise<RecordTurnResult> {
  const { at } = moment;
  await entries.load();
  const { facts, ...episodeInput } = episodeOfTurn(turn, hidden);
  const episode = await entries.add({ ...episodeInput, createdAt: at });
  const lessons = await refreshLessons(entries, facts, moment);
  await pruneEpisodes(entries);
  return { episodeId: episode.id, lessons };
}

/** The handoff stored (clean and not empty), and the handoffs beyond the latest few removed. */
async function writeHandoff(entries: CaptainEntries, text: string, hidden: string[]): Promise<HandoffResult> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'the handoff is empty' };
  if (containsSecret(trimmed, hidden))
    return { ok: false, reason: 'the handoff contains a password, key or token; not stored' };
  await entries.load();
  const record = await entries.add({ kind: 'handoff', text: trimmed.slice(0, HANDOFF_MAX_CHARS) });
  const handoffs = entries.ofKind('handoff').sort((a, b) => b.id - a.id);
  for (const old of handoffs.slice(HANDOFFS_KEPT)) await entries.remove(old.id);
  return { ok: true, id: record.id };
}

// Putting a session together: history (persisted through the store, windowed in memory), the captain's memory, the
// session runner and the memory hooks on turn ends. One piece of code for live play (cmd/wire.ts) and benchmarks
// (internal/bench), so both play the same game the same way.
import { buildSystemPrompt, createHistory, type History, type LocalTool } from '../llm/index.js';
import type { Game, Logger, Provider, ToolSpec, Usage } from '../shared/index.js';
import type { Session, Store } from '../store/index.js';
import { wireCaptainMemory, type CaptainMemoryWiring } from './memory-session.js';
import type { RequestLogPort } from './request-log.js';
import { RequestSerializer } from './request-serializer.js';
import { writeWhenUp } from './store-wait.js';
import { SessionRunner, type RunnerStore } from './runner.js';

/** Messages kept in memory per session, and turns loaded on resume: far more than any context window reaches. */
export const HISTORY_WINDOW = 2000;
export const HISTORY_TURNS_LOADED = 200;

/** The runner's store port over the SQLite store (with the request log the runner's turns record into). */
export function runnerStoreFor(store: Store): RunnerStore & RequestLogPort {
  const serializer = new RequestSerializer();
  return {
    recordRequest: (row) => store.requests.recordSoon(row),
    serializeRequest: (messages, tools) => serializer.serialize(messages, tools),
    recordUsage: (row) => writeWhenUp(store, () => store.recordUsage(row)),
    recordSnapshot: async ({ sessionId, turn, state }) => {
      if (state.credits === undefined) return;
      const snapshot = {
        sessionId,
        turn,
        tick: state.tick ?? 0,
        credits: state.credits,
        netWorth: state.netWorth ?? state.credits,
        fuel: state.fuel ?? 0,
        maxFuel: state.maxFuel ?? 0,
        cargoUsed: state.cargoUsed ?? 0,
        cargoCapacity: state.cargoCapacity ?? 0,
        hull: state.hull ?? 0,
        maxHull: state.maxHull ?? 0,
        systemId: state.systemId ?? null,
        poiId: state.poiId ?? null,
        docked: state.docked ?? false,
      };
      await writeWhenUp(store, () => store.recordSnapshot(snapshot));
    },
    recordTurn: (row) => writeWhenUp(store, () => store.recordTurn(row)),
  };
}

export interface SessionSetup {
  runner: SessionRunner;
  history: History;
  /** Undefined when memory is off. */
  memory: CaptainMemoryWiring | undefined;
  /** The local tools the runner offers (the same array: add to it to offer more). */
  localTools: LocalTool[];
}

/** What a session is set up from: its store row, provider, game and tools, and how it plays. */
export interface SessionSetupOptions {
  store: Store;
  session: Session;
  provider: Provider;
  game: Game;
  tools: ToolSpec[];
  gameLabel: string;
  goal: () => string | undefined;
  maxRounds: number;
  contextTokens?: number;
  logger: Logger;
  /** Secrets besides the stored passwords (API keys) that memory must never keep or show. */
  secrets?: readonly string[];
  memory?: boolean;
  /** Resume: load the recent part of the stored transcript, count turns and usage from the store. */
  resume?: boolean;
  /** The game's tick now (see TickClock), stamped on states whose text does not say it. */
  tick?: () => number | undefined;
  /** The tick is Skipper's estimate, not the game's. */
  tickEstimated?: boolean;
  /** Reads the game's tick again (TickClock.refresh), before a status asked between turns. */
  refreshTick?: (signal?: AbortSignal) => Promise<void>;
  /** Local tools besides memory's (planner mode's set_plan). */
  localTools?: LocalTool[];
  /** A block for the system prompt after memory's, asked afresh every turn (a fleet's shared knowledge). */
  extraBlock?: () => string | undefined;
  /** Awaited before each turn writes anything (a draft session's row is stored then). */
  beforeTurn?: () => Promise<void>;
}

/** Sets a session up; on resume, reads its recent transcript, turn count and usage from the store first. A message
 * is stored before the turn goes on (rule 13): each append is awaited — the store may commit a fleet's appends of one
 * event-loop turn together (its own choice, SqliteStore's groupRecords). */
export async function setUpSession(options: SessionSetupOptions): Promise<SessionSetup> {
  const { store, session, game } = options;
  const turnsSoFar = options.resume ? await store.lastTurn(session.id) : 0;
  const totals = options.resume ? await store.usageTotals(session.id) : undefined;
  const initial = options.resume
    ? await store.messages(session.id, { fromTurn: Math.max(1, turnsSoFar - HISTORY_TURNS_LOADED) })
    : undefined;
  await store.credentials.refresh();
  // eslint-disable-next-line prefer-const
  let runner: SessionRunner;
  const history = createHistory({
    ...(initial ? { initial } : {}),
    window: HISTORY_WINDOW,
    persist: async (message) => {
      await store.append(session.id, message);
      runner?.emit({ type: 'message-stored', message });
    },
  });
  const memory =
    options.memory === false
      ? undefined
      : wireCaptainMemory({
          port: store.memory,
          onWriteError: (error) =>
            options.logger.warn(
              { error: error instanceof Error ? error.message : String(error) },
              'captain memory: a write failed',
            ),
          gameLabel: options.gameLabel,
          username: () => game.username(),
          secrets: () => [...store.credentials.passwordList(), ...(options.secrets ?? [])],
          messages: () => history.snapshot(),
          tools: options.tools,
          goal: options.goal,
          guide: () => game.guide?.(),
        });
  // The store's totals are a Usage (plus call counts the runner ignores).
  const usageSoFar: Usage | undefined = totals;
  // One live list: planner mode switched on in chat adds set_plan to it.
  const localTools: LocalTool[] = [...(memory ? memory.localTools() : []), ...(options.localTools ?? [])];
  runner = new SessionRunner({
    ...(memory || options.extraBlock ? { memoryBlock: () => promptBlocks(memory, options.extraBlock) } : {}),
    localTools,
    sessionId: session.id,
    sessionName: session.name,
    store: runnerStoreFor(store),
    history,
    provider: options.provider,
    game,
    tools: options.tools,
    systemPrompt: () => {
      const goal = options.goal();
      return buildSystemPrompt({ game: game.guide?.(), ...(goal ? { goal } : {}) });
    },
    maxRounds: options.maxRounds,
    ...(options.contextTokens ? { contextTokens: options.contextTokens } : {}),
    logger: options.logger.child({ session: session.name }),
    turnsSoFar,
    ...(usageSoFar ? { usageSoFar } : {}),
    ...(options.tick ? { tick: options.tick } : {}),
    ...(options.tickEstimated ? { tickEstimated: true } : {}),
    ...(options.refreshTick ? { refreshTick: options.refreshTick } : {}),
    ...(options.beforeTurn ? { beforeTurn: options.beforeTurn } : {}),
  });
  if (memory) recordEpisodes(runner, memory, options.logger);
  return { runner, history, memory, localTools };
}

/** Memory's block and the extra one (either may be absent), as one block of the system prompt. */
async function promptBlocks(
  memory: CaptainMemoryWiring | undefined,
  extra: (() => string | undefined) | undefined,
): Promise<string | undefined> {
  const blocks = [await memory?.memoryBlock(), extra?.()].filter((block): block is string => Boolean(block));
  return blocks.length > 0 ? blocks.join('\n\n') : undefined;
}

/** An episode per turn (and lessons from repeated failures), written by code from the states around the turn. */
function recordEpisodes(runner: SessionRunner, memory: CaptainMemoryWiring, logger: Logger): void {
  let stateAtTurnStart = runner.state;
  runner.on((event) => {
    if (event.type === 'turn-start') stateAtTurnStart = runner.state;
    if (event.type === 'turn-end') {
      memory
        .turnEnded({
          turn: event.summary.turn,
          outcome: event.summary.outcome,
          ...(stateAtTurnStart ? { before: stateAtTurnStart } : {}),
          ...(runner.state ? { after: runner.state } : {}),
        })
        .catch((error: unknown) => {
          // The turn is played and stored; only what memory would learn from it is lost.
          logger.warn(
            { error: error instanceof Error ? error.message : String(error) },
            'could not record the episode',
          );
        });
    }
  });
}

// The session runner: one turn at a time per session (single flight), each turn run by the agent loop, its usage,
// snapshot and outcome recorded in the store, and every event handed to the watchers (a turn's events as they are).
import type { History, LocalTool, TokenCounter, TurnEvent, TurnInput, TurnOptions, TurnResult } from '../llm/index.js';
import { drainEvents, runTurnEvents, tokenCounterFor } from '../llm/index.js';
import type { Game, Logger, Message, Provider, ToolCall, ToolSpec, Usage } from '../shared/index.js';
import { SkipperError, addUsage, emptyUsage, isAbortError, scopedSignal } from '../shared/index.js';
import { detectFace, toFaceCall } from '../spacemolt/index.js';
import { type GameState, latestState, stateFromMessage } from './game-state.js';
import { ShipPicture, pictureOf } from './ship-picture.js';
import { PriceBook } from './price-book.js';
import type { RunnerEvent, RunnerListener, TurnSummary } from './events.js';
import { recordRequests } from './request-log.js';
import { repairDanglingToolCalls } from '../store/index.js';

/** What the runner needs from the store (the SQLite store satisfies it; tests may pass a fake). */
export interface RunnerStore {
  recordUsage(row: {
    sessionId: string;
    turn: number;
    round: number;
    model: string;
    usage: Usage;
    latencyMs: number;
  }): Promise<void>;
  recordSnapshot(row: { sessionId: string; turn: number; state: GameState }): Promise<void>;
  recordTurn(row: {
    sessionId: string;
    turn: number;
    outcome: TurnResult['outcome'];
    rounds: number;
    toolCalls: number;
    inputKind: TurnInput['kind'];
    startedAt: number;
    endedAt: number;
  }): Promise<void>;
}

export type { TurnInput };

/** How one turn is run: the caller's signal, what it may spend, and when it must stop. */
export interface RunOptions {
  signal?: AbortSignal;
  budget?: { tokens?: number; usd?: number };
  limit?: () => string | undefined;
  /** Offer the model no tools and let no call reach the game (Skipper's own steps, e.g. the handoff note). */
  noTools?: boolean;
  /** Who plays this one turn (planner mode: the flier, or the model woken); default the session's model. */
  provider?: Provider;
}

export interface RunnerOptions {
  sessionId: string;
  sessionName: string;
  store: RunnerStore;
  history: History;
  provider: Provider;
  game: Game;
  tools: ToolSpec[];
  localTools?: LocalTool[];
  systemPrompt: () => string;
  memoryBlock?: () => Promise<string | undefined>;
  maxRounds: number;
  contextTokens?: number;
  logger: Logger;
  /** Turns already in the session (resume). */
  turnsSoFar?: number;
  usageSoFar?: Usage;
  /** The game's tick now, when known: SpaceMolt's text never says it, so states are stamped from this clock. */
  tick?: () => number | undefined;
  /** The clock is Skipper's own estimate (elapsed time over the tick length), not the game's tick. */
  tickEstimated?: boolean;
  /** Reads the game's tick again (TickClock.refresh; never throws): refreshState's answer is stamped with it. */
  refreshTick?: (signal?: AbortSignal) => Promise<void>;
  /** Awaited before each turn writes anything (a draft session's row is stored here before its first turn). */
  beforeTurn?: () => Promise<void>;
}

export class SessionRunner {
  readonly sessionId: string;
  readonly sessionName: string;
  /** The session's model: changed only through useModel (the Captain's, internal/session/captain.ts). */
  private model: Provider;
  /** Who played the last turn (planner mode: the flier or the model); cleared when the model changes. */
  private lastPlayer: Provider | undefined;
  private readonly options: RunnerOptions;
  private readonly listeners = new Set<RunnerListener>();
  private running: Promise<TurnResult> | undefined;
  /** A turn is past the busy check and awaiting beforeTurn. */
  private starting = false;
  /** The last turn threw (a store that went away mid-turn): its open tool calls are answered before the next. */
  private mayDangle = false;
  /** How far the running turn got: what a turn that throws is stored with. */
  private progress = { rounds: 0, toolCalls: 0 };
  private turnNumber: number;
  private totals: Usage;
  private current: GameState | undefined;
  /** The ship fact by fact, on SpaceMolt's faces (ship-picture.ts); a game without a face is read message by message. */
  private readonly picture: ShipPicture | undefined;
  /** The market bids seen in this session: net worth is priced with them (price-book.ts). */
  private readonly prices = new PriceBook();
  /** Said to the model at the start of the next turn (loop guard nudges). */
  private nudge: string | undefined;
  /** The state a run (autoplay) starts from, stored as the snapshot before its first turn once the row exists. */
  private startPoint: { turn: number; tick: number | undefined; state?: GameState } | undefined;
  private turnsRun = 0;
  /** Records handed to the store and not yet written: a turn ends once its own are (settled()). */
  private readonly writes = new Set<Promise<void>>();
  /** The model's token counter, kept across turns (it caches counts) and chosen again only if the model changes. */
  private tokens: { modelId: string; counter: TokenCounter } | undefined;

  constructor(options: RunnerOptions) {
    this.options = options;
    this.sessionId = options.sessionId;
    this.sessionName = options.sessionName;
    this.model = options.provider;
    this.turnNumber = options.turnsSoFar ?? 0;
    this.totals = options.usageSoFar ?? emptyUsage();
    const face = detectFace(options.tools);
    const messages = options.history.snapshot();
    if (face) {
      this.picture = pictureOf(messages, face, this.prices);
      this.current = this.picture.state(this.prices);
    } else this.current = latestState(messages, this.prices);
  }

  /** The session's model (what chat talks to, what a handoff asks). */
  get provider(): Provider {
    return this.model;
  }

  /** Who played the last turn: in planner mode the flier (the autopilot) or the model woken; else the model. */
  get player(): Provider {
    return this.lastPlayer ?? this.model;
  }

  /** The session's model from the next turn on (the Captain's useModel is the one caller). */
  useModel(provider: Provider): void {
    this.model = provider;
    this.lastPlayer = undefined;
  }

  // The provider may be swapped between turns (/model, planner mode): the counter follows its model id.
  private tokenCounter(): TokenCounter {
    if (this.tokens?.modelId !== this.player.id)
      this.tokens = { modelId: this.player.id, counter: tokenCounterFor(this.player.id) };
    return this.tokens.counter;
  }

  /** The system prompt the next request would carry (its words; the context adds memory and the state line). */
  get systemPrompt(): string {
    return this.options.systemPrompt();
  }
  get busy(): boolean {
    return this.running !== undefined || this.starting;
  }
  get turns(): number {
    return this.turnNumber;
  }
  get usage(): Usage {
    return this.totals;
  }
  get state(): GameState | undefined {
    return this.current;
  }
  get history(): History {
    return this.options.history;
  }

  on(listener: RunnerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: RunnerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.options.logger.warn({ error: String(error) }, 'runner listener failed');
      }
    }
  }

  /** A new state: merged into the last (a game read message by message), or the whole picture (`replace`). */
  setState(state: GameState, options: { replace?: boolean } = {}): void {
    const stamped = state.tick === undefined ? this.options.tick?.() : undefined;
    const tick = state.tick ?? stamped;
    this.current = {
      ...(options.replace ? {} : this.current),
      ...state,
      ...(tick !== undefined ? { tick } : {}),
      ...(stamped !== undefined && this.options.tickEstimated ? { tickEstimated: true } : {}),
    };
    if (this.startPoint && !this.startPoint.state) this.startPoint.state = { ...this.current };
    this.emit({ type: 'state', state: this.current });
  }

  /**
   * Marks where a run starts: the current state (or, when the captain is not logged in yet, the first state seen)
   * at `tick` is stored as the snapshot of the turn before the run's first, so every view measures from it.
   */
  markStart(tick?: number): void {
    this.startPoint = {
      turn: this.turnNumber,
      tick: tick ?? this.current?.tick,
      ...(this.current ? { state: { ...this.current } } : {}),
    };
  }

  /** After a run: its last turn's snapshot becomes the state the run ended in (refreshed after the last turn). */
  async recordEndSnapshot(): Promise<void> {
    this.flushStart();
    if (this.turnsRun > 0 && this.current)
      this.write('the end snapshot', () =>
        this.options.store.recordSnapshot({ sessionId: this.sessionId, turn: this.turnNumber, state: this.current! }),
      );
    await this.settled();
  }

  /** Resolves once every record handed to the store so far is written (a failed one was logged, once each). */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  /** A record for the store, written in the background (the turn goes on; its end waits for settled()). A failure
   * is a warning: the transcript (appended through the history, which the turn awaits) is what must not be lost. */
  private write(what: string, record: () => Promise<void>): void {
    const tracked: Promise<void> = Promise.resolve()
      .then(record)
      .catch((error: unknown) => {
        this.options.logger.warn(
          { error: error instanceof Error ? error.message : String(error) },
          `could not record ${what}`,
        );
      })
      .finally(() => this.writes.delete(tracked));
    this.writes.add(tracked);
  }

  private flushStart(): void {
    const start = this.startPoint;
    if (!start?.state || this.turnsRun === 0) return;
    this.startPoint = undefined;
    const state = start.tick !== undefined ? { ...start.state, tick: start.tick } : start.state;
    this.write('the start snapshot', () =>
      this.options.store.recordSnapshot({ sessionId: this.sessionId, turn: start.turn, state }),
    );
  }

  /** Why the last refreshState kept the old state, with the game's error code when it answered one; undefined when it refreshed. */
  refreshProblem: { reason: string; code?: string } | undefined;

  /** Asks the game for its status without involving the model (queries are free). */
  async refreshState(signal?: AbortSignal): Promise<GameState | undefined> {
    const status = statusCallOf(this.options.game, this.options.tools);
    this.refreshProblem = { reason: 'the game has no get_status' };
    if (!status || !this.options.tools.some((tool) => tool.name === status.name)) return this.current;
    try {
      // Between turns nothing else reads the clock: without this the answer was stamped with the tick of the last turn.
      await this.options.refreshTick?.(signal);
      // Asked afresh: the game's state moves on its own (a travel cut off mid-way still arrives), and this is a
      // person's question, not the captain's.
      const result = await this.options.game.call(status.name, status.args, {
        fresh: true,
        ...(signal ? { signal } : {}),
      });
      const message = {
        id: '',
        role: 'tool' as const,
        content: result.text,
        ...(result.data !== undefined ? { data: result.data } : {}),
        ...(result.isError ? { isError: true } : {}),
        createdAt: Date.now(),
      };
      const state = result.isError ? undefined : this.learnState(undefined, message);
      // A fresh answer is a fresh state, even when it says nothing new: stamped now, not left as of an older tick.
      if (state) this.setState(state, { replace: true });
      if (state) this.refreshProblem = undefined;
      else if (!result.isError) this.refreshProblem = { reason: 'the answer had no status' };
      else
        this.refreshProblem = {
          reason: `the game answered ${result.code ?? 'an error'}`,
          ...(result.code ? { code: result.code } : {}),
        };
    } catch (error) {
      this.refreshProblem = { reason: 'the game did not answer' };
      if (!isAbortError(error)) this.options.logger.warn({ error: String(error) }, 'get_status failed');
    }
    return this.current;
  }

  /** Runs one turn. Refuses to start a second one while one runs (rule 6: single flight). */
  async run(input: TurnInput, options: RunOptions = {}): Promise<TurnSummary> {
    if (this.busy) throw new SkipperError('busy', 'a turn is already running');
    if (this.options.beforeTurn || this.mayDangle) {
      this.starting = true;
      try {
        await this.options.beforeTurn?.();
        await this.answerOpenCalls();
      } finally {
        this.starting = false;
      }
    }
    const turn = ++this.turnNumber;
    const startedAt = Date.now();
    this.lastPlayer = options.provider;
    // The turn gets its own signal, tied to the caller's (autoplay's lives for the whole run) and released when the
    // turn ends: libraries that leave an abort listener behind on each request then leave it on this one.
    const scoped = options.signal ? scopedSignal(options.signal) : undefined;
    const signal = scoped?.signal;
    const text = this.nudge ? `${input.text}\n\nNote from your last turn: ${this.nudge}` : input.text;
    this.nudge = undefined;
    this.emit({ type: 'turn-start', turn, input: { kind: input.kind, text } });
    // The session's row exists from here on (a new session is written with its first turn).
    this.turnsRun += 1;
    this.flushStart();
    const dead = (): boolean => signal?.aborted === true;
    const logger = this.options.logger.child({ turn });
    // The turn binds `turn` to its own log lines (openTurn): handed the bound logger, every line said it twice.
    const turnOptions = this.turnOptions({
      turn,
      text,
      kind: input.kind,
      logger: this.options.logger,
      signal,
      run: options,
    });
    // Set before anything is awaited (single flight); the memory block is read inside the turn, so a store that
    // fails it fails the turn like any other step.
    this.running = turnOptions.then((ready) =>
      drainEvents(runTurnEvents(ready), (event) => {
        try {
          this.onTurnEvent(turn, event, dead);
        } catch (error) {
          // The turn goes on: a failed bookkeeping step must not leave its tool calls unanswered.
          logger.warn(
            { event: event.type, error: error instanceof Error ? error.message : String(error) },
            'event listener failed',
          );
        }
      }),
    );
    let result: TurnResult;
    try {
      result = await this.failedIfThrown(this.running, turn, input.kind, startedAt);
    } finally {
      this.running = undefined;
      scoped?.dispose();
    }
    if (result.nudge) this.nudge = result.nudge;
    const summary = this.recordTurnEnd({ turn, inputKind: input.kind, startedAt }, result);
    await this.settled();
    this.emit({ type: 'turn-end', summary });
    return summary;
  }

  /** What the agent loop is given for one turn: this session's provider, game, history and limits. */
  private async turnOptions(turnInput: {
    turn: number;
    text: string;
    kind: TurnInput['kind'];
    logger: Logger;
    signal: AbortSignal | undefined;
    run: RunOptions;
  }): Promise<TurnOptions> {
    const { turn, text, logger, signal, run: options } = turnInput;
    const memoryBlock = await this.options.memoryBlock?.();
    return {
      provider: recordRequests(this.player, { store: this.options.store, sessionId: this.sessionId, turn }),
      game: options.noTools ? NO_GAME : this.options.game,
      tools: options.noTools ? [] : this.options.tools,
      history: this.options.history,
      input: { kind: turnInput.kind, text },
      systemPrompt: this.options.systemPrompt(),
      ...statusToolOf(this.options.game),
      maxRounds: this.options.maxRounds,
      logger,
      turn,
      ...(memoryBlock ? { memoryBlock } : {}),
      ...(this.options.localTools && !options.noTools ? { localTools: this.options.localTools } : {}),
      ...(this.options.contextTokens ? { contextTokens: this.options.contextTokens } : {}),
      tokenCounter: this.tokenCounter(),
      ...(signal ? { signal } : {}),
      ...(options.budget ? { budget: { ...options.budget, spent: this.totals } } : {}),
      ...(options.limit ? { limit: options.limit } : {}),
    };
  }

  /** A finished turn: its usage added to the session's, its row and snapshot stored, its summary made. */
  private recordTurnEnd(
    started: { turn: number; inputKind: TurnInput['kind']; startedAt: number },
    result: TurnResult,
  ): TurnSummary {
    const { turn, inputKind, startedAt } = started;
    const endedAt = Date.now();
    this.totals = addUsage(this.totals, result.usage);
    const summary: TurnSummary = {
      turn,
      outcome: result.outcome,
      rounds: result.rounds,
      toolCalls: result.toolCalls,
      failedToolCalls: result.failedToolCalls,
      usage: result.usage,
      errorsByCode: result.errorsByCode,
      durationMs: endedAt - startedAt,
      ...(result.answer !== undefined ? { answer: result.answer } : {}),
      ...(result.error !== undefined ? { error: result.error } : {}),
    };
    const { sessionId } = this;
    this.write('the turn', () =>
      this.options.store.recordTurn({
        sessionId,
        turn,
        outcome: result.outcome,
        rounds: result.rounds,
        toolCalls: result.toolCalls,
        inputKind,
        startedAt,
        endedAt,
      }),
    );
    this.flushStart();
    const state = this.current;
    if (state) this.write('the snapshot', () => this.options.store.recordSnapshot({ sessionId, turn, state }));
    return summary;
  }

  /**
   * A turn that threw (a model that refused the key, a server that is gone) is stored as failed, never as if it had
   * been answered; the error goes on to the caller, which decides whether to leave (rule 10).
   */
  /**
   * Rule 9 mid-session: a turn that threw part-way (the database unreachable as a tool result was stored) can leave
   * tool calls without a result at the tail of the history; each gets its `cancelled` answer (stored, then kept) so the
   * next request is valid to send, and the model reads that the call's outcome is not known.
   */
  private async answerOpenCalls(): Promise<void> {
    if (!this.mayDangle) return;
    for (const repair of repairDanglingToolCalls(this.options.history.snapshot()))
      await this.options.history.append({ ...repair, turn: repair.turn ?? this.turnNumber });
    this.mayDangle = false;
  }

  private async failedIfThrown(
    running: Promise<TurnResult>,
    turn: number,
    inputKind: TurnInput['kind'],
    startedAt: number,
  ): Promise<TurnResult> {
    // Its events come after a tick at the earliest: counted from here, they are this turn's.
    this.progress = { rounds: 0, toolCalls: 0 };
    try {
      return await running;
    } catch (error) {
      this.mayDangle = true;
      const { sessionId, progress } = this;
      const endedAt = Date.now();
      this.write('the failed turn', () =>
        this.options.store.recordTurn({
          sessionId,
          turn,
          inputKind,
          startedAt,
          ...progress,
          outcome: 'failed',
          endedAt,
        }),
      );
      this.flushStart();
      await this.settled();
      throw error;
    }
  }

  /** The runner's own bookkeeping for a turn event, then the event itself to the watchers, as it is. */
  private onTurnEvent(turn: number, event: TurnEvent, dead: () => boolean): void {
    if (event.type === 'round-start') this.progress.rounds = event.round;
    else if (event.type === 'tool-result') this.progress.toolCalls += 1;
    // Usage is recorded whenever it arrives, even once the turn is dead: the tokens were spent.
    if (event.type === 'usage') {
      const row = {
        sessionId: this.sessionId,
        turn,
        round: event.round,
        model: event.model,
        usage: event.usage,
        latencyMs: event.latencyMs,
      };
      this.write('the usage', () => this.options.store.recordUsage(row));
    }
    // After an abort nothing from the dead turn is shown (rule 12); the loop already drops late results.
    if (dead()) return;
    this.emit(event);
    if (event.type === 'tool-result') this.learnState(event.call, event.message);
  }

  /** What a tool result teaches of the ship: into the picture (a whole new state), or merged message by message. */
  private learnState(call: ToolCall | undefined, message: Message): GameState | undefined {
    this.prices.observe(message);
    if (!this.picture) {
      const state = stateFromMessage(message, this.prices);
      if (state) this.setState(state);
      return state;
    }
    const changed = this.picture.observe({ call, message, at: this.options.tick?.() ?? message.createdAt });
    const state = this.picture.state(this.prices);
    if (state && changed) this.setState(state, { replace: true });
    return state;
  }
}

/** The game as a tool-less step sees it: no call gets through. */
const NO_GAME: Pick<Game, 'call'> = {
  call: async () => ({ text: 'No game tools in this step: answer in words.', isError: true, code: 'refused' }),
};

/** The call that reads the state: the game's guide says it; a bare game (tests, benchmarks) by its tools' face. */
function statusCallOf(
  game: Game,
  tools: readonly ToolSpec[],
): { name: string; args: Record<string, unknown> } | undefined {
  const guided = game.guide?.().status;
  if (guided) return { name: guided.name, args: { ...guided.args } };
  const face = detectFace(tools);
  return face ? toFaceCall(face, 'get_status') : { name: 'get_status', args: {} };
}

/** The status call as a tool of its own (a flat face): its text is the state line's source (TurnOptions.statusTool).
 * A grouped tool's status reads as a dashboard in `data` like any of its answers. */
function statusToolOf(game: Game): { statusTool?: string } {
  const status = game.guide?.().status;
  return status && Object.keys(status.args).length === 0 ? { statusTool: status.name } : {};
}

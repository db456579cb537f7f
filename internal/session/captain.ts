// The one owner of "a captain playing": openCaptain() connects the game, logs the captain in, opens or resumes its
// session under its lease (rule 19; dangling tool calls answered first, rule 9), sets the session engine up and
// offers what every front end does with a captain — autoplay, chat, switch model, read the state, hand off, close.
// The CLI, the fleet and the bench pass policy only (limits, which model, how to print); nothing else wires a runner,
// a planner or a game connection (test/unit/session/one-captain.test.ts checks it).
import {
  connectGame,
  noticeIfSlow,
  SLOW_CALL_NOTICE_MS,
  targetUrl,
  IpPacer,
  type ConnectGameOptions,
  type GameConnection,
  type GameTarget,
} from '../game/index.js';
import { canAutopilot } from '../provider/index.js';
import {
  currentLeaseHolder,
  repairDanglingToolCalls,
  type Session,
  type Store,
  type UpdateSessionInput,
} from '../store/index.js';
import {
  UsageError,
  isBuiltinProvider,
  type CallKind,
  type CredentialStore,
  type Logger,
  type Provider,
  type ToolSpec,
  type Usage,
} from '../shared/index.js';
import { describePlan } from '../spacemolt/index.js';
import { actionClassifier } from './action-kinds.js';
import { runAutoplayTurns, type AutoplayLimits, type AutoplaySummary, type TickStats } from './autoplay.js';
import type { RunnerListener } from './events.js';
import { leaseGuardedGame, type LeaseCheck } from './lease-guard.js';
import { HANDOFF_REQUEST, type CaptainMemoryWiring } from './memory-session.js';
import { createSessionPlanner, storedPlan } from './planner-setup.js';
import type { Planner } from './planner.js';
import type { GameState } from './game-state.js';
import type { SessionRunner } from './runner.js';
import { draftSessionRecord, storedSessionRecord, type SessionRecord } from './session-record.js';
import { setUpSession } from './session-setup.js';
import { holdAccountLease, holdSessionLease, type SessionLease } from './session-lease.js';
import { storedFigures, withServerTicks, type StoredFigures } from './session-figures.js';
import { idleWaitMs, type TickClock } from './tick-clock.js';
import type { TurnSummary } from './events.js';
import type { LocalTool } from '../llm/index.js';

/** A game as a captain reaches it. */
export interface CaptainGame {
  target: GameTarget;
  /** The game's label in the session's row ("embedded", the server's address). */
  label: string;
  clock: TickClock;
  /** Filled into register calls by code; a secret everywhere else. */
  registrationCode?: string;
  /** The game's own count of a player's busy ticks (minimolt's /stats), when it has one. */
  tickStats?: (username: string | undefined) => Promise<TickStats | undefined>;
  /** The machine's login and refusal budget; a process that opens several captains shares one (default: its own). */
  ipPacer?: IpPacer;
}

/** Who the captain plays as, and how it logs in. */
export interface CaptainAccount {
  username?: string;
  password?: string;
  apiKey?: string;
  /** Where passwords are kept (default the store's). */
  credentials?: CredentialStore;
  /** Kind overrides for tools and actions (config `toolClasses`). */
  classify?: Record<string, CallKind>;
  /** Told of what the game says (`--capture`). */
  record?: ConnectGameOptions['record'];
  /** Handed the connection once made (`--capture` follows its player's username). */
  wrap?: (conn: GameConnection) => GameConnection;
  /** Logs the captain in once connected (default: with what is known, else it plays logged out until it registers). */
  logIn?: (conn: GameConnection, tools: ToolSpec[], signal?: AbortSignal) => Promise<void>;
}

/** Which session the captain plays. */
export interface CaptainSessionSpec {
  /** The stored session to resume (found by the caller: `-s NAME`, the fleet file's session). */
  existing?: Session;
  /** A new session's name (default a generated one). */
  name?: string;
  goal?: string;
  extra?: Record<string, unknown>;
  /** A new session is written with its first turn (chat opened and quit leaves nothing); default: at once. */
  draft?: boolean;
  /** A resumed session takes this goal (a fleet file's). */
  replaceGoal?: boolean;
  /** How the session's lease is held: `false` holds none (a bench's private in-memory store). */
  lease?: false | { waitMs?: number; signal?: AbortSignal };
  /** Another lease that must hold for the captain to act (a fleet worker's on this captain). */
  alsoHeld?: LeaseCheck & { readonly lost: AbortSignal };
}

/** How the captain plays its turns. */
export interface CaptainPacing {
  maxRounds: number;
  contextTokens?: number;
  /** Captain memory (memory block, remember/recall/forget, an episode per turn); default on. */
  memory?: boolean;
  /** Planner mode's check-in, in ticks. */
  plannerEvery?: number;
  /** The wait after a turn with no game action (default one game tick, as the clock knows it). */
  idleWaitMs?: number;
}

export interface OpenCaptainOptions {
  store: Store;
  game: CaptainGame;
  account?: CaptainAccount;
  /** The model (or built-in captain) that plays. */
  provider: Provider;
  /** Planner mode's flier (the built-in autopilot), made when planner mode starts. */
  flier?: () => Provider;
  session: CaptainSessionSpec;
  pacing: CaptainPacing;
  /** Every secret in reach besides stored passwords (API keys): never sent, kept or shown. */
  secrets: () => readonly string[];
  logger: Logger;
  /** Refuse, before the first turn, a captain that cannot play this game (or fly a plan, with `planner`). */
  check?: { planner?: boolean };
  /** A block for a model captain's system prompt, asked afresh every turn (a fleet's shared knowledge). */
  knowledgeBlock?: () => string | undefined;
  /** Told when the store could not keep something (the captain plays on). */
  onStoreError?: (what: string, error: unknown) => void;
  /** Told once when the game has not answered the connection after SLOW_CALL_NOTICE_MS (never silent: issue 48). */
  onConnectWait?: (waitedMs: number) => void;
  signal?: AbortSignal;
}

/** Options of one autoplay run. */
export interface CaptainAutoplay {
  /** The run's goal: set as the session's when given; the session's own otherwise. */
  goal?: string;
  /** Lines typed (or ordered) while autoplay runs: handed to the next turn. */
  takeOrders?: () => string[];
  /** Planner mode: the model plans, the flier flies. */
  planner?: boolean;
}

/** A connection to the game made the way every captain's is: Skipper's pacing, the turbo rule, the account given. */
export async function connectCaptainGame(input: {
  game: CaptainGame;
  account?: CaptainAccount;
  credentials: CredentialStore;
  secrets: readonly string[];
  logger: Logger;
}): Promise<GameConnection> {
  const { game, account = {}, logger } = input;
  const connected = await connectGame({
    target: game.target,
    credentials: account.credentials ?? input.credentials,
    ...(account.username ? { username: account.username } : {}),
    ...(account.password ? { password: account.password } : {}),
    ...(account.apiKey ? { apiKey: account.apiKey } : {}),
    secrets: [...input.secrets],
    ...(game.registrationCode ? { registrationCode: game.registrationCode } : {}),
    logger,
    ...(account.classify ? { classify: account.classify } : {}),
    // Rule 18: the game's tick as known (minimolt says it; SpaceMolt's default otherwise). Turbo minimolt (tick 0) has
    // no query limit, so Skipper's own window is off there too.
    ...(game.clock.tickMs !== undefined ? { tickMs: game.clock.tickMs } : {}),
    ...(game.clock.tickMs === 0 ? { queryBudget: { queriesPerWindow: 0 } } : {}),
    ipPacer: game.ipPacer ?? new IpPacer(),
    ...(account.record ? { record: account.record } : {}),
  });
  return account.wrap ? account.wrap(connected) : connected;
}

/** Refuses, before the first turn, a captain that cannot play this game (or fly its plan in planner mode). */
export function checkPlayable(input: {
  provider: Provider;
  tools: ToolSpec[];
  gameLabel: string;
  planner: boolean;
}): void {
  const { provider, tools, gameLabel } = input;
  // The built-in captains play SpaceMolt's faces only: on another game say so at once, not after idle turns.
  const playable = canAutopilot(tools);
  if (provider.capabilities?.needsKnownFace && !playable.ok) {
    throw new UsageError(
      `${provider.id} cannot play ${gameLabel}: ${playable.reason}. ` +
        'It plays SpaceMolt and minimolt; for this game plug in a model with --model (e.g. --model openai/gpt-4o-mini).',
    );
  }
  if (!input.planner) return;
  if (isBuiltinProvider(provider)) {
    throw new UsageError(
      `--planner needs a language model to plan (the built-in autopilot then flies its plan): add --model, e.g. --planner --model openai/gpt-4o-mini. ${provider.id} already plays on its own without --planner.`,
    );
  }
  if (!playable.ok)
    throw new UsageError(
      `--planner: the autopilot cannot fly ${gameLabel}: ${playable.reason}. Play it with the model alone (without --planner).`,
    );
}

/** Opens a captain: see the file's head. Whatever fails on the way is closed again before the error is thrown. */
export async function openCaptain(options: OpenCaptainOptions): Promise<Captain> {
  const captain = new Captain(options);
  try {
    await captain.open();
    return captain;
  } catch (error) {
    await captain.close();
    throw error;
  }
}

export class Captain {
  private conn: GameConnection | undefined;
  private guarded: GameConnection | undefined;
  private toolList: ToolSpec[] = [];
  private sessionRecord: SessionRecord | undefined;
  private engine:
    { runner: SessionRunner; memory: CaptainMemoryWiring | undefined; localTools: LocalTool[] } | undefined;
  private lease: SessionLease | undefined;
  private accountLease: SessionLease | undefined;
  private activePlanner: Planner | undefined;
  private turnsBefore = 0;
  private closed = false;
  private readonly lostController = new AbortController();

  constructor(private readonly options: OpenCaptainOptions) {}

  /** The game connection behind the captain's leases: what the captain sends or reads goes through it. */
  get game(): GameConnection {
    return this.required(this.guarded, 'game');
  }
  /** The connection itself (its events: logins, waits; its username). */
  get connection(): GameConnection {
    return this.required(this.conn, 'connection');
  }
  get tools(): ToolSpec[] {
    return this.toolList;
  }
  get label(): string {
    return this.options.game.label;
  }
  get clock(): TickClock {
    return this.options.game.clock;
  }
  get runner(): SessionRunner {
    return this.required(this.engine, 'runner').runner;
  }
  get memory(): CaptainMemoryWiring | undefined {
    return this.engine?.memory;
  }
  get record(): SessionRecord {
    return this.required(this.sessionRecord, 'session');
  }
  session(): Session {
    return this.record.session();
  }
  /** The session was stored before this run (a resume). */
  get resumed(): boolean {
    return this.options.session.existing !== undefined;
  }
  /** Turns the session had before this run. */
  get turnsSoFar(): number {
    return this.turnsBefore;
  }
  /** The model that plays (chat talks to it; planner mode makes it plan). */
  get model(): Provider {
    return this.runner.provider;
  }
  get planner(): Planner | undefined {
    return this.activePlanner;
  }
  get state(): GameState | undefined {
    return this.engine?.runner.state;
  }
  /** Aborted when this process no longer holds the captain (another Skipper took its session over). */
  get lost(): AbortSignal {
    return this.lostController.signal;
  }

  /** Every event of the captain's turns. */
  on(listener: RunnerListener): () => void {
    return this.runner.on(listener);
  }

  private required<T>(value: T | undefined, what: string): T {
    if (value === undefined) throw new Error(`captain: ${what} used before the captain was opened`);
    return value;
  }

  /** @internal openCaptain's steps, in order. */
  async open(): Promise<void> {
    const { options } = this;
    const { store, session: spec } = options;
    // Rule 19: the session is leased before the game is opened: a refused run never logs in beside the other.
    const record = spec.existing ? storedSessionRecord(store, spec.existing) : await this.draft();
    this.sessionRecord = record;
    await this.holdLease(record.session(), spec.existing === undefined);
    const connecting = connectCaptainGame({
      game: options.game,
      ...(options.account ? { account: options.account } : {}),
      credentials: store.credentials,
      secrets: options.secrets(),
      logger: options.logger.child({ module: 'game' }),
    });
    const onConnectWait = options.onConnectWait;
    this.conn = onConnectWait
      ? await noticeIfSlow(connecting, { afterMs: SLOW_CALL_NOTICE_MS, notice: onConnectWait })
      : await connecting;
    const conn = this.conn;
    this.toolList = await conn.listTools();
    if (options.check)
      checkPlayable({
        provider: options.provider,
        tools: this.toolList,
        gameLabel: options.game.label,
        planner: options.check.planner === true,
      });
    const logIn = options.account?.logIn;
    if (logIn) await logIn(conn, this.toolList, options.signal);
    else await conn.loginIfKnown(options.signal ? { signal: options.signal } : {});
    this.followLogins(conn);
    if (spec.existing) await this.repair(spec.existing);
    else if (!spec.draft) await record.ensureStored();
    this.turnsBefore = await store.lastTurn(record.session().id);
    this.guarded = leaseGuardedGame(conn, this.leaseCheck());
    await this.setUp();
  }

  /** A new session's row, chosen now and written with the first turn (or at once when not a draft). */
  private draft(): Promise<SessionRecord> {
    const { options } = this;
    const { session: spec } = options;
    const username = options.account?.username;
    return draftSessionRecord(options.store, {
      ...(spec.name ? { name: spec.name } : {}),
      game: options.game.label,
      model: options.provider.id,
      ...(username ? { username } : {}),
      ...(spec.goal ? { goal: spec.goal } : {}),
      extra: spec.extra ?? {},
    });
  }

  private async holdLease(session: Session, draft: boolean): Promise<void> {
    const { lease, alsoHeld } = this.options.session;
    const username = this.options.account?.username;
    if (lease !== false) {
      const wait = {
        ...(lease?.waitMs !== undefined ? { waitMs: lease.waitMs } : {}),
        ...(lease?.signal ? { signal: lease.signal } : {}),
      };
      const { store, logger } = this.options;
      // One holder for the captain's leases: a refusal of its account names the session it plays.
      const holder = currentLeaseHolder();
      this.lease = await holdSessionLease({ store, session, draft, logger, holder, ...wait });
      // One writer per game account too (issue 48): a second session on an account being played is refused here,
      // before it opens the game. A new session without a username registers one of its own.
      if (username)
        this.accountLease = await holdAccountLease({
          store,
          gameUrl: targetUrl(this.options.game.target),
          username,
          session: session.name,
          logger,
          holder,
          ...wait,
        });
    }
    for (const signal of [this.lease?.lost, this.accountLease?.lost, alsoHeld?.lost]) {
      if (!signal) continue;
      if (signal.aborted) this.lostController.abort(signal.reason);
      else signal.addEventListener('abort', () => this.lostController.abort(signal.reason), { once: true });
    }
  }

  /** Both leases must hold for the captain to act: its session's and, for a fleet worker, the captain's. */
  private leaseCheck(): LeaseCheck {
    const held = [this.lease, this.accountLease, this.options.session.alsoHeld].filter((lease) => lease !== undefined);
    return { ensure: async () => (await Promise.all(held.map((lease) => lease.ensure()))).every(Boolean) };
  }

  /** A resumed session under its lease: dangling tool calls answered (rule 9), a new goal taken when asked. */
  private async repair(session: Session): Promise<void> {
    const { store } = this.options;
    const repairs = repairDanglingToolCalls(await store.messages(session.id));
    if (repairs.length > 0) {
      const turn = await store.lastTurn(session.id);
      await store.appendMany(
        session.id,
        repairs.map((message) => ({ ...message, turn })),
      );
    }
    const goal = this.options.session.goal;
    if (this.options.session.replaceGoal && goal !== undefined && session.goal !== goal)
      await this.record.update({ goal });
  }

  /** Each login: the session's row learns the captain's name. */
  private followLogins(conn: GameConnection): void {
    const record = this.record;
    const username = conn.username();
    if (username && record.session().username !== username) this.update({ username }, 'the username');
    conn.onEvent((event) => {
      if (event.type === 'logged-in' && record.session().username !== event.username)
        this.update({ username: event.username }, 'the username');
    });
  }

  private update(changes: UpdateSessionInput, what: string): void {
    this.record.update(changes).catch((error: unknown) => this.storeError(`could not store ${what}`, error));
  }

  private storeError(what: string, error: unknown): void {
    if (this.options.onStoreError) this.options.onStoreError(what, error);
    else this.options.logger.warn({ error: error instanceof Error ? error.message : String(error) }, what);
  }

  private async setUp(): Promise<void> {
    const { options } = this;
    const record = this.record;
    const clock = options.game.clock;
    const knowledgeBlock = options.knowledgeBlock;
    const setup = await setUpSession({
      store: options.store,
      session: record.session(),
      provider: options.provider,
      game: this.game,
      tools: this.toolList,
      gameLabel: options.game.label,
      goal: () => record.session().goal ?? undefined,
      maxRounds: options.pacing.maxRounds,
      ...(options.pacing.contextTokens ? { contextTokens: options.pacing.contextTokens } : {}),
      logger: options.logger,
      secrets: options.secrets(),
      memory: options.pacing.memory !== false,
      resume: this.resumed,
      tick: () => clock.now(),
      tickEstimated: clock.source === 'estimated',
      refreshTick: (signal) => clock.refresh(signal),
      // Before anything is recorded under the session's id (the turn's messages, usage, requests), its row exists.
      beforeTurn: async () => {
        await record.ensureStored();
      },
      // The fleet's knowledge is a model's reading; the autopilot reads its port.
      ...(knowledgeBlock
        ? { extraBlock: () => (isBuiltinProvider(this.runner.provider) ? undefined : knowledgeBlock()) }
        : {}),
    });
    this.engine = setup;
  }

  /** The only way to switch model: from the next turn on, and in the session's row. */
  useModel(provider: Provider): void {
    this.runner.useModel(provider);
    if (this.activePlanner && !isBuiltinProvider(provider)) this.activePlanner.useModel(provider);
    if (this.record.session().model !== provider.id) this.update({ model: provider.id }, 'the model');
  }

  /** Planner mode: the model plans and the flier flies; made once, its plan kept with the session. */
  async startPlanner(): Promise<Planner> {
    const { options } = this;
    if (!options.flier) throw new UsageError('planner mode needs the built-in autopilot to fly the plan');
    const record = this.record;
    const memory = this.memory;
    this.activePlanner ??= await createSessionPlanner({
      // The plan is kept in the session's row: written first when it is still a draft.
      store: {
        findSession: (nameOrId) => options.store.findSession(nameOrId),
        updateSession: async (_nameOrId, changes) => {
          await record.ensureStored();
          return record.update(changes);
        },
      },
      session: record.session(),
      model: this.runner.provider,
      flier: options.flier(),
      localTools: this.required(this.engine, 'runner').localTools,
      ...(memory ? { memoryTools: () => memory.localTools() } : {}),
      ...(options.pacing.plannerEvery !== undefined ? { everyTicks: options.pacing.plannerEvery } : {}),
      username: () => this.connection.username(),
      onStoreError: (error) => this.storeError('could not store the flight plan', error),
    });
    // The model in use plans (chat may have switched it since planner mode began).
    if (!isBuiltinProvider(this.runner.provider)) this.activePlanner.useModel(this.runner.provider);
    return this.activePlanner;
  }

  /** Autoplay until a limit, the signal, failures or a lost lease stop it. */
  async autoplay(limits: AutoplayLimits, signal: AbortSignal, run: CaptainAutoplay = {}): Promise<AutoplaySummary> {
    const { options } = this;
    const goal = run.goal ?? '';
    // The goal is the session's (export, sessions and the system prompt show it), whether given with --autoplay or
    // /autoplay in chat; autoplay without one keeps the goal the session had.
    const trimmed = goal.trim();
    if (trimmed !== '' && this.record.session().goal !== trimmed) await this.record.update({ goal: trimmed });
    const planner = run.planner ? await this.startPlanner() : undefined;
    const game = options.game;
    const conn = this.connection;
    return runAutoplayTurns({
      runner: this.runner,
      goal: trimmed !== '' ? trimmed : (this.record.session().goal ?? ''),
      limits,
      // A session taken over by another Skipper (this one stalled past its lease's deadline) stops here at once.
      signal: AbortSignal.any([signal, this.lost]),
      ...(run.takeOrders ? { takeOrders: run.takeOrders } : {}),
      fetchEvents: (eventSignal) => this.game.fetchEvents({ signal: eventSignal }),
      ...(game.tickStats ? { tickStats: () => game.tickStats?.(conn.username()) ?? Promise.resolve(undefined) } : {}),
      idleWaitMs: options.pacing.idleWaitMs ?? idleWaitMs(game.clock.tickMs),
      isAction: actionClassifier(this.toolList),
      clock: game.clock,
      store: options.store,
      ...(planner ? { planner } : {}),
    });
  }

  /** One chat turn: what the person said, answered by the model (with the game's tools). */
  chat(line: string, signal?: AbortSignal): Promise<TurnSummary> {
    return this.runner.run({ kind: 'user', text: line }, signal ? { signal } : {});
  }

  /** Asks the game for the captain's state (a free query), without the model. */
  refreshState(signal?: AbortSignal): Promise<GameState | undefined> {
    return this.runner.refreshState(signal);
  }

  /**
   * The handoff when the session ends (episodes and lessons are written per turn): a model is asked for a note in a
   * step of Skipper's own — no game tools, so nothing can happen in the game past a limit — that `signal` skips;
   * the built-in captains, and a run that must not ask (interrupted, failing, out of budget), get a factual one.
   * Returns what that step spent.
   */
  async handoff(input: { askModel: boolean; mirror: boolean; signal?: AbortSignal }): Promise<Usage | undefined> {
    const runner = this.runner;
    // No turn, no session stored: nothing happened worth a handoff either. A resumed session left without a turn
    // keeps the handoff it had (a new one would say "0 turns" and push the useful one down).
    if (!this.record.stored() || runner.turns <= this.turnsBefore) return undefined;
    let text: string | undefined;
    let spent: Usage | undefined;
    if (input.askModel && !isBuiltinProvider(runner.provider)) {
      try {
        const timeout = AbortSignal.timeout(120_000);
        const handoff = await runner.run(
          { kind: 'handoff', text: HANDOFF_REQUEST },
          { signal: input.signal ? AbortSignal.any([input.signal, timeout]) : timeout, noTools: true },
        );
        spent = handoff.usage;
        if (handoff.outcome === 'answered') text = handoff.answer;
      } catch (error) {
        this.options.logger.warn({ error: (error as Error).message }, 'handoff turn failed; writing a factual one');
      }
    }
    const written = await this.memory?.endSession({
      ...(text ? { text } : {}),
      ...(runner.state ? { state: runner.state } : {}),
      mirror: input.mirror,
      game: this.connection,
    });
    if (written) this.options.logger.info({ chars: written.length }, 'handoff stored');
    return spent;
  }

  /**
   * A run's figures as the store holds them: the game's busy ticks are stored with the session first, so the
   * summary, `sessions`, `report` and export all read one set of figures. Undefined when nothing was stored.
   */
  async storedRun(summary: AutoplaySummary): Promise<StoredFigures | undefined> {
    if (!this.record.stored()) return undefined;
    await this.storeServerTicks(summary);
    return storedFigures(this.options.store, this.record.session().id, { fromTurn: summary.startTurn });
  }

  /** The game's busy ticks of one run (or a fleet's stretch) stored with the session, where every view reads them. */
  async storeServerTicks(summary: AutoplaySummary): Promise<void> {
    if (!this.record.stored() || !summary.serverTicks) return;
    const extra = withServerTicks(this.record.session().extra, { fromTurn: summary.startTurn, ...summary.serverTicks });
    await this.record.update({ extra });
  }

  /** Where a resumed session left off: its last turn's outcome and closing words, the last known state, its plan. */
  async recap(): Promise<string[]> {
    const { store } = this.options;
    const session = this.record.session();
    const last = (await store.turns(session.id)).at(-1);
    const lines: string[] = [];
    if (last) {
      const state = this.runner.state;
      const where = state
        ? [
            state.location,
            state.credits !== undefined ? `${state.credits} cr` : undefined,
            state.tick !== undefined ? `tick ${state.tick}` : undefined,
          ]
            .filter(Boolean)
            .join(' · ')
        : 'no game state stored';
      // The words of that turn itself, from the store: the history's last reply belongs to an earlier turn when this
      // one said nothing (a failed model call), and quoting it under this turn's number misleads.
      const said = (await store.messages(session.id, { fromTurn: last.turn, toTurn: last.turn }))
        .reverse()
        .find((message) => message.role === 'assistant' && message.content.trim() !== '');
      const text = said?.content.replace(/\s+/g, ' ').trim() ?? '';
      const words = said ? ` — "${text.slice(0, 120)}${text.length > 120 ? '…' : ''}"` : ' — no reply from the captain';
      lines.push(`where you left off: turn ${last.turn} (${last.outcome})${words}`, `last known: ${where}`);
    }
    const plan = storedPlan(session);
    if (plan) lines.push(`plan (planner mode): ${describePlan(plan)}`);
    return lines;
  }

  /** Waits for what the captain handed the store; releases the lease and closes the connection. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.engine?.runner.settled().catch(() => undefined);
    await this.engine?.memory?.settled().catch(() => undefined);
    await this.lease?.release();
    await this.accountLease?.release();
    await this.conn?.close().catch(() => {});
  }
}

/** Autoplay of a captain: its limits and the signal that stops it (the CLI's, the fleet's and the bench's way in). */
export function runAutoplay(
  input: {
    captain: Captain;
    limits: AutoplayLimits;
    signal: AbortSignal;
  } & CaptainAutoplay,
): Promise<AutoplaySummary> {
  const { captain, limits, signal, ...run } = input;
  return captain.autoplay(limits, signal, run);
}

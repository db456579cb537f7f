// A headless captain for benchmarks: a fresh turbo minimolt world, the real game connection, a store, the real
// SessionRunner and runAutoplay (the same path `skipper --autoplay` takes), then the outcome figures a player cares
// about — read from minimolt's own stats and the runner, never from the captain's say-so.
import {
  actionClassifier,
  createSessionPlanner,
  runAutoplay,
  type AutoplaySummary,
  type Planner,
  type PlannerFigures,
  type SessionRunner,
  type SessionSetup,
} from '../session/index.js';
import { serverClock, stopReasonJson } from '../session/index.js';
import { setUpSession } from '../session/index.js';
import { connectGame, type GameConnection } from '../game/index.js';
import { createMinimolt, type Minimolt } from '../sim/index.js';
import { openStore, type Session, type Store } from '../store/index.js';
import {
  isBuiltinProvider,
  silentLogger,
  type Logger,
  type Provider,
  type StopReasonJson,
  type ToolSpec,
  type Usage,
} from '../shared/index.js';
import { detectFace, toFaceCall } from '../spacemolt/index.js';
import { invalidCallCount, type Scenario } from './score.js';

/** Capital the trade scenario starts with (a solarian starts with 150). */
export const TRADE_CAPITAL = 2000;

export const SCENARIO_GOALS: Record<Scenario, string> = {
  grind: 'grow your net worth by mining ore and selling it at stations; stay alive',
  trade:
    'you start with capital: grow your net worth by buying goods cheap at one station and selling them dearer at another; stay alive',
  explore: 'visit as many distinct star systems as you can without dying; refuel when you need to',
};

export interface CaptainOptions {
  provider: Provider;
  scenario: Scenario;
  /** World seed (the same across models of one bench). */
  seed: number;
  /** Game ticks to play. */
  ticks: number;
  /** Safety cap on turns for a captain that never spends a tick (default ticks × 4 + 20). */
  maxTurns?: number;
  /** Keeps the run: a store to write the session into (default: a fresh in-memory store, closed afterwards). */
  store?: Store;
  sessionName?: string;
  maxRounds?: number;
  /** Captain memory as in real play (memory block, remember/recall/forget tools, an episode per turn); default on. */
  memory?: boolean;
  /** Account name registered in the setup step (default derived from the scenario and seed). */
  username?: string;
  signal?: AbortSignal;
  logger?: Logger;
  /** Called after every turn (soak timing, progress). */
  onTurnEnd?: (turn: number, durationMs: number) => void;
  /** Planner mode: `provider` plans, this flier (the autopilot) flies the plan every tick. */
  planner?: { flier: Provider; everyTicks?: number };
  /** The row's name in results (default the provider's id). */
  label?: string;
  /** The face the captain plays (default v2, as a new SpaceMolt player meets it; v1 answers JSON). */
  face?: 'v1' | 'v2';
  /** minimolt answers as another game version would (`skipper serve --drift SEED`); none when undefined. */
  drift?: number;
}

export interface CaptainResult {
  scenario: Scenario;
  model: string;
  seed: number;
  sessionName: string;
  /** Why autoplay stopped: the code, its limit and the words the CLI prints (`stop_reason` in --json, as everywhere). */
  stopReason: StopReasonJson;
  ticks: number;
  turns: number;
  /** Game actions: mutation calls whose result was not an error, classified by the game layer (autoplay's count). */
  actions: number;
  netWorthStart: number;
  netWorthEnd: number;
  creditsStart: number;
  creditsEnd: number;
  /** Distinct systems seen in dashboards, the start system included. */
  systemsVisited: number;
  /** Distinct systems reached (start excluded) before the first death: the explore figure. */
  systemsBeforeDeath: number;
  deaths: number;
  leaks: number;
  toolCalls: number;
  successfulCalls: number;
  failedCalls: number;
  /** invalid_params, invalid_payload (unknown parameter or action), invalid_arguments (bad JSON) and unknown_tool. */
  invalidCalls: number;
  errorsByCode: Record<string, number>;
  usage: Usage;
  wallMs: number;
  tickUtilisation: number | null;
  /** Planner mode: wakes, model requests and the plan at the end. */
  planner?: PlannerFigures;
  /** Requests made to a language model (each round of a model turn asks once); 0 for the built-in captains. */
  modelRequests: number;
}

/** Registers the account in code (so every captain starts logged in, at the same place) and applies the scenario's start. */
async function setUp(options: {
  sim: Minimolt;
  game: GameConnection;
  scenario: Scenario;
  username: string;
}): Promise<void> {
  const face = detectFace(await options.game.listTools());
  const register = face ? toFaceCall(face, 'register', { username: options.username, empire: 'solarian' }) : undefined;
  if (!register) throw new Error('bench setup: the game has no SpaceMolt register tool');
  const result = await options.game.call(register.name, register.args);
  if (result.isError) throw new Error(`bench setup: register failed: ${result.text}`);
  if (options.scenario === 'trade') {
    // minimolt has no starting-credits option: the engine (public for tests and benchmarks) is the setup step.
    const player = [...options.sim.engine.players.values()].find((p) => p.username === options.username);
    if (!player) throw new Error('bench setup: the registered player is not in the world');
    player.credits = TRADE_CAPITAL;
  }
}

type PlayerRow = ReturnType<Minimolt['stats']>['players'][number];

/** What the runner's events show: the systems the captain saw and reached alive, and the model requests it made. */
interface Travels {
  systems: Set<string>;
  reachedAlive: Set<string>;
  modelRequests(): number;
}

function watchTurns(options: {
  runner: SessionRunner;
  sim: Minimolt;
  username: string;
  me: () => PlayerRow | undefined;
  deathsBefore: number;
  onTurnEnd: CaptainOptions['onTurnEnd'];
}): Travels {
  const { runner, sim, me } = options;
  const startSystem = [...sim.engine.players.values()].find((p) => p.username === options.username)?.systemId;
  const systems = new Set<string>(startSystem ? [startSystem] : []);
  const reachedAlive = new Set<string>();
  let dead = false;
  let turnStartTick = sim.tick;
  let modelRequests = 0;
  let turnStartedAt = 0;
  runner.on((event) => {
    if (event.type === 'state' && event.state.systemId) {
      systems.add(event.state.systemId);
      if (!dead && event.state.systemId !== startSystem) reachedAlive.add(event.state.systemId);
    } else if (event.type === 'turn-start') {
      turnStartTick = sim.tick;
      turnStartedAt = performance.now();
    } else if (event.type === 'turn-end') {
      if (!isBuiltinProvider(runner.provider)) modelRequests += event.summary.rounds;
      // Turbo ticks only when an action is queued; in real play a turn that queued nothing still costs game time.
      // Charging it one tick keeps an idle captain from stopping the clock its outcome is measured against.
      if (sim.tick === turnStartTick) sim.engine.processTick();
      if ((me()?.deaths ?? 0) > options.deathsBefore) dead = true;
      options.onTurnEnd?.(event.summary.turn, performance.now() - turnStartedAt);
    }
  });
  return { systems, reachedAlive, modelRequests: () => modelRequests };
}

/** Connects to the embedded world the way `skipper` would, with Skipper's own pacing off. */
function connectBenchGame(options: {
  sim: Minimolt;
  store: Store;
  logger: Logger;
  face: 'v1' | 'v2';
}): Promise<GameConnection> {
  const { sim, store, logger, face } = options;
  return connectGame({
    target: { kind: 'transport', label: 'embedded', url: 'embedded://minimolt', connect: () => sim.connect({ face }) },
    credentials: store.credentials,
    registrationCode: sim.registrationCode,
    logger,
    // Turbo minimolt has no query limit and a tick per action: Skipper's own budget would only stall the bench.
    tickMs: 0,
    queryBudget: { queriesPerWindow: 0 },
  });
}

/** Planner mode: the provider plans and the flier flies; undefined when the bench plays turn by turn. */
async function benchPlanner(options: {
  captain: CaptainOptions;
  store: Store;
  session: Session;
  setup: SessionSetup;
  game: GameConnection;
}): Promise<Planner | undefined> {
  const { captain, setup, game } = options;
  if (!captain.planner) return undefined;
  const memory = setup.memory;
  return await createSessionPlanner({
    store: options.store,
    session: options.session,
    model: captain.provider,
    flier: captain.planner.flier,
    localTools: setup.localTools,
    ...(memory ? { memoryTools: () => memory.localTools() } : {}),
    ...(captain.planner.everyTicks !== undefined ? { everyTicks: captain.planner.everyTicks } : {}),
    username: () => game.username(),
  });
}

/** Autoplay to the scenario's tick budget, stopped early when the caller's signal aborts. */
async function autoplayBench(options: {
  captain: CaptainOptions;
  runner: SessionRunner;
  sim: Minimolt;
  game: GameConnection;
  tools: ToolSpec[];
  goal: string;
  me: () => PlayerRow | undefined;
  planner: Planner | undefined;
}): Promise<AutoplaySummary> {
  const { captain, sim, game, me, planner } = options;
  const controller = new AbortController();
  const stopOnAbort = (): void => controller.abort();
  captain.signal?.addEventListener('abort', stopOnAbort, { once: true });
  return runAutoplay({
    runner: options.runner,
    goal: options.goal,
    limits: { maxTicks: captain.ticks, maxTurns: captain.maxTurns ?? captain.ticks * 4 + 20 },
    signal: controller.signal,
    fetchEvents: (signal) => game.fetchEvents({ signal }),
    tickStats: async () => {
      const row = me();
      return row
        ? { ticksAlive: row.ticks_alive, busyTicks: row.busy_ticks, deaths: row.deaths, leaks: row.leaks }
        : undefined;
    },
    idleWaitMs: 0,
    isAction: actionClassifier(options.tools),
    clock: serverClock(() => sim.tick),
    ...(planner ? { planner } : {}),
  }).finally(() => captain.signal?.removeEventListener('abort', stopOnAbort));
}

/** The outcome figures: the world's stats before and after, the autoplay summary and what the runner's events showed. */
function captainResult(options: {
  captain: CaptainOptions;
  session: Session;
  summary: AutoplaySummary;
  travels: Travels;
  before: PlayerRow | undefined;
  after: PlayerRow | undefined;
  ticks: number;
  wallMs: number;
}): CaptainResult {
  const { captain, summary, before, after } = options;
  const failedCalls = Object.values(summary.errorsByCode).reduce((sum, count) => sum + count, 0);
  return {
    scenario: captain.scenario,
    model: captain.label ?? captain.provider.id,
    seed: captain.seed,
    sessionName: options.session.name,
    stopReason: stopReasonJson(summary.stopReason),
    ticks: options.ticks,
    turns: summary.turns,
    actions: summary.actions,
    netWorthStart: before?.net_worth ?? 0,
    netWorthEnd: after?.net_worth ?? 0,
    creditsStart: before?.credits ?? 0,
    creditsEnd: after?.credits ?? 0,
    systemsVisited: options.travels.systems.size,
    systemsBeforeDeath: options.travels.reachedAlive.size,
    deaths: (after?.deaths ?? 0) - (before?.deaths ?? 0),
    leaks: after?.leaks ?? 0,
    toolCalls: summary.toolCalls,
    successfulCalls: summary.toolCalls - failedCalls,
    failedCalls,
    invalidCalls: invalidCallCount(summary.errorsByCode),
    errorsByCode: summary.errorsByCode,
    usage: summary.usage,
    wallMs: options.wallMs,
    tickUtilisation: summary.tickUtilisation ?? null,
    ...(summary.planner ? { planner: summary.planner } : {}),
    modelRequests: options.travels.modelRequests(),
  };
}

export async function playCaptain(options: CaptainOptions): Promise<CaptainResult> {
  const started = performance.now();
  const logger = options.logger ?? silentLogger;
  const sim = await createMinimolt({
    tickMs: 0,
    seed: options.seed,
    worldDb: ':memory:',
    rateLimits: { queriesPerMinute: 0 },
    ...(options.drift !== undefined ? { drift: options.drift } : {}),
  });
  const store = options.store ?? (await openStore({ path: ':memory:' }));
  let game: GameConnection | undefined;
  try {
    game = await connectBenchGame({ sim, store, logger, face: options.face ?? 'v2' });
    const conn = game;
    const tools = await conn.listTools();
    const username = options.username ?? `bench_${options.scenario}_${options.seed}`.slice(0, 24);
    await setUp({ sim, game: conn, scenario: options.scenario, username });
    const me = (): PlayerRow | undefined => sim.stats().players.find((row) => row.username === username);
    const before = me();
    const startTick = sim.tick;
    const goal = SCENARIO_GOALS[options.scenario];
    const session = await store.createSession({
      ...(options.sessionName ? { name: options.sessionName } : {}),
      game: 'embedded',
      model: options.provider.id,
      username,
      goal,
      extra: { bench: { scenario: options.scenario, seed: options.seed, ticks: options.ticks } },
    });
    const setup = await setUpSession({
      store,
      session,
      provider: options.provider,
      game: conn,
      tools,
      gameLabel: 'embedded',
      goal: () => goal,
      maxRounds: options.maxRounds ?? 20,
      logger,
      memory: options.memory !== false,
      tick: () => sim.tick,
    });
    const { runner } = setup;
    const deathsBefore = before?.deaths ?? 0;
    const travels = watchTurns({ runner, sim, username, me, deathsBefore, onTurnEnd: options.onTurnEnd });
    const planner = await benchPlanner({ captain: options, store, session, setup, game: conn });
    const summary = await autoplayBench({ captain: options, runner, sim, game: conn, tools, goal, me, planner });
    // Everything the run handed the store is written before the figures are taken (and before the store closes).
    await runner.settled();
    await setup.memory?.settled();
    const ticks = sim.tick - startTick;
    const wallMs = performance.now() - started;
    return captainResult({ captain: options, session, summary, travels, before, after: me(), ticks, wallMs });
  } finally {
    await game?.close().catch(() => {});
    await sim.close().catch(() => {});
    if (!options.store) await store.close();
  }
}

// A headless captain for benchmarks: a fresh turbo minimolt world, the real game connection, a store, the real
// captain (openCaptain, the same path `skipper --autoplay` takes), then the outcome figures a player cares
// about — read from minimolt's own stats and the runner, never from the captain's say-so.
import {
  openCaptain,
  runAutoplay,
  serverClock,
  type AutoplaySummary,
  type Captain,
  type PlannerFigures,
  type SessionRunner,
} from '../session/index.js';
import { stopReasonJson } from '../session/index.js';
import type { GameConnection } from '../game/index.js';
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
  tools: ToolSpec[];
  scenario: Scenario;
  username: string;
}): Promise<void> {
  const face = detectFace(options.tools);
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
      if (!isBuiltinProvider(runner.player)) modelRequests += event.summary.rounds;
      // Turbo ticks only when an action is queued; in real play a turn that queued nothing still costs game time.
      // Charging it one tick keeps an idle captain from stopping the clock its outcome is measured against.
      if (sim.tick === turnStartTick) sim.engine.processTick();
      if ((me()?.deaths ?? 0) > options.deathsBefore) dead = true;
      options.onTurnEnd?.(event.summary.turn, performance.now() - turnStartedAt);
    }
  });
  return { systems, reachedAlive, modelRequests: () => modelRequests };
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
  let captain: Captain | undefined;
  try {
    const username = options.username ?? `bench_${options.scenario}_${options.seed}`.slice(0, 24);
    const me = (): PlayerRow | undefined => sim.stats().players.find((row) => row.username === username);
    const goal = SCENARIO_GOALS[options.scenario];
    const face = options.face ?? 'v2';
    // The embedded world reached the way `skipper` reaches it; turbo ticks (one per action), no query limit.
    captain = await openCaptain({
      store,
      game: {
        target: {
          kind: 'transport',
          label: 'embedded',
          url: 'embedded://minimolt',
          connect: () => sim.connect({ face }),
        },
        label: 'embedded',
        clock: serverClock(() => sim.tick, 0),
        registrationCode: sim.registrationCode,
        tickStats: async () => {
          const row = me();
          return row
            ? { ticksAlive: row.ticks_alive, busyTicks: row.busy_ticks, deaths: row.deaths, leaks: row.leaks }
            : undefined;
        },
      },
      account: {
        username,
        // Registered in code, so every captain starts logged in at the same place, with the scenario's start.
        logIn: (conn, tools) => setUp({ sim, game: conn, tools, scenario: options.scenario, username }),
      },
      provider: options.provider,
      ...(options.planner ? { flier: () => options.planner?.flier as Provider } : {}),
      session: {
        ...(options.sessionName ? { name: options.sessionName } : {}),
        goal,
        extra: { bench: { scenario: options.scenario, seed: options.seed, ticks: options.ticks } },
      },
      pacing: {
        maxRounds: options.maxRounds ?? 20,
        memory: options.memory !== false,
        idleWaitMs: 0,
        ...(options.planner?.everyTicks !== undefined ? { plannerEvery: options.planner.everyTicks } : {}),
      },
      secrets: () => [],
      logger,
    });
    const before = me();
    const startTick = sim.tick;
    const deathsBefore = before?.deaths ?? 0;
    const runner = captain.runner;
    const travels = watchTurns({ runner, sim, username, me, deathsBefore, onTurnEnd: options.onTurnEnd });
    const summary = await autoplayBench(captain, options, goal);
    // Everything the run handed the store is written before the figures are taken (and before the store closes).
    await runner.settled();
    await captain.memory?.settled();
    const ticks = sim.tick - startTick;
    const wallMs = performance.now() - started;
    const session = captain.session();
    return captainResult({ captain: options, session, summary, travels, before, after: me(), ticks, wallMs });
  } finally {
    await captain?.close();
    await sim.close().catch(() => {});
    if (!options.store) await store.close();
  }
}

/** Autoplay to the scenario's tick budget, stopped early when the caller's signal aborts. */
function autoplayBench(captain: Captain, options: CaptainOptions, goal: string): Promise<AutoplaySummary> {
  return runAutoplay({
    captain,
    goal,
    limits: { maxTicks: options.ticks, maxTurns: options.maxTurns ?? options.ticks * 4 + 20 },
    signal: options.signal ?? new AbortController().signal,
    ...(options.planner ? { planner: true } : {}),
  });
}

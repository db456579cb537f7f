// Opening one fleet captain: its game connection (through the fleet's broker), its session (resumed when stored,
// dangling tool calls repaired under its lease, rule 9, or created), the session's lease held by this process (rule 19) and the
// session engine set up on it — the same engine `skipper --autoplay` runs, one per captain.
import { connectGame, rateLimitWaitMs, type GameConnection, type GameTarget } from '../game/index.js';
import {
  holdSessionLease,
  leaseGuardedGame,
  setUpSession,
  type SessionLease,
  type SessionSetup,
  type TickClock,
  type TickStats,
} from '../session/index.js';
import { LEASE_TTL_MS, repairDanglingToolCalls, type Session, type Store } from '../store/index.js';
import { SkipperError, isBuiltinProvider, type Logger, type Provider, type ToolSpec } from '../shared/index.js';
import { detectFace, toFaceCall } from '../spacemolt/index.js';
import type { FleetBroker } from './broker.js';
import type { CaptainSpec } from './types.js';

/** A game as the fleet reaches it: one per distinct `game` of the fleet file (embedded captains share one world). */
export interface FleetGame {
  target: GameTarget;
  label: string;
  clock: TickClock;
  registrationCode?: string;
  tickStats?: (username: string | undefined) => Promise<TickStats | undefined>;
}

export interface OpenedCaptain {
  conn: GameConnection;
  /** The connection behind the captain's leases (lease-guard.ts): what the captain sends or reads during play goes
   * through it, never through `conn`. */
  game: GameConnection;
  tools: ToolSpec[];
  session: Session;
  setup: SessionSetup;
  resumed: boolean;
  /** Aborted when this process no longer holds the captain (its session's lease, or a worker's captain lease, was
   * taken over): the captain stops at once and writes nothing more. */
  lost: AbortSignal;
  /** Releases the lease and closes the connection; idempotent. */
  close: () => Promise<void>;
}

export interface OpenCaptainOptions {
  spec: CaptainSpec;
  store: Store;
  game: FleetGame;
  broker: FleetBroker;
  provider: Provider;
  logger: Logger;
  secrets: () => string[];
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Told when the captain waits on the game before it can play (shown as a notice). */
  onWait?: (text: string) => void;
  /** The fleet's knowledge as a system-prompt block; given to the model only (the autopilot reads its port). */
  knowledgeBlock?: () => string | undefined;
  /** A fleet worker's lease on this captain (fleet-worker.ts), checked with the session's before each game call. */
  captainLease?: CaptainLease;
}

/** A lease as the captain checks it. */
export interface CaptainLease {
  readonly lost: AbortSignal;
  ensure(): Promise<boolean>;
}

/** The account a captain plays: its own username (default its name) and, when named, its password from the environment. */
function account(spec: CaptainSpec, env: Record<string, string | undefined>): { username: string; password?: string } {
  const password = spec.passwordEnv ? env[spec.passwordEnv] : undefined;
  return { username: spec.username ?? spec.name, ...(password ? { password } : {}) };
}

async function connect(options: OpenCaptainOptions): Promise<GameConnection> {
  const { spec, game, env } = options;
  const registrationCode =
    game.registrationCode ?? (spec.registrationCodeEnv ? env[spec.registrationCodeEnv] : undefined);
  const { username, password } = account(spec, env);
  return connectGame({
    target: game.target,
    credentials: options.store.credentials,
    username,
    ...(password ? { password } : {}),
    secrets: options.secrets(),
    ...(registrationCode ? { registrationCode } : {}),
    logger: options.logger.child({ module: 'game' }),
    ...(game.clock.tickMs !== undefined ? { tickMs: game.clock.tickMs } : {}),
    ...(game.clock.tickMs === 0 ? { queryBudget: { queriesPerWindow: 0 } } : {}),
    ipPacer: options.broker.pacerFor(),
  });
}

/** The captain's session: the stored one by name, or a new one with the captain's goal. */
async function sessionFor(
  options: OpenCaptainOptions,
  conn: GameConnection,
): Promise<{ session: Session; resumed: boolean }> {
  const { spec, store, game } = options;
  const existing = await store.findSession(spec.session);
  if (existing) return { session: existing, resumed: true };
  const session = await store.createSession({
    name: spec.session,
    game: game.label,
    model: options.provider.id,
    username: conn.username() ?? account(spec, options.env).username,
    ...(spec.goal !== undefined ? { goal: spec.goal } : {}),
    extra: {
      ...(spec.baseUrl ? { baseUrl: spec.baseUrl } : {}),
      ...(spec.apiKeyEnv ? { apiKeyEnv: spec.apiKeyEnv } : {}),
    },
  });
  return { session, resumed: false };
}

/** A resumed session under its lease: dangling tool calls answered (rule 9), the fleet file's goal taken. */
async function repaired(store: Store, session: Session, goal: string | undefined): Promise<Session> {
  const repairs = repairDanglingToolCalls(await store.messages(session.id));
  if (repairs.length > 0) {
    const turn = await store.lastTurn(session.id);
    await store.appendMany(
      session.id,
      repairs.map((message) => ({ ...message, turn })),
    );
  }
  if (goal !== undefined && session.goal !== goal) return store.updateSession(session.id, { goal });
  return store.getSession(session.id);
}

/**
 * Logged in before the first turn: a stored (or given) password, else a registration in code. A fleet must never send
 * the game calls it will refuse: SpaceMolt counts every refusal against the IP (50 in a minute time every account of
 * the machine out), and 50 new captains each asking their status before registering would be 50 refusals.
 */
async function logIn(options: OpenCaptainOptions, conn: GameConnection, tools: ToolSpec[]): Promise<void> {
  const signal = options.signal ? { signal: options.signal } : {};
  if (await conn.loginIfKnown(signal)) return;
  const { spec, env } = options;
  const { username, password } = account(spec, env);
  if (password)
    throw new SkipperError(
      'fleet_login',
      `the game refused ${username}'s password (from ${spec.passwordEnv}): check it`,
    );
  const canRegister =
    options.game.registrationCode !== undefined ||
    (spec.registrationCodeEnv !== undefined && env[spec.registrationCodeEnv] !== undefined);
  const face = detectFace(tools);
  const register = face ? toFaceCall(face, 'register', { username, empire: spec.empire ?? 'solarian' }) : undefined;
  if (!canRegister || !register)
    throw new SkipperError(
      'fleet_login',
      `no password stored for ${username} and no way to register it: give the captain password_env (an existing account) or registration_code_env (a new one)`,
    );
  await registerPaced(options, conn, register);
}

/** Registers through the broker: a refusal for the rate pauses every captain's registration for as long as it says. */
async function registerPaced(
  options: OpenCaptainOptions,
  conn: GameConnection,
  register: { name: string; args: Record<string, unknown> },
): Promise<void> {
  const signal = options.signal ? { signal: options.signal } : {};
  for (let attempt = 1; ; attempt++) {
    await options.broker.admitRegistration(options.signal);
    const result = await conn.call(register.name, register.args, signal);
    if (!result.isError) return;
    const waitMs = rateLimitWaitMs(result);
    if (waitMs === undefined || attempt >= MAX_REGISTRATION_TRIES)
      throw new SkipperError('fleet_login', `the game refused to register ${register.args.username}: ${result.text}`);
    options.broker.registrationRefused(Math.min(waitMs, 120_000));
    options.onWait?.(`the game paces registrations: waiting ${Math.ceil(waitMs / 1000)} s to register`);
  }
}

const MAX_REGISTRATION_TRIES = 6;

export async function openCaptain(options: OpenCaptainOptions): Promise<OpenedCaptain> {
  const { spec, store, game, logger } = options;
  const conn = await connect(options);
  let lease: SessionLease | undefined;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await lease?.release();
    await conn.close().catch(() => {});
  };
  try {
    const tools = await conn.listTools();
    await logIn(options, conn, tools);
    const found = await sessionFor(options, conn);
    lease = await holdSessionLease({ store, session: found.session, logger, ...takeOverWait(options) });
    const session = found.resumed ? await repaired(store, found.session, spec.goal) : found.session;
    const held = leasesHeld(lease, options.captainLease);
    // Nothing reaches the game once another process has taken this captain over (lease-guard.ts).
    const guarded = leaseGuardedGame(conn, held);
    const knowledgeBlock = options.knowledgeBlock;
    const setup: SessionSetup = await setUpSession({
      store,
      session,
      provider: options.provider,
      game: guarded,
      tools,
      gameLabel: game.label,
      goal: () => session.goal ?? undefined,
      maxRounds: 20,
      logger: logger.child({ captain: spec.name }),
      secrets: options.secrets(),
      resume: found.resumed,
      tick: () => game.clock.now(),
      tickEstimated: game.clock.source === 'estimated',
      ...(knowledgeBlock
        ? { extraBlock: () => (isBuiltinProvider(setup.runner.provider) ? undefined : knowledgeBlock()) }
        : {}),
    });
    return { conn, game: guarded, tools, session, setup, resumed: found.resumed, lost: held.lost, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A fleet worker that holds the captain's lease has taken it over from a worker that stalled: that worker's session
 * lease lapses moments after its captain lease did (each renewed on its own), so the session's lease is waited for,
 * up to one lease deadline, instead of refused (which would end the captain for the whole run).
 */
function takeOverWait(options: OpenCaptainOptions): { waitMs?: number; signal?: AbortSignal } {
  const { captainLease, signal } = options;
  if (!captainLease) return {};
  return { waitMs: LEASE_TTL_MS, signal: signal ? AbortSignal.any([signal, captainLease.lost]) : captainLease.lost };
}

/** The session's lease and, for a fleet worker, the captain's: both must hold for the captain to act. */
function leasesHeld(session: SessionLease, captain: CaptainLease | undefined): CaptainLease {
  if (!captain) return session;
  return {
    lost: AbortSignal.any([session.lost, captain.lost]),
    ensure: async () => (await Promise.all([session.ensure(), captain.ensure()])).every(Boolean),
  };
}

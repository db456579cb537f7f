// Opening one fleet captain: the fleet's policy for the one captain object (internal/session/captain.ts) — its game
// through the fleet's broker (one IP pacer, registrations paced), its account (the file's username and password_env,
// else a registration in code), its session (resumed by name, taking the file's goal, or created) under its lease,
// and, for a fleet worker, the worker's lease on the captain besides.
import { rateLimitWaitMs, type GameConnection, type GameTarget } from '../game/index.js';
import { openCaptain, type Captain, type TickClock, type TickStats } from '../session/index.js';
import { LEASE_TTL_MS, type Store } from '../store/index.js';
import { SkipperError, type Logger, type Provider, type ToolSpec } from '../shared/index.js';
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

export interface FleetCaptainOpen {
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
  /** Planner mode's flier (the built-in autopilot). */
  flier: () => Provider;
  /** Told when the store could not keep something. */
  onStoreError: (error: unknown) => void;
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

/**
 * Logged in before the first turn: a stored (or given) password, else a registration in code. A fleet must never send
 * the game calls it will refuse: SpaceMolt counts every refusal against the IP (50 in a minute time every account of
 * the machine out), and 50 new captains each asking their status before registering would be 50 refusals.
 */
async function logIn(options: FleetCaptainOpen, conn: GameConnection, tools: ToolSpec[]): Promise<void> {
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
  options: FleetCaptainOpen,
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

export async function openFleetCaptain(options: FleetCaptainOpen): Promise<Captain> {
  const { spec, store, game, env } = options;
  const existing = await store.findSession(spec.session);
  const { username, password } = account(spec, env);
  const registrationCode =
    game.registrationCode ?? (spec.registrationCodeEnv ? env[spec.registrationCodeEnv] : undefined);
  return openCaptain({
    store,
    game: {
      target: game.target,
      label: game.label,
      clock: game.clock,
      ...(registrationCode ? { registrationCode } : {}),
      ...(game.tickStats ? { tickStats: game.tickStats } : {}),
      ipPacer: options.broker.pacerFor(),
    },
    account: {
      username,
      ...(password ? { password } : {}),
      logIn: (conn, tools) => logIn(options, conn, tools),
    },
    provider: options.provider,
    flier: options.flier,
    session: {
      ...(existing ? { existing } : { name: spec.session }),
      ...(spec.goal !== undefined ? { goal: spec.goal, replaceGoal: true } : {}),
      extra: {
        ...(spec.baseUrl ? { baseUrl: spec.baseUrl } : {}),
        ...(spec.apiKeyEnv ? { apiKeyEnv: spec.apiKeyEnv } : {}),
      },
      lease: takeOverWait(options),
      ...(options.captainLease ? { alsoHeld: options.captainLease } : {}),
    },
    pacing: { maxRounds: 20, ...(spec.plannerEvery !== undefined ? { plannerEvery: spec.plannerEvery } : {}) },
    secrets: options.secrets,
    logger: options.logger.child({ captain: spec.name }),
    ...(options.knowledgeBlock ? { knowledgeBlock: options.knowledgeBlock } : {}),
    onStoreError: (_what, error) => options.onStoreError(error),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/**
 * A fleet worker that holds the captain's lease has taken it over from a worker that stalled: that worker's session
 * lease lapses moments after its captain lease did (each renewed on its own), so the session's lease is waited for,
 * up to one lease deadline, instead of refused (which would end the captain for the whole run).
 */
function takeOverWait(options: FleetCaptainOpen): { waitMs?: number; signal?: AbortSignal } {
  const { captainLease, signal } = options;
  if (!captainLease) return {};
  return { waitMs: LEASE_TTL_MS, signal: signal ? AbortSignal.any([signal, captainLease.lost]) : captainLease.lost };
}

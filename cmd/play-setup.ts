// The steps that set up a play session, in order: resolve the config and what a resumed session brings back, open
// the game, open or resume the session. Each step takes what the earlier ones made and registers what must be
// closed in the run's list of cleanups (closed in reverse order by runPlay, whatever happens).
import { randomBytes } from 'node:crypto';
import type { ChalkInstance } from 'chalk';
import { resolveConfig, type ConfigFlags, type ResolvedConfig } from '../internal/cli/config.js';
import { configSecrets, env } from './config-secrets.js';
import { jsonLineWriter, type JsonWriter } from '../internal/cli/json-events.js';
import { createFileLogger } from '../internal/cli/logger.js';
import { ensureHome, openHomeStore } from '../internal/cli/home.js';
import { collectSecrets, SecretList } from '../internal/cli/secrets.js';
import { attachLoginNotices, type ModelRetry } from '../internal/cli/watchers.js';
import { loginRefusedError, watchAccountLookups } from '../internal/cli/login-check.js';
import { SilentOutput, TerminalOutput, wantsColor, type Output } from '../internal/cli/output.js';
import { createChalk } from '../internal/cli/render.js';
import { setUpGame, type GameSetup } from '../internal/cli/game-setup.js';
import { CaptureWriter, GameCapture } from '../internal/cli/game-capture.js';
import {
  connectGame,
  IpPacer,
  parseGameTarget,
  targetLabel,
  targetUrl,
  type GameConnection,
  type GameExchange,
} from '../internal/game/index.js';
import { canAutopilot, createProvider, resolveModel, type ModelConfig } from '../internal/provider/index.js';
import { holdSessionLease, type SessionLease } from '../internal/session/index.js';
import { checkSessionName, urlCredentials, type Session, type Store } from '../internal/store/index.js';
import {
  UsageError,
  checkGoalText,
  isBuiltinProvider,
  type Logger,
  type Provider,
  type ToolSpec,
} from '../internal/shared/index.js';

export interface PlayFlags extends ConfigFlags {
  session?: string;
  autoplay?: boolean | string;
  maxTicks?: number;
  maxTurns?: number;
  duration?: number;
  budgetUsd?: number;
  budgetTokens?: number;
  json?: boolean;
  benchmark?: string;
  logLevel?: string;
  planner?: boolean;
  plannerEvery?: number;
  /** Folder for one JSON file per game answer (redacted), for fixtures. */
  capture?: string;
}

export type Cleanup = () => Promise<void> | void;

/** What every later step uses: the resolved config, the log, the terminal or JSON output, the store. */
export interface PlayBase {
  flags: PlayFlags;
  config: ResolvedConfig;
  secretList: SecretList;
  fileLogger: ReturnType<typeof createFileLogger>;
  logger: Logger;
  json: boolean;
  color: boolean;
  interactive: boolean;
  output: Output;
  chalk: ChalkInstance;
  writeJson: JsonWriter | undefined;
  autoplay: boolean;
  store: Store;
  /** The session named by -s when it exists (its game, model and captain came back into `config`). */
  existing: Session | undefined;
  /** Told of every model-call retry of every provider made here (watchers show each one, issue 30). */
  modelRetries: Set<(info: ModelRetry) => void>;
  /** The session's lease(s) this run holds (rule 19): checked before every game call, lost stops the run. */
  leases: SessionLease[];
}

export function modelConfigFor(config: ResolvedConfig, modelId: string | undefined): ModelConfig {
  return resolveModel(
    {
      model: modelId ?? 'builtin/autopilot',
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      ...(config.apiKeyEnv ? { apiKeyEnv: config.apiKeyEnv } : {}),
      ...(config.price ? { price: config.price } : {}),
    },
    env(),
  );
}

/** The secrets a config names: flags and environment win over the file, but the file's values are secrets all the same. */
/** Step 1: flags checked, config resolved, log and output opened, the store opened and a resumed session read back. */
export async function resolvePlay(flags: PlayFlags, cleanups: Cleanup[]): Promise<PlayBase> {
  // commander makes a --no-… flag default to true; only an explicit --no-captains-log may override the config file.
  const { captainsLog, ...rest } = flags;
  const config = resolveConfig({ ...rest, ...(captainsLog === false ? { captainsLog: false } : {}) }, env());
  checkTyped(flags, config);
  const autoplay = flags.autoplay !== undefined && flags.autoplay !== false;
  ensureHome(config.home);
  // Rule 14: one list of every secret in reach; the log, --json output and the game's guard all use it.
  const secretList = new SecretList();
  // Credentials written into a URL are secrets too (they are stripped from the URLs stored in the session row); the
  // game's API key is one from the start, whether it came by flag or environment.
  secretList.add(...urlCredentials(config.baseUrl), ...urlCredentials(config.game), config.gameApiKey);
  const fileLogger = createFileLogger({
    home: config.home,
    secrets: secretList,
    ...(flags.logLevel ? { level: flags.logLevel } : {}),
  });
  cleanups.push(() => fileLogger.flush());
  const { json, color, interactive, output, writeJson } = openOutput(flags, secretList);
  // Rule 14 at write: what is stored is redacted with the live list, so exports and replays are clean anywhere.
  const store = await openHomeStore(config.home, {
    logger: fileLogger.logger,
    redact: (text) => secretList.redact(text),
    ...(config.database ? { database: config.database } : {}),
  });
  cleanups.push(() => store.close());
  // The database gone away (PostgreSQL restarting): one line when it goes and one when it is back; autoplay waits.
  const unwatch = store.onHealth((health) => {
    const line =
      health.state === 'down'
        ? `store unreachable (${health.error}): waiting for it, reconnecting…`
        : 'store back: playing on';
    if (writeJson)
      writeJson({ type: 'store', state: health.state, ...(health.state === 'down' ? { error: health.error } : {}) });
    else output.line(createChalk(color)[health.state === 'down' ? 'yellow' : 'green'](line));
  });
  cleanups.push(() => unwatch());
  // Resuming a session brings back its game, model and captain unless flags (or the environment) say otherwise.
  const existing = flags.session ? await store.findSession(flags.session) : undefined;
  const leases: SessionLease[] = [];
  if (existing) {
    // Rule 19: one writer per session. Taken before the game is opened: a refused run never logs in beside the other.
    const lease = await holdSessionLease({ store, session: existing, logger: fileLogger.logger });
    cleanups.push(() => lease.release());
    leases.push(lease);
    resumeConfig(config, existing);
  }
  return {
    flags,
    config,
    secretList,
    fileLogger,
    logger: fileLogger.logger,
    json,
    color,
    interactive,
    output,
    chalk: createChalk(color),
    writeJson,
    autoplay,
    store,
    existing,
    modelRetries: new Set(),
    leases,
  };
}

/** Everything the person typed is checked before anything is created in the home. */
function checkTyped(flags: PlayFlags, config: ResolvedConfig): void {
  if (flags.session) checkSessionName(flags.session);
  if (typeof flags.autoplay === 'string') checkGoalText(flags.autoplay, 'the --autoplay goal');
  if (config.sources.model === 'flag' || config.sources.model === 'env') modelConfigFor(config, config.model);
  if ((config.sources.game === 'flag' || config.sources.game === 'env') && config.game !== 'embedded')
    parseGameTarget(config.game);
  if (flags.plannerEvery !== undefined && !flags.planner)
    throw new UsageError('--planner-every sets how often planner mode calls the model back: add --planner.');
}

/** Where the run speaks: JSON lines on stdout (people's text then goes nowhere), or the terminal, coloured if it can. */
function openOutput(
  flags: PlayFlags,
  secretList: SecretList,
): Pick<PlayBase, 'json' | 'color' | 'interactive' | 'output' | 'writeJson'> {
  const json = flags.json === true;
  const color = !json && wantsColor(process.stdout, env());
  const interactive = !json && process.stdout.isTTY === true;
  const output: Output = json
    ? new SilentOutput(process.stderr)
    : new TerminalOutput({ stdout: process.stdout, stderr: process.stderr, color, interactive });
  const writeJson = json ? jsonLineWriter(process.stdout, { redact: (text) => secretList.redact(text) }) : undefined;
  return { json, color, interactive, output, writeJson };
}

/** A resumed session brings back its game, model and captain, unless flags (or the environment) say otherwise. */
function resumeConfig(config: ResolvedConfig, existing: Session): void {
  const modelFromUser = config.sources.model === 'flag' || config.sources.model === 'env';
  if (!modelFromUser) config.model = existing.model;
  if (config.sources.game !== 'flag' && config.sources.game !== 'env') config.game = existing.game;
  if (config.username === undefined && existing.username) config.username = existing.username;
  if (modelFromUser) return;
  // The endpoint and key variable go with the stored model.
  const extra = existing.extra as { baseUrl?: unknown; apiKeyEnv?: unknown };
  if (config.baseUrl === undefined && typeof extra.baseUrl === 'string') config.baseUrl = extra.baseUrl;
  if (config.apiKeyEnv === undefined && typeof extra.apiKeyEnv === 'string') config.apiKeyEnv = extra.apiKeyEnv;
}

/** Step 2: the providers: `make(model)` builds one for a model config; the model in use is built at once. */
export function openProviders(base: PlayBase): {
  modelConfig: ModelConfig;
  make: (model: ModelConfig) => Provider;
  provider: Provider;
} {
  const { config, logger } = base;
  const modelConfig = modelConfigFor(config, config.model);
  if ('apiKey' in modelConfig && modelConfig.apiKey) base.secretList.add(modelConfig.apiKey);
  const make = (model: ModelConfig): Provider =>
    createProvider(model, {
      logger: logger.child({ module: 'provider' }),
      ...(config.headersTimeoutMs ? { timeouts: { headersMs: config.headersTimeoutMs } } : {}),
      ...(config.streamIdleTimeoutMs ? { streamIdleTimeoutMs: config.streamIdleTimeoutMs } : {}),
      ...(config.vision !== undefined ? { vision: config.vision } : {}),
      seed: config.seed,
      onRetry: (info) => {
        for (const watcher of base.modelRetries) watcher(info);
      },
      // On a shared server (SpaceMolt) a name drawn from the demo's fixed seed would be taken by the first player
      // who used it: the built-in captains register under --username, else a fresh name.
      username:
        config.username ?? (config.game === 'embedded' ? undefined : `captain_${randomBytes(3).toString('hex')}`),
    });
  return { modelConfig, make, provider: make(modelConfig) };
}

export interface OpenGame {
  game: GameSetup;
  conn: GameConnection;
  gameLabel: string;
  tools: ToolSpec[];
  secrets: string[];
}

/** Step 3: the game: started (embedded) or reached, connected, its tools listed, the captain checked and logged in. */
export async function openGame(base: PlayBase, provider: Provider, cleanups: Cleanup[]): Promise<OpenGame> {
  const { config, store, secretList, logger } = base;
  const game = await setUpGame(config, base.fileLogger);
  if (game.sim) cleanups.push(() => game.sim?.close().catch(() => {}));
  const capture = base.flags.capture
    ? new GameCapture({
        writer: new CaptureWriter(base.flags.capture),
        gameUrl: targetUrl(game.target),
        secrets: () => secretList.list(),
        username: config.username,
      })
    : undefined;
  const player = await connectPlayer({
    config,
    store,
    secretList,
    logger,
    game,
    ...(capture ? { record: capture.exchange, wrap: (conn: GameConnection) => capture.follow(conn) } : {}),
  });
  cleanups.push(() => player.conn.close().catch(() => {}));
  const { conn } = player;
  const gameLabel = targetLabel(game.target);
  const tools = await conn.listTools();
  checkPlayable({ provider, tools, gameLabel, planner: base.flags.planner === true });
  // An auth outage met while logging in is said as it is waited out.
  const detach = attachLoginNotices({ game: conn, output: base.output, chalk: base.chalk, write: base.writeJson });
  await logInPlayer(player).finally(detach);
  return { game, conn, gameLabel, tools, secrets: player.secrets };
}

/** A game connection with the player's credentials in it, before logging in. */
export interface PlayerConnection {
  conn: GameConnection;
  secrets: string[];
  /** The account the person named: a password given for --username, or one found stored for it. */
  named: () => string | undefined;
  /** A password came from SKIPPER_GAME_PASSWORD. */
  passwordGiven: boolean;
}

/**
 * The game connected with the player's credentials as the play command takes them: --username with
 * SKIPPER_GAME_PASSWORD, credentials stored in the home, or the API key (--api-key, SKIPPER_GAME_API_KEY). Every
 * secret in reach goes into `secretList` first. `skipper doctor` connects the same way.
 */
export async function connectPlayer(input: {
  config: ResolvedConfig;
  store: Store;
  secretList: SecretList;
  logger: Logger;
  game: GameSetup;
  /** Told of what the game says outside Game.call (initialize, tools/list, logins): `--capture`. */
  record?: (exchange: GameExchange) => void;
  /** Handed the connection once made (`--capture` follows its player's username). */
  wrap?: (conn: GameConnection) => GameConnection;
}): Promise<PlayerConnection> {
  const { config, store, secretList, logger, game, record, wrap } = input;
  const gamePassword = env().SKIPPER_GAME_PASSWORD;
  // The registration code is a secret like a password; embedded minimolt has its own, known here.
  const registrationCode = game.sim?.registrationCode ?? config.registrationCode;
  // Every API key in reach is a secret no tool call may carry, not only the one in use.
  const fromConfig = configSecrets(config);
  await collectSecrets(
    {
      ...fromConfig,
      registrationCodes: [registrationCode, ...fromConfig.registrationCodes],
      gameApiKeys: [config.gameApiKey],
      store,
    },
    secretList,
  );
  const secrets = secretList.list();
  const accounts = watchAccountLookups(store.credentials, config.username);
  const connected = await connectGame({
    target: game.target.kind === 'stdio' && config.gameEnv ? { ...game.target, env: config.gameEnv } : game.target,
    credentials: accounts.credentials,
    ...(config.username ? { username: config.username } : {}),
    ...(gamePassword ? { password: gamePassword } : {}),
    // Without a password the connection logs in by key (a key it cannot use ends the run with what to do).
    ...(config.gameApiKey ? { apiKey: config.gameApiKey } : {}),
    secrets,
    ...(registrationCode ? { registrationCode } : {}),
    logger,
    classify: config.toolClasses,
    // Rule 18: the game's tick as known (minimolt says it; SpaceMolt's default otherwise). Turbo minimolt (tick 0)
    // has no query limit, so Skipper's own window is off there too.
    ...(game.clock.tickMs !== undefined ? { tickMs: game.clock.tickMs } : {}),
    ...(game.clock.tickMs === 0 ? { queryBudget: { queriesPerWindow: 0 } } : {}),
    // The machine's login and refusal budget: this process opens one game connection, so it is made here; a process
    // that opens several (a fleet) makes one IpPacer and passes it to each of them.
    ipPacer: new IpPacer(),
    ...(record ? { record } : {}),
  });
  return {
    conn: wrap ? wrap(connected) : connected,
    secrets,
    // Named: a password was given for --username (the connection tries it first and stores it only once it works),
    // or one was found stored for it.
    named: () => (config.username !== undefined && gamePassword !== undefined ? config.username : accounts.found()),
    passwordGiven: gamePassword !== undefined,
  };
}

/** Logs in with what the player gave or stored; false when there was nothing to log in with. A named account the
 * game refuses stops here: playing on logged out would only register someone else. (A key the game refuses throws
 * its own FatalError, with what to do.) */
export async function logInPlayer(player: PlayerConnection): Promise<boolean> {
  const loggedIn = await player.conn.loginIfKnown();
  const named = player.named();
  if (!loggedIn && named !== undefined) throw loginRefusedError(named, player.passwordGiven);
  return loggedIn;
}

/** Refuses, before the first turn, a captain that cannot play this game (or fly its plan in planner mode). */
function checkPlayable(input: { provider: Provider; tools: ToolSpec[]; gameLabel: string; planner: boolean }): void {
  const { provider, tools, gameLabel } = input;
  // The built-in captains play SpaceMolt's faces only: on another game say so at once, not after idle turns.
  const playable = canAutopilot(tools);
  if (provider.capabilities?.needsSpaceMoltFace && !playable.ok) {
    throw new UsageError(
      `${provider.id} cannot play ${gameLabel}: ${playable.reason}. ` +
        'It plays SpaceMolt and minimolt; for this game plug in a model with --model (e.g. --model openai/gpt-4o-mini).',
    );
  }
  if (input.planner) {
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
}

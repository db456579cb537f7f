// The play command's setup before its captain opens: the config resolved (and what a resumed session brings back),
// the log, the output and the store opened, the providers made, and the player's account as the play command takes
// it (shared with `skipper doctor`). What must be closed goes on the run's list of cleanups (closed in reverse order
// by runPlay, whatever happens).
import { randomBytes } from 'node:crypto';
import type { ChalkInstance } from 'chalk';
import { resolveConfig, type ConfigFlags, type ResolvedConfig } from './config.js';
import { configSecrets, env } from './config-secrets.js';
import { jsonLineWriter, type JsonWriter } from './json-events.js';
import { createFileLogger } from './logger.js';
import { ensureHome, openHomeStore } from './home.js';
import { collectSecrets, SecretList } from './secrets.js';
import { type ModelRetry } from './watchers.js';
import { loginRefusedError, watchAccountLookups } from './login-check.js';
import { SilentOutput, TerminalOutput, wantsColor, type Output } from './output.js';
import { createChalk } from './render.js';
import { type GameSetup } from './game-setup.js';
import { parseGameTarget, targetLabel, type GameConnection, type GameExchange } from '../game/index.js';
import { createProvider, resolveModel, type ModelConfig } from '../provider/index.js';
import { connectCaptainGame, type CaptainAccount, type CaptainGame } from '../session/index.js';
import { checkSessionName, urlCredentials, type Session, type Store } from '../store/index.js';
import { UsageError, checkGoalText, type Logger, type Provider } from '../shared/index.js';

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
  if (existing) resumeConfig(config, existing);
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
  const autoplay = flags.autoplay !== undefined && flags.autoplay !== false;
  const limit = AUTOPLAY_LIMITS.find(([key]) => flags[key] !== undefined);
  if (limit && !autoplay)
    throw new UsageError(
      `${limit[1]} bounds unattended play and does nothing in chat: add --autoplay (e.g. skipper --autoplay ${limit[1]} …). In chat, /autoplay plays until /stop.`,
    );
}

/** The flags that bound autoplay, and how they are typed. */
const AUTOPLAY_LIMITS: Array<[keyof PlayFlags, string]> = [
  ['maxTicks', '--max-ticks'],
  ['maxTurns', '--max-turns'],
  ['duration', '--duration'],
  ['budgetUsd', '--budget-usd'],
  ['budgetTokens', '--budget-tokens'],
];

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
      // A name drawn from the demo's fixed seed would be every session's (SpaceMolt's first player who used it, the
      // home's minimolt world every session shares): the built-in captains register under --username, else a name of
      // the session's own.
      username: config.username ?? `captain_${randomBytes(3).toString('hex')}`,
    });
  return { modelConfig, make, provider: make(modelConfig) };
}

/** A game connection with the player's credentials in it, before logging in. */
export interface PlayerConnection extends PlayerAccount {
  conn: GameConnection;
}

/** The game as a captain of the play command reaches it (a stdio game with the config's environment). */
export function captainGameOf(config: ResolvedConfig, game: GameSetup): CaptainGame {
  const registrationCode = game.sim?.registrationCode ?? config.registrationCode;
  return {
    target: game.target.kind === 'stdio' && config.gameEnv ? { ...game.target, env: config.gameEnv } : game.target,
    label: targetLabel(game.target),
    clock: game.clock,
    ...(registrationCode ? { registrationCode } : {}),
    ...(game.tickStats ? { tickStats: game.tickStats } : {}),
  };
}

/** The player's account as the play command takes it, with every secret in reach in `secretList` first. */
export interface PlayerAccount {
  account: CaptainAccount;
  secrets: string[];
  /** The account the person named: a password given for --username, or one found stored for it. */
  named: () => string | undefined;
  /** A password came from SKIPPER_GAME_PASSWORD. */
  passwordGiven: boolean;
}

/**
 * The player's credentials as the play command takes them: --username with SKIPPER_GAME_PASSWORD, credentials stored
 * in the home, or the API key (--api-key, SKIPPER_GAME_API_KEY). Every secret in reach goes into `secretList` first.
 * `skipper doctor` logs in the same way.
 */
export async function playerAccount(input: {
  config: ResolvedConfig;
  store: Store;
  secretList: SecretList;
  game: GameSetup;
  /** Told of what the game says outside Game.call (initialize, tools/list, logins): `--capture`. */
  record?: (exchange: GameExchange) => void;
  /** Handed the connection once made (`--capture` follows its player's username). */
  wrap?: (conn: GameConnection) => GameConnection;
  /** A new session: without --username it logs into no account stored by another session. */
  fresh?: boolean;
}): Promise<PlayerAccount> {
  const { config, store, secretList, game, record, wrap } = input;
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
  const accounts = watchAccountLookups(store.credentials, config.username, {
    // A new session without --username plays an account of its own (issue 48): not the one another session stored.
    fresh: input.fresh === true && config.username === undefined,
  });
  return {
    account: {
      credentials: accounts.credentials,
      ...(config.username ? { username: config.username } : {}),
      ...(gamePassword ? { password: gamePassword } : {}),
      // Without a password the connection logs in by key (a key it cannot use ends the run with what to do).
      ...(config.gameApiKey ? { apiKey: config.gameApiKey } : {}),
      ...(config.toolClasses ? { classify: config.toolClasses } : {}),
      ...(record ? { record } : {}),
      ...(wrap ? { wrap } : {}),
    },
    secrets: secretList.list(),
    // Named: a password was given for --username (the connection tries it first and stores it only once it works),
    // or one was found stored for it.
    named: () => (config.username !== undefined && gamePassword !== undefined ? config.username : accounts.found()),
    passwordGiven: gamePassword !== undefined,
  };
}

/** A game connection with the player's credentials in it, before logging in (`skipper doctor`). */
export async function connectPlayer(
  input: Parameters<typeof playerAccount>[0] & { logger: Logger },
): Promise<PlayerConnection> {
  const player = await playerAccount(input);
  const conn = await connectCaptainGame({
    game: captainGameOf(input.config, input.game),
    account: player.account,
    credentials: input.store.credentials,
    secrets: player.secrets,
    logger: input.logger,
  });
  return { ...player, conn };
}

/** Logs in with what the player gave or stored; false when there was nothing to log in with. A named account the
 * game refuses stops here: playing on logged out would only register someone else. (A key the game refuses throws
 * its own FatalError, with what to do.) */
export async function logInPlayer(
  player: Pick<PlayerAccount, 'named' | 'passwordGiven'>,
  conn: GameConnection,
): Promise<boolean> {
  const loggedIn = await conn.loginIfKnown();
  const named = player.named();
  if (!loggedIn && named !== undefined) throw loginRefusedError(named, player.passwordGiven);
  return loggedIn;
}

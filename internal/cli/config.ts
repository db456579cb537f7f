// Configuration resolution: flags > environment > config file > defaults, each source validated with the zod schemas
// of ./config-schema.ts, whose issues become usage errors that name the setting. The result is plain data;
// cmd/ turns it into a store, a provider and a game.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { FatalError, UsageError } from '../shared/index.js';
import {
  ConfigEnvSchema,
  ConfigFileSchema,
  ConfigFlagsSchema,
  describeIssue,
  TickMsSchema,
  type ConfigEnv,
  type ConfigFile,
  type ConfigFlags,
} from './config-schema.js';

export type { ConfigFile, ConfigFlags } from './config-schema.js';

export interface ResolvedConfig {
  home: string;
  /** A postgres:// URL (--db, SKIPPER_DATABASE_URL): the store lives there instead of in the home's SQLite file. */
  database?: string;
  configFile: string;
  /** undefined = no model configured: the built-in autopilot plays. */
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  price?: string;
  game: string;
  tickMs: number;
  seed: number;
  systems: number;
  username?: string;
  /** SpaceMolt registration code: a secret, filled into register calls by the game layer. */
  registrationCode?: string;
  /**
   * The game's API key (--api-key, SKIPPER_GAME_API_KEY): logs in without a password. A secret like the password,
   * hence no config-file setting (the password has none either); never stored.
   */
  gameApiKey?: string;
  maxRounds: number;
  contextTokens?: number;
  hostileChat: number;
  captainsLog: boolean;
  /** Where each setting came from, for `/status` and error messages. */
  sources: Record<string, 'flag' | 'env' | 'file' | 'default'>;
  /** Call kind overrides: `"mine": "mutation"` for a tool, `"spacemolt.scan": "query"` for one action. */
  toolClasses: NonNullable<ConfigFile['toolClasses']>;
  headersTimeoutMs?: number;
  /** Longest silence inside a streaming model reply before it is retried as stalled (config file only). */
  streamIdleTimeoutMs?: number;
  /** The model accepts images (config file only); undefined = guessed from the model id. */
  vision?: boolean;
  /** Extra environment for a `stdio:` game server (`--game-env KEY=VALUE`), on top of Skipper's own environment. */
  gameEnv?: Record<string, string>;
}

/** `$SKIPPER_HOME`, else `$XDG_DATA_HOME/skipper`, else `~/.local/share/skipper`. */
export function resolveHome(flagHome: string | undefined, env: Record<string, string | undefined>): string {
  if (flagHome) return flagHome;
  if (env.SKIPPER_HOME) return env.SKIPPER_HOME;
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && xdg.length > 0 ? xdg : join(env.HOME ?? homedir(), '.local', 'share'), 'skipper');
}

export function readConfigFile(path: string): ConfigFile {
  if (!existsSync(path)) return {};
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    // A folder or an unreadable file where the config file belongs is the person's to fix: a usage error.
    const why =
      (error as NodeJS.ErrnoException).code === 'EISDIR' ? 'it is a folder, not a file' : (error as Error).message;
    throw new FatalError('config', `cannot read the config file ${path}: ${why}. Fix it or move it away.`, {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new FatalError(
      'config',
      `the config file ${path} is not valid JSON (${(error as Error).message}). Fix it or move it away.`,
      { cause: error },
    );
  }
  const result = ConfigFileSchema.safeParse(parsed);
  if (!result.success) {
    const known = Object.keys(ConfigFileSchema.shape);
    const problems = result.error.issues
      .map((issue) => describeIssue(issue, { prefix: (setting) => `${setting || '(top level)'}: `, known }))
      .join('; ');
    throw new FatalError('config', `the config file ${path} has invalid settings: ${problems}`);
  }
  return result.data;
}

/** `tickMs` -> `--tick-ms: `, `gameEnv.TOKEN` -> `--game-env TOKEN: `. */
function flagPrefix(path: string): string {
  if (path === '') return '';
  const [key = '', ...rest] = path.split('.');
  const flag = `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
  return `${[flag, ...rest].join(' ')}: `;
}

/** Parses one source, or throws a UsageError that names each wrong setting the way that source spells it. */
function parseSource<T>(schema: z.ZodType<T>, value: unknown, prefix: (path: string) => string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new UsageError(result.error.issues.map((issue) => describeIssue(issue, { prefix })).join('; '));
}

export function resolveConfig(rawFlags: ConfigFlags, rawEnv: Record<string, string | undefined>): ResolvedConfig {
  const flags = parseSource(ConfigFlagsSchema, rawFlags, flagPrefix);
  const home = resolveHome(flags.home, rawEnv);
  const configFile = join(home, 'config.json');
  const file = readConfigFile(configFile);
  // "SKIPPER_TICK_MS=soon is not a number": the variable as it was set, then what is wrong with it.
  const env: ConfigEnv = parseSource(ConfigEnvSchema, rawEnv, (name) => `${name}=${rawEnv[name] ?? ''} `);
  const sources: ResolvedConfig['sources'] = {};

  function pick<T>(name: string, flag: T | undefined, fromEnv: T | undefined, fromFile: T | undefined): T | undefined;
  function pick<T>(name: string, flag: T | undefined, fromEnv: T | undefined, fromFile: T | undefined, fallback: T): T;
  function pick<T>(
    name: string,
    flag: T | undefined,
    fromEnv: T | undefined,
    fromFile: T | undefined,
    fallback?: T,
  ): T | undefined {
    if (flag !== undefined) {
      sources[name] = 'flag';
      return flag;
    }
    if (fromEnv !== undefined) {
      sources[name] = 'env';
      return fromEnv;
    }
    if (fromFile !== undefined) {
      sources[name] = 'file';
      return fromFile;
    }
    sources[name] = 'default';
    return fallback;
  }
  const nonEmpty = (value: string | undefined): string | undefined => (value ? value : undefined);

  const config: ResolvedConfig = {
    home,
    configFile,
    game: pick('game', flags.game, env.SKIPPER_GAME, file.game, 'embedded'),
    tickMs: pick('tickMs', flags.tickMs, env.SKIPPER_TICK_MS, file.tickMs, 500),
    seed: pick('seed', flags.seed, env.SKIPPER_SEED, file.seed, 42),
    systems: pick('systems', flags.systems, undefined, file.systems, 30),
    maxRounds: pick('maxRounds', flags.maxRounds, undefined, file.maxRounds, 20),
    hostileChat: pick('hostileChat', flags.hostileChat, undefined, file.hostileChat, 0.05),
    captainsLog: pick('captainsLog', flags.captainsLog, undefined, file.captainsLog, true),
    toolClasses: file.toolClasses ?? {},
    sources,
  };
  const database = pick('database', flags.db, env.SKIPPER_DATABASE_URL, undefined);
  if (database !== undefined) config.database = checkDatabaseUrl(database);
  const model = pick('model', flags.model, env.SKIPPER_MODEL, file.model);
  if (model !== undefined) config.model = model;
  const baseUrl = pick('baseUrl', flags.baseUrl, env.SKIPPER_BASE_URL, file.baseUrl);
  if (baseUrl !== undefined) config.baseUrl = baseUrl;
  const apiKeyEnv = pick('apiKeyEnv', flags.apiKeyEnv, env.SKIPPER_API_KEY_ENV, file.apiKeyEnv);
  if (apiKeyEnv !== undefined) config.apiKeyEnv = apiKeyEnv;
  const price = pick('price', flags.price, undefined, file.price);
  if (price !== undefined) config.price = price;
  const username = pick('username', flags.username, env.SKIPPER_USERNAME, file.username);
  if (username !== undefined) config.username = username;
  const registrationCode = pick(
    'registrationCode',
    nonEmpty(flags.registrationCode),
    env.SKIPPER_REGISTRATION_CODE,
    file.registrationCode,
  );
  if (registrationCode !== undefined) config.registrationCode = registrationCode;
  // Trimmed: a key pasted with its newline is the same key.
  const gameApiKey = pick('gameApiKey', nonEmpty(flags.apiKey?.trim()), env.SKIPPER_GAME_API_KEY?.trim(), undefined);
  if (gameApiKey) config.gameApiKey = gameApiKey;
  const contextTokens = pick('contextTokens', flags.contextTokens, undefined, file.contextTokens);
  if (contextTokens !== undefined) config.contextTokens = contextTokens;
  if (file.headersTimeoutMs !== undefined) config.headersTimeoutMs = file.headersTimeoutMs;
  if (file.streamIdleTimeoutMs !== undefined) config.streamIdleTimeoutMs = file.streamIdleTimeoutMs;
  if (file.vision !== undefined) config.vision = file.vision;
  if (flags.gameEnv && Object.keys(flags.gameEnv).length > 0) {
    if (!config.game.trim().toLowerCase().startsWith('stdio:'))
      throw new UsageError('--game-env applies only to a "stdio:COMMAND" game (a child process Skipper starts)');
    config.gameEnv = { ...flags.gameEnv };
  }
  parseSource(TickMsSchema, config.tickMs, () => '');
  return config;
}

/** Only PostgreSQL URLs select another backend; anything else is a usage error that says what is expected. */
function checkDatabaseUrl(url: string): string {
  if (/^postgres(ql)?:\/\//i.test(url)) return url;
  throw new UsageError(
    `--db / SKIPPER_DATABASE_URL must be a postgres://USER@HOST:PORT/DB URL (got ${url.split('@').pop() ?? ''}); ` +
      'leave it unset to use the SQLite file in the Skipper home',
  );
}

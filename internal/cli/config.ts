// Configuration resolution: flags > environment > config file > defaults, validated with zod.
// The result is plain data; cmd/skipper.ts turns it into a store, a provider and a game.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { FatalError, UsageError } from '../shared/index.js';

export interface ResolvedConfig {
  home: string;
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
  maxRounds: number;
  contextTokens?: number;
  hostileChat: number;
  captainsLog: boolean;
  /** Where each setting came from, for `/status` and error messages. */
  sources: Record<string, 'flag' | 'env' | 'file' | 'default'>;
  /** Call kind overrides: `"mine": "mutation"` for a tool, `"spacemolt.scan": "query"` for one action. */
  toolClasses: Record<string, 'query' | 'free' | 'mutation'>;
  headersTimeoutMs?: number;
  /** Longest silence inside a streaming model reply before it is retried as stalled (config file only). */
  streamIdleTimeoutMs?: number;
  /** The model accepts images (config file only); undefined = guessed from the model id. */
  vision?: boolean;
  /** Extra environment for a `stdio:` game server (`--game-env KEY=VALUE`), on top of Skipper's own environment. */
  gameEnv?: Record<string, string>;
}

const ConfigFileSchema = z
  .object({
    model: z.string().min(1).optional(),
    baseUrl: z.string().url().optional(),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    price: z.string().optional(),
    game: z.string().min(1).optional(),
    tickMs: z.number().int().min(0).max(600_000).optional(),
    seed: z.number().int().optional(),
    systems: z.number().int().min(6).max(500).optional(),
    username: z.string().min(1).optional(),
    registrationCode: z.string().min(1).optional(),
    maxRounds: z.number().int().min(1).max(200).optional(),
    contextTokens: z.number().int().min(1000).optional(),
    hostileChat: z.number().min(0).max(1).optional(),
    captainsLog: z.boolean().optional(),
    headersTimeoutMs: z.number().int().min(1000).optional(),
    streamIdleTimeoutMs: z.number().int().min(100).optional(),
    vision: z.boolean().optional(),
    toolClasses: z.record(z.string().regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)?$/, 'a tool name or "tool.action"'), z.enum(['query', 'free', 'mutation'])).optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** The flags cmd/skipper.ts parsed (already type-checked by commander's parsers). */
export interface ConfigFlags {
  home?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  price?: string;
  game?: string;
  tickMs?: number;
  seed?: number;
  systems?: number;
  username?: string;
  registrationCode?: string;
  maxRounds?: number;
  contextTokens?: number;
  hostileChat?: number;
  captainsLog?: boolean;
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
    const why = (error as NodeJS.ErrnoException).code === 'EISDIR' ? 'it is a folder, not a file' : (error as Error).message;
    throw new FatalError('config', `cannot read the config file ${path}: ${why}. Fix it or move it away.`, { cause: error, exitCode: 2 });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new FatalError(
      'config',
      `the config file ${path} is not valid JSON (${(error as Error).message}). Fix it or move it away.`,
      { cause: error, exitCode: 2 },
    );
  }
  const result = ConfigFileSchema.safeParse(parsed);
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`)
      .join('; ');
    throw new FatalError('config', `the config file ${path} has invalid settings: ${problems}`, { exitCode: 2 });
  }
  return result.data;
}

function envNumber(env: Record<string, string | undefined>, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) throw new UsageError(`${name}=${value} is not a number`);
  return number;
}

export function resolveConfig(flags: ConfigFlags, env: Record<string, string | undefined>): ResolvedConfig {
  const home = resolveHome(flags.home, env);
  const configFile = join(home, 'config.json');
  const file = readConfigFile(configFile);
  const sources: ResolvedConfig['sources'] = {};

  function pick<T>(name: string, flag: T | undefined, fromEnv: T | undefined, fromFile: T | undefined): T | undefined;
  function pick<T>(name: string, flag: T | undefined, fromEnv: T | undefined, fromFile: T | undefined, fallback: T): T;
  function pick<T>(name: string, flag: T | undefined, fromEnv: T | undefined, fromFile: T | undefined, fallback?: T): T | undefined {
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
    game: pick('game', flags.game, nonEmpty(env.SKIPPER_GAME), file.game, 'embedded'),
    tickMs: pick('tickMs', flags.tickMs, envNumber(env, 'SKIPPER_TICK_MS'), file.tickMs, 500),
    seed: pick('seed', flags.seed, envNumber(env, 'SKIPPER_SEED'), file.seed, 42),
    systems: pick('systems', flags.systems, undefined, file.systems, 30),
    maxRounds: pick('maxRounds', flags.maxRounds, undefined, file.maxRounds, 20),
    hostileChat: pick('hostileChat', flags.hostileChat, undefined, file.hostileChat, 0.05),
    captainsLog: pick('captainsLog', flags.captainsLog, undefined, file.captainsLog, true),
    toolClasses: file.toolClasses ?? {},
    sources,
  };
  const model = pick('model', flags.model, nonEmpty(env.SKIPPER_MODEL), file.model);
  if (model !== undefined) config.model = model;
  const baseUrl = pick('baseUrl', flags.baseUrl, nonEmpty(env.SKIPPER_BASE_URL), file.baseUrl);
  if (baseUrl !== undefined) config.baseUrl = baseUrl;
  const apiKeyEnv = pick('apiKeyEnv', flags.apiKeyEnv, nonEmpty(env.SKIPPER_API_KEY_ENV), file.apiKeyEnv);
  if (apiKeyEnv !== undefined) config.apiKeyEnv = apiKeyEnv;
  const price = pick('price', flags.price, undefined, file.price);
  if (price !== undefined) config.price = price;
  const username = pick('username', flags.username, nonEmpty(env.SKIPPER_USERNAME), file.username);
  if (username !== undefined) config.username = username;
  const registrationCode = pick('registrationCode', nonEmpty(flags.registrationCode), nonEmpty(env.SKIPPER_REGISTRATION_CODE), file.registrationCode);
  if (registrationCode !== undefined) config.registrationCode = registrationCode;
  const contextTokens = pick('contextTokens', flags.contextTokens, undefined, file.contextTokens);
  if (contextTokens !== undefined) config.contextTokens = contextTokens;
  if (file.headersTimeoutMs !== undefined) config.headersTimeoutMs = file.headersTimeoutMs;
  if (file.streamIdleTimeoutMs !== undefined) config.streamIdleTimeoutMs = file.streamIdleTimeoutMs;
  if (file.vision !== undefined) config.vision = file.vision;
  if (flags.gameEnv && Object.keys(flags.gameEnv).length > 0) {
    if (!config.game.trim().toLowerCase().startsWith('stdio:')) throw new UsageError('--game-env applies only to a "stdio:COMMAND" game (a child process Skipper starts)');
    config.gameEnv = { ...flags.gameEnv };
  }
  if (!Number.isInteger(config.tickMs) || config.tickMs < 0) throw new UsageError(`tick length must be a whole number of milliseconds ≥ 0, got ${config.tickMs}`);
  return config;
}

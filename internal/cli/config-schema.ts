// What a configuration may hold, as zod schemas: the config file (strict: an unknown key is a mistake), the flags
// cmd/skipper.ts parsed, and the SKIPPER_* environment. Ranges are shared with the flag parsers (./flags.ts), and
// zod's issues are turned into sentences that name the setting and say what is wrong.
import { z } from 'zod';
import { boundedNumber, type Bounds } from './flags.js';

/** The range of each numeric setting, wherever it is given (config file, flag, resolved value). */
export const settingRanges = {
  tickMs: { min: 0, max: 600_000 },
  systems: { min: 6, max: 500 },
  maxRounds: { min: 1, max: 200 },
  contextTokens: { min: 1000 },
  hostileChat: { min: 0, max: 1 },
  headersTimeoutMs: { min: 1000 },
  streamIdleTimeoutMs: { min: 100 },
} satisfies Record<string, Bounds>;

const whole = (bounds: Bounds = {}): z.ZodNumber => boundedNumber(bounds, { whole: true });
const callKinds = z.enum(['query', 'free', 'mutation']);
const toolName = z.string().regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)?$/, 'not a tool name or "tool.action"');
const text = z.string().min(1, 'must not be empty');

export const ConfigFileSchema = z
  .object({
    model: text.optional(),
    baseUrl: z.string().url('must be a URL like https://api.example.com/v1').optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name like OPENAI_API_KEY')
      .optional(),
    price: z.string().optional(),
    game: text.optional(),
    tickMs: whole(settingRanges.tickMs).optional(),
    seed: whole().optional(),
    systems: whole(settingRanges.systems).optional(),
    username: text.optional(),
    registrationCode: text.optional(),
    maxRounds: whole(settingRanges.maxRounds).optional(),
    contextTokens: whole(settingRanges.contextTokens).optional(),
    hostileChat: boundedNumber(settingRanges.hostileChat).optional(),
    captainsLog: z.boolean().optional(),
    headersTimeoutMs: whole(settingRanges.headersTimeoutMs).optional(),
    streamIdleTimeoutMs: whole(settingRanges.streamIdleTimeoutMs).optional(),
    vision: z.boolean().optional(),
    toolClasses: z.record(toolName, callKinds).optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** The tick length after every source is merged: the environment may give any number, the game needs this. */
const tickMsError = (issue: { input?: unknown }): string =>
  `tick length must be a whole number of milliseconds ≥ 0, got ${String(issue.input)}`;
export const TickMsSchema = z.number({ error: tickMsError }).int({ error: tickMsError }).min(0, { error: tickMsError });

/**
 * The flags the command line gave (commander's parsers already checked the ones typed on the command line; this
 * checks what any other caller hands in). Keys it does not know (`session`, `json`, …) are dropped.
 */
export const ConfigFlagsSchema = z.object({
  home: z.string().optional(),
  /** A postgres:// URL: the store on PostgreSQL instead of the home's SQLite file. */
  db: z.string().optional(),
  model: z.string().optional(),
  baseUrl: z.string().optional(),
  apiKeyEnv: z.string().optional(),
  price: z.string().optional(),
  game: z.string().optional(),
  tickMs: TickMsSchema.optional(),
  seed: whole().optional(),
  systems: whole(settingRanges.systems).optional(),
  username: z.string().optional(),
  registrationCode: z.string().optional(),
  /** The game's API key (--api-key): a secret, like the password; not a setting of the config file. */
  apiKey: z.string().optional(),
  maxRounds: whole(settingRanges.maxRounds).optional(),
  contextTokens: whole(settingRanges.contextTokens).optional(),
  hostileChat: boundedNumber(settingRanges.hostileChat).optional(),
  captainsLog: z.boolean().optional(),
  gameEnv: z.record(z.string(), z.string()).optional(),
});

export type ConfigFlags = z.input<typeof ConfigFlagsSchema>;

/** An environment variable: unset and empty both mean "not given". */
const envText = z
  .string()
  .optional()
  .transform((value) => (value ? value : undefined));

const envNumber = z
  .string()
  .optional()
  .transform((value, context) => {
    if (value === undefined || value === '') return undefined;
    const number = Number(value);
    if (Number.isFinite(number)) return number;
    context.addIssue({ code: 'custom', message: 'is not a number', input: value });
    return z.NEVER;
  });

/** The SKIPPER_* variables resolveConfig reads; every other variable is ignored. */
export const ConfigEnvSchema = z.object({
  SKIPPER_GAME: envText,
  SKIPPER_MODEL: envText,
  SKIPPER_BASE_URL: envText,
  SKIPPER_API_KEY_ENV: envText,
  SKIPPER_USERNAME: envText,
  SKIPPER_REGISTRATION_CODE: envText,
  SKIPPER_GAME_API_KEY: envText,
  SKIPPER_TICK_MS: envNumber,
  SKIPPER_SEED: envNumber,
  SKIPPER_DATABASE_URL: envText,
});

export type ConfigEnv = z.output<typeof ConfigEnvSchema>;

/**
 * One issue as a sentence naming the setting: `systems: must be at least 6`, `"modle" is not a setting (…)`.
 * `prefix` spells a setting's path the way its source does (`tickMs: `, `--tick-ms: `, `SKIPPER_SEED=x `).
 */
export function describeIssue(
  issue: z.core.$ZodIssue,
  options: { prefix: (path: string) => string; known?: readonly string[] },
): string {
  const at = (path: readonly PropertyKey[]): string => options.prefix(path.map(String).join('.'));
  // Messages shared with the flag parsers end with a full stop; here they are joined with semicolons.
  const message = issue.message.replace(/\.$/, '');
  switch (issue.code) {
    case 'unrecognized_keys': {
      const keys = issue.keys.map((key) => `"${key}"`).join(', ');
      const known = options.known ? ` (the settings are: ${options.known.join(', ')})` : '';
      return `${issue.path.length > 0 ? at(issue.path) : ''}${keys} ${issue.keys.length === 1 ? 'is not a setting' : 'are not settings'}${known}`;
    }
    case 'invalid_key':
      // The path ends with the offending key: `toolClasses: "a.b.c" is not a tool name or "tool.action"`.
      return `${at(issue.path.slice(0, -1))}"${String(issue.path.at(-1))}" is ${issue.issues.map((inner) => inner.message).join('; ')}`;
    case 'invalid_type':
    case 'invalid_value':
      return `${at(issue.path)}${message.replace(/^Invalid (input|option): /, '')}`;
    default:
      return `${at(issue.path)}${message}`;
  }
}

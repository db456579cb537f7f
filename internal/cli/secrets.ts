// Rule 14: the one list of every secret Skipper knows — API keys (the well-known variables and any variable named by
// --api-key-env, the config file or a stored session), game passwords (SKIPPER_GAME_PASSWORD and the credential
// store), the game's API key (SKIPPER_GAME_API_KEY, --api-key), registration codes (flag, SKIPPER_REGISTRATION_CODE,
// config) — and the one redactor built from it. The log
// file, exports, replay and --json output all redact through it; the game layer gets the same list to guard calls.
import { PRESET_API_KEY_VARIABLES } from '../provider/index.js';
import { createRedactor, minimumSecretLength, type Redactor, type Store } from '../store/index.js';

/** The provider presets' key variables: a preset added there is guarded here too. */
export const API_KEY_VARIABLES: readonly string[] = PRESET_API_KEY_VARIABLES;

export class SecretList {
  private readonly values = new Set<string>();
  private redactor: Redactor | undefined;

  /** Adds values; empty ones and ones too short to redact without shredding the text are skipped. */
  add(...secrets: ReadonlyArray<string | undefined>): void {
    for (const secret of secrets) {
      if (secret === undefined || secret.length < minimumSecretLength || this.values.has(secret)) continue;
      this.values.add(secret);
      this.redactor = undefined;
    }
  }

  list(): string[] {
    return [...this.values];
  }

  get size(): number {
    return this.values.size;
  }

  /** Every known secret in `text` becomes `[redacted]` (also where it appears JSON-escaped). */
  redact(text: string): string {
    if (this.values.size === 0) return text;
    this.redactor ??= createRedactor(this.list());
    return this.redactor(text);
  }
}

export interface SecretSources {
  env: Record<string, string | undefined>;
  /** Names of variables holding API keys (--api-key-env, config "apiKeyEnv"). */
  apiKeyEnvs?: ReadonlyArray<string | undefined>;
  /** Registration codes in reach (flag, config, embedded minimolt's own). */
  registrationCodes?: ReadonlyArray<string | undefined>;
  /** The game's API key given by flag (SKIPPER_GAME_API_KEY is read from `env`). */
  gameApiKeys?: ReadonlyArray<string | undefined>;
  /** Adds stored game passwords and the key variable named by every stored session. */
  store?: Store;
}

/** Gathers every secret in reach into `into` (a new list by default). */
export async function collectSecrets(sources: SecretSources, into: SecretList = new SecretList()): Promise<SecretList> {
  const { env } = sources;
  const keyVariables = new Set<string>([...API_KEY_VARIABLES]);
  for (const name of [...(sources.apiKeyEnvs ?? []), env.SKIPPER_API_KEY_ENV]) if (name) keyVariables.add(name);
  if (sources.store) {
    for (const row of await sources.store.listSessions()) {
      const named = (row.session.extra as { apiKeyEnv?: unknown }).apiKeyEnv;
      if (typeof named === 'string' && named !== '') keyVariables.add(named);
    }
    // Passwords another process stored since this store was opened are secrets too.
    await sources.store.credentials.refresh();
    into.add(...sources.store.credentials.passwordList());
  }
  // Raw and trimmed: the provider uses the trimmed key, and either may show up in what is written.
  for (const name of keyVariables) into.add(env[name], env[name]?.trim());
  into.add(env.SKIPPER_GAME_PASSWORD, env.SKIPPER_REGISTRATION_CODE, ...(sources.registrationCodes ?? []));
  into.add(env.SKIPPER_GAME_API_KEY, env.SKIPPER_GAME_API_KEY?.trim(), ...(sources.gameApiKeys ?? []));
  return into;
}

// Model resolution: turns `--model PROVIDER/MODEL` (plus base URL, key env and price overrides, already merged by
// the CLI from flags > env > file) into a validated ModelConfig. Pure: the environment is a parameter.
import { FatalError, UsageError } from '../shared/index.js';
import { priceFor } from './prices.js';

export interface Price {
  /** USD per million prompt tokens. */
  inPerM: number;
  /** USD per million completion tokens. */
  outPerM: number;
  /** USD per million cached prompt tokens (cache reads); absent: no cached rate is known, cached tokens are billed at
   * the input price (no discount assumed). */
  cachedPerM?: number;
}

export interface RemoteModelConfig {
  /** "provider/model", e.g. "openrouter/meta-llama/llama-3.1-8b". */
  id: string;
  provider: string;
  model: string;
  baseUrl: string;
  /** The key itself; never logged, never put in error messages. */
  apiKey?: string;
  /** The environment variable the key came from (named in errors). */
  apiKeyEnv?: string;
  /** A server on this machine: no key needed, cost 0, ECONNREFUSED fails fast with how to start it. */
  local: boolean;
  /** From `--price IN,OUT[,CACHED]`; otherwise the price table decides. */
  price?: Price;
}

export interface BuiltinModelConfig {
  id: `builtin/${'autopilot' | 'random'}`;
  builtin: 'autopilot' | 'random';
}

export type ModelConfig = RemoteModelConfig | BuiltinModelConfig;

export function isBuiltinModel(config: ModelConfig): config is BuiltinModelConfig {
  return 'builtin' in config;
}

interface Preset {
  baseUrl?: string;
  apiKeyEnv?: string;
  local: boolean;
  /** Shown when a local server cannot be reached. */
  startHint?: string;
  label: string;
}

const PRESETS: Record<string, Preset> = {
  openai: { baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY', local: false, label: 'OpenAI' },
  openrouter: {
    baseUrl: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    local: false,
    label: 'OpenRouter',
  },
  anthropic: {
    baseUrl: 'https://api.anthropic.com/v1/',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    local: false,
    label: 'Anthropic',
  },
  groq: { baseUrl: 'https://api.groq.com/openai/v1', apiKeyEnv: 'GROQ_API_KEY', local: false, label: 'Groq' },
  ollama: {
    baseUrl: 'http://127.0.0.1:11434/v1',
    local: true,
    label: 'Ollama',
    startHint: 'start it with `ollama serve`',
  },
  lmstudio: {
    baseUrl: 'http://127.0.0.1:1234/v1',
    local: true,
    label: 'LM Studio',
    startHint: 'start the LM Studio server (Developer tab, or `lms server start`)',
  },
  vllm: {
    baseUrl: 'http://127.0.0.1:8000/v1',
    local: true,
    label: 'vLLM',
    startHint: 'start it with `vllm serve MODEL`',
  },
  custom: { local: false, label: 'the custom endpoint' },
};

/** Provider names accepted before the first slash of `--model`, plus `builtin`. */
export const KNOWN_PROVIDERS: readonly string[] = [...Object.keys(PRESETS), 'builtin'];

/** Every environment variable a provider preset reads its API key from (all of them are secrets to guard). */
export const PRESET_API_KEY_VARIABLES: readonly string[] = [
  ...new Set(Object.values(PRESETS).flatMap((preset) => (preset.apiKeyEnv ? [preset.apiKeyEnv] : []))),
];

export interface ResolveModelInput {
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  /** "IN,OUT[,CACHED]" USD per million tokens. */
  price?: string;
}

const knownList = (): string => KNOWN_PROVIDERS.map((name) => `${name}/…`).join(', ');

/** --model split into its provider (lower-cased) and model; a usage error when it is not PROVIDER/MODEL. */
function splitModelId(given: string | undefined): { raw: string; provider: string; model: string } {
  const raw = given?.trim();
  if (!raw) throw new UsageError(`no model given: use --model PROVIDER/MODEL (known providers: ${knownList()})`);
  const slash = raw.indexOf('/');
  if (slash <= 0 || slash === raw.length - 1) {
    throw new UsageError(`model "${raw}" must look like PROVIDER/MODEL (known providers: ${knownList()})`);
  }
  return { raw, provider: raw.slice(0, slash).toLowerCase(), model: raw.slice(slash + 1) };
}

export function resolveModel(input: ResolveModelInput, env: Record<string, string | undefined>): ModelConfig {
  const { raw, provider, model } = splitModelId(input.model);

  if (provider === 'builtin') {
    if (model === 'autopilot' || model === 'random') {
      const builtin: BuiltinModelConfig = { id: `builtin/${model}`, builtin: model };
      return builtin;
    }
    throw new UsageError(`unknown built-in model "${model}": use builtin/autopilot or builtin/random`);
  }
  const preset = PRESETS[provider];
  if (!preset)
    throw new UsageError(`unknown provider "${provider}" in --model ${raw}; known providers: ${knownList()}`);

  const baseUrl = normaliseBaseUrl(input.baseUrl?.trim() || preset.baseUrl);
  if (!baseUrl)
    throw new UsageError(
      `custom/${model} needs --base-url URL (an OpenAI-compatible endpoint, e.g. http://host:port/v1)`,
    );

  const { apiKeyEnv, apiKey } = resolveApiKey({ input, preset, provider, env });

  // A custom endpoint on this machine counts as local (free, fail fast when it is not running).
  const local = preset.local || (provider === 'custom' && isLoopbackUrl(baseUrl));
  const config: RemoteModelConfig = { id: `${provider}/${model}`, provider, model, baseUrl, local };
  if (apiKey) config.apiKey = apiKey;
  if (apiKeyEnv) config.apiKeyEnv = apiKeyEnv;
  if (input.price !== undefined && input.price.trim() !== '') config.price = parsePrice(input.price);
  return config;
}

/** The variable the API key is read from (--api-key-env, else the preset's) and its value; an error when a key the
 * provider needs is missing. */
function resolveApiKey(options: {
  input: ResolveModelInput;
  preset: Preset;
  provider: string;
  env: Record<string, string | undefined>;
}): { apiKeyEnv: string | undefined; apiKey: string | undefined } {
  const { input, preset, provider, env } = options;
  const apiKeyEnv = input.apiKeyEnv?.trim() || preset.apiKeyEnv;
  if (apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv)) {
    throw new UsageError(`--api-key-env "${apiKeyEnv}" is not a valid environment variable name`);
  }
  const apiKey = apiKeyEnv ? env[apiKeyEnv]?.trim() || undefined : undefined;
  // A key is required for the hosted presets; custom endpoints and local servers may run without one.
  if (!apiKey && apiKeyEnv && !preset.local && provider !== 'custom') {
    throw new FatalError('missing_key', `${preset.label} needs an API key: set ${apiKeyEnv} (export ${apiKeyEnv}=...)`);
  }
  if (!apiKey && input.apiKeyEnv && provider === 'custom') {
    throw new FatalError('missing_key', `--api-key-env names ${apiKeyEnv}, but it is not set: export ${apiKeyEnv}=...`);
  }
  return { apiKeyEnv, apiKey };
}

/** "IN,OUT[,CACHED]" → Price; non-negative numbers, USD per million tokens. Without CACHED, cached prompt tokens
 * are billed at IN (no discount is assumed for a price we were not told). */
export function parsePrice(text: string): Price {
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  const [inPerM, outPerM, cachedPerM] = numbers;
  if (
    (parts.length !== 2 && parts.length !== 3) ||
    inPerM === undefined ||
    outPerM === undefined ||
    numbers.some((n) => !Number.isFinite(n) || n < 0) ||
    parts.some((p) => p === '')
  ) {
    throw new UsageError(
      `--price "${text}" must be IN,OUT[,CACHED] in USD per million tokens, e.g. --price 0.15,0.60 or --price 2.5,10,1.25`,
    );
  }
  return cachedPerM === undefined ? { inPerM, outPerM } : { inPerM, outPerM, cachedPerM };
}

function normaliseBaseUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--base-url "${url}" is not a URL (expected e.g. http://127.0.0.1:11434/v1)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`--base-url "${url}" must be http:// or https://`);
  }
  return url;
}

/** How to say where a server is and how to start it, for "cannot reach" errors. */
export function localServerHint(config: RemoteModelConfig): { label: string; startHint?: string } {
  const preset = PRESETS[config.provider];
  return { label: preset?.label ?? config.provider, ...(preset?.startHint ? { startHint: preset.startHint } : {}) };
}

/** True when the base URL points at this machine (used when a custom endpoint is local). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}

/**
 * Whether a stored model id (PROVIDER/MODEL, as sessions keep it) has a known cost: built-in models and local
 * servers are free, the rest need a price in the table. A `--price` given at play time is not stored: a priced run
 * shows its cost anyway, since only a zero cost is in question.
 */
export function storedModelPriced(id: string, baseUrl?: string): boolean {
  const slash = id.indexOf('/');
  if (slash <= 0) return false;
  const provider = id.slice(0, slash).toLowerCase();
  if (provider === 'builtin') return true;
  const preset = PRESETS[provider];
  // As resolveModel decides: a custom endpoint on this machine (the session's stored base URL) is local, so free.
  const local = (preset?.local ?? false) || (provider === 'custom' && baseUrl !== undefined && isLoopbackUrl(baseUrl));
  return priceFor({ model: id.slice(slash + 1), local }).priced;
}

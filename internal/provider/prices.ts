// Price table and cost math. USD per million tokens (list prices, late 2025); a `--price IN,OUT[,CACHED]` override wins.
// Cached prompt tokens (a provider's cache reads) are billed at the model's own cached rate, `cachedPerM`, from the
// provider's pricing page: OpenAI gpt-4o family 50 % of input, gpt-4.1 / o3 / o4-mini 25 %, o3-mini 50 %, gpt-5
// family 10 %; Anthropic cache reads 10 %; DeepSeek cache hits ~25 % (at the rates of the same list as the in/out
// prices here). OpenRouter bills a routed model at its provider's rates. Where no cached rate is known (Groq's and
// OpenRouter's open models, Qwen) the entry has none and cached tokens are billed at the input price: no discount is
// assumed that was not published. Local servers cost 0. An unknown remote model costs 0 and is reported
// `priced: false` so the UI can say "cost unknown" instead of pretending it was free.
import type { Price, RemoteModelConfig } from './models.js';

/** Keys are lower-case model names without the provider prefix; matched exactly, then by longest prefix. */
const PRICE_TABLE: Record<string, Price> = {
  'gpt-4o': { inPerM: 2.5, outPerM: 10, cachedPerM: 1.25 },
  'gpt-4o-mini': { inPerM: 0.15, outPerM: 0.6, cachedPerM: 0.075 },
  'gpt-4.1': { inPerM: 2, outPerM: 8, cachedPerM: 0.5 },
  'gpt-4.1-mini': { inPerM: 0.4, outPerM: 1.6, cachedPerM: 0.1 },
  'gpt-4.1-nano': { inPerM: 0.1, outPerM: 0.4, cachedPerM: 0.025 },
  o3: { inPerM: 2, outPerM: 8, cachedPerM: 0.5 },
  'o3-mini': { inPerM: 1.1, outPerM: 4.4, cachedPerM: 0.55 },
  'o4-mini': { inPerM: 1.1, outPerM: 4.4, cachedPerM: 0.275 },
  'gpt-5': { inPerM: 1.25, outPerM: 10, cachedPerM: 0.125 },
  'gpt-5-mini': { inPerM: 0.25, outPerM: 2, cachedPerM: 0.025 },
  'gpt-5-nano': { inPerM: 0.05, outPerM: 0.4, cachedPerM: 0.005 },
  'claude-sonnet-4': { inPerM: 3, outPerM: 15, cachedPerM: 0.3 },
  'claude-sonnet-4-5': { inPerM: 3, outPerM: 15, cachedPerM: 0.3 },
  'claude-3-7-sonnet': { inPerM: 3, outPerM: 15, cachedPerM: 0.3 },
  'claude-3-5-sonnet': { inPerM: 3, outPerM: 15, cachedPerM: 0.3 },
  'claude-haiku-4-5': { inPerM: 1, outPerM: 5, cachedPerM: 0.1 },
  'claude-3-5-haiku': { inPerM: 0.8, outPerM: 4, cachedPerM: 0.08 },
  'claude-opus-4': { inPerM: 15, outPerM: 75, cachedPerM: 1.5 },
  // No published cached rate: cached tokens billed at the input price.
  'llama-3.1-8b-instant': { inPerM: 0.05, outPerM: 0.08 },
  'llama-3.3-70b-versatile': { inPerM: 0.59, outPerM: 0.79 },
  'meta-llama/llama-3.1-8b-instruct': { inPerM: 0.02, outPerM: 0.03 },
  'meta-llama/llama-3.3-70b-instruct': { inPerM: 0.13, outPerM: 0.4 },
  'deepseek-chat': { inPerM: 0.27, outPerM: 1.1, cachedPerM: 0.07 },
  'deepseek-reasoner': { inPerM: 0.55, outPerM: 2.19, cachedPerM: 0.14 },
  // OpenRouter routes DeepSeek to several hosts whose cache pricing differs: no cached rate assumed.
  'deepseek/deepseek-chat': { inPerM: 0.27, outPerM: 1.1 },
  'deepseek/deepseek-r1': { inPerM: 0.55, outPerM: 2.19 },
  'qwen/qwen3-32b': { inPerM: 0.29, outPerM: 0.59 },
  'qwen/qwen-2.5-72b-instruct': { inPerM: 0.12, outPerM: 0.39 },
  'qwen/qwen3-235b-a22b': { inPerM: 0.13, outPerM: 0.6 },
  'openai/gpt-4o-mini': { inPerM: 0.15, outPerM: 0.6, cachedPerM: 0.075 },
  'openai/gpt-4o': { inPerM: 2.5, outPerM: 10, cachedPerM: 1.25 },
  'openai/gpt-4.1-mini': { inPerM: 0.4, outPerM: 1.6, cachedPerM: 0.1 },
  'openai/gpt-5-mini': { inPerM: 0.25, outPerM: 2, cachedPerM: 0.025 },
  'anthropic/claude-sonnet-4': { inPerM: 3, outPerM: 15, cachedPerM: 0.3 },
  'anthropic/claude-haiku-4.5': { inPerM: 1, outPerM: 5, cachedPerM: 0.1 },
};

export interface PriceLookup {
  price: Price;
  /** false when the model is remote and neither the table nor `--price` knows it (its cost shows as unknown). */
  priced: boolean;
}

/** Looks a model's price up: `--price` override, local = free, the table (exact, then dated variants), else unknown. */
export function priceFor(config: Pick<RemoteModelConfig, 'model' | 'local' | 'price'>): PriceLookup {
  if (config.price) return { price: config.price, priced: true };
  if (config.local) return { price: { inPerM: 0, outPerM: 0 }, priced: true };
  const name = config.model.toLowerCase();
  const exact = PRICE_TABLE[name];
  if (exact) return { price: exact, priced: true };
  // Dated or suffixed variants ("gpt-4o-mini-2024-07-18", "claude-sonnet-4-20250514", "…:free" excluded below).
  if (name.endsWith(':free')) return { price: { inPerM: 0, outPerM: 0 }, priced: true };
  const prefix = Object.keys(PRICE_TABLE)
    .filter((key) => name.startsWith(`${key}-`) && /^-(\d{4}|\d{8}|latest|preview)/.test(name.slice(key.length)))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix) return { price: PRICE_TABLE[prefix] as Price, priced: true };
  return { price: { inPerM: 0, outPerM: 0 }, priced: false };
}

/** The rate a cached prompt token is billed at: the model's cached rate, else its input price (no discount known). */
export function cachedRate(price: Price): number {
  return price.cachedPerM ?? price.inPerM;
}

/** USD for one call. Cached tokens are part of promptTokens and billed at the model's cached rate. */
export function costUsd(
  tokens: { promptTokens: number; completionTokens: number; cachedTokens?: number },
  price: Price,
): number {
  const cached = Math.min(tokens.cachedTokens ?? 0, tokens.promptTokens);
  const fresh = tokens.promptTokens - cached;
  return (fresh * price.inPerM + cached * cachedRate(price) + tokens.completionTokens * price.outPerM) / 1_000_000;
}

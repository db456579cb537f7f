// Token counting for the context builder: a real BPE tokenizer for OpenAI-family models, chars/4 for every other one.
// A session picks its TokenCounter once from the model id (tokenCounterFor) and hands it to each turn; nothing here is
// global. The counter remembers the counts of the texts it has seen, so a round re-counts only what is new.
//
// Library: gpt-tokenizer (MIT, no dependencies, ESM + CJS builds with .d.ts, ships o200k_base and cl100k_base, works
// offline), chosen over js-tiktoken 1.0.21 on figures measured here (Node 20, 2 shared cores, 100 KB of mixed prose,
// JSON and TypeScript, medians of 5 runs, both giving the same counts: 28,444 o200k / 28,470 cl100k tokens):
//   import (load the ranks)            o200k: ~330 ms vs ~1,660 ms;  cl100k: ~175 ms vs ~850 ms
//   first count of 100 KB              o200k: ~65 ms  vs ~195 ms;    cl100k: ~50 ms  vs ~120 ms
//   count 100 KB (warm)                o200k: ~24 ms  vs ~107 ms;    cl100k: ~23 ms  vs ~99 ms
//   process RSS after                  o200k: ~130 MB vs ~217 MB
// It is bigger on disk (30 MB unpacked against 22 MB: it ships src, ESM and CJS copies), which costs nothing at run
// time. Both throw on special-token text ("<|endoftext|>") by default; game chat may hold anything, so special tokens
// are counted as the plain text the API treats them as.
//
// The encoding loads lazily and synchronously (its CJS build through createRequire) on the first count, so
// `skipper --help`, builtin captains and non-OpenAI models never pay its load time; Node's module cache shares it
// between counters.
import { createRequire } from 'node:module';
import { MODEL_IMAGE_TOKENS, type Message } from '../shared/index.js';
import { estimateMessageTokens, estimateTextTokens } from './tokens.js';

export type TokenEncoding = 'o200k_base' | 'cl100k_base';

export interface TokenCounter {
  /** The tokenizer's encoding, or 'chars/4' for the estimate. */
  readonly encoding: TokenEncoding | 'chars/4';
  text(text: string): number;
  message(message: Message): number;
  messages(messages: readonly Message[]): number;
}

/** chars/4 (see tokens.ts): the fallback for models whose tokenizer we do not ship, and the scripted/builtin ones. */
export const ESTIMATE_COUNTER: TokenCounter = {
  encoding: 'chars/4',
  text: estimateTextTokens,
  message: estimateMessageTokens,
  messages: (messages) => sum(messages, estimateMessageTokens),
};

// Matched anywhere in the id after a separator, so provider prefixes ("openai/", "openrouter/openai/", "azure/")
// and deployment names ("prod-gpt4o") do not matter; o200k is tried first (gpt-4o would otherwise match gpt-4).
const O200K = /(?:^|[^a-z0-9.])(?:chatgpt-4o|gpt-?4o|gpt-?4\.1|gpt-?4\.5|gpt-?5|gpt-oss|o[1-9])(?![0-9])/;
const CL100K = /(?:^|[^a-z0-9.])(?:gpt-?4|gpt-?3\.5|gpt-?35|text-embedding-(?:3|ada))(?![0-9])/;

/** The encoding an OpenAI-family model id uses; undefined for other models (they get chars/4). */
export function encodingForModel(modelId: string): TokenEncoding | undefined {
  const id = modelId.trim().toLowerCase();
  if (O200K.test(id)) return 'o200k_base';
  if (CL100K.test(id)) return 'cl100k_base';
  return undefined;
}

/** The counter for a session's model: the real tokenizer for OpenAI-family ids, chars/4 otherwise. */
export function tokenCounterFor(modelId: string | undefined): TokenCounter {
  const encoding = modelId === undefined ? undefined : encodingForModel(modelId);
  return encoding ? createTokenCounter(encoding) : ESTIMATE_COUNTER;
}

/** Per-message overhead (role, separators) of the chat format; each tool call adds its own. */
const MESSAGE_OVERHEAD = 4;
const CALL_OVERHEAD = 3;
// Every text is remembered, short ones too: a call's id, name and arguments cost one encoder call each, and a window
// of ~150 messages re-counted each round ran ~2 ms with only long texts cached against ~1 ms with all (chars/4: ~1 ms).
const CACHE_MAX_ENTRIES = 8192;
const CACHE_MAX_CHARS = 8_000_000;

interface Encoder {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

/** A counter on a real encoding (e.g. the bench's independent count). The encoding loads on the first count. */
export function createTokenCounter(encoding: TokenEncoding): TokenCounter {
  let encoder: Encoder | undefined;
  const plainText = { disallowedSpecial: new Set<string>() };
  // Least recently used first (Map keeps insertion order; a hit is moved to the end).
  const cache = new Map<string, number>();
  let cachedChars = 0;

  const encode = (text: string): number => {
    encoder ??= loadEncoder(encoding);
    return encoder.countTokens(text, plainText);
  };
  const text = (value: string): number => {
    if (value.length === 0) return 0;
    const known = cache.get(value);
    if (known !== undefined) {
      cache.delete(value);
      cache.set(value, known);
      return known;
    }
    const count = encode(value);
    cache.set(value, count);
    cachedChars += value.length;
    while (cache.size > CACHE_MAX_ENTRIES || cachedChars > CACHE_MAX_CHARS) {
      const oldest = cache.keys().next().value as string;
      cache.delete(oldest);
      cachedChars -= oldest.length;
    }
    return count;
  };
  const message = (value: Message): number => {
    let tokens = MESSAGE_OVERHEAD + text(value.content);
    for (const call of value.toolCalls ?? [])
      tokens += CALL_OVERHEAD + text(call.name) + text(call.arguments) + text(call.id);
    if (value.toolCallId) tokens += text(value.toolCallId);
    for (const part of value.parts ?? []) {
      if (part.type === 'image' && part.data) tokens += MODEL_IMAGE_TOKENS;
    }
    return tokens;
  };
  return { encoding, text, message, messages: (messages) => sum(messages, message) };
}

function loadEncoder(encoding: TokenEncoding): Encoder {
  const require = createRequire(import.meta.url);
  return require(`gpt-tokenizer/cjs/encoding/${encoding}`) as Encoder;
}

function sum(messages: readonly Message[], count: (message: Message) => number): number {
  let total = 0;
  for (const message of messages) total += count(message);
  return total;
}

// Model providers behind one interface: the OpenAI-compatible provider (openai SDK over undici), model resolution,
// prices and the retry helper. The built-in autopilot lives in ./builtin; the scripted provider for tests lives in
// test/fakes/scripted-provider.ts.
export {
  resolveModel,
  parsePrice,
  isBuiltinModel,
  storedModelPriced,
  KNOWN_PROVIDERS,
  PRESET_API_KEY_VARIABLES,
} from './models.js';
export type { ModelConfig, RemoteModelConfig, BuiltinModelConfig, ResolveModelInput, Price } from './models.js';
export { createOpenAIProvider, DEFAULT_STREAM_IDLE_TIMEOUT_MS, DEFAULT_TIMEOUTS } from './openai-provider.js';
export type { OpenAIProvider, OpenAIProviderOptions, ProviderUsage, Timeouts } from './openai-provider.js';
export { toChatRequest, estimatePromptTokens } from './openai-request.js';
export type { ChatRequestOptions } from './openai-request.js';
export { fromChatResponse, StreamAccumulator, finaliseToolCalls, readUsage } from './openai-mapping.js';
export type { MappedReply, WireUsage } from './openai-mapping.js';
export { extractTextToolCalls } from './text-tool-calls.js';
export type { TextToolCall, ExtractedToolCalls } from './text-tool-calls.js';
export { priceFor, costUsd, cachedRate } from './prices.js';
export { contextWindowFor } from './context-windows.js';
export { acceptsImages } from './vision.js';
export type { PriceLookup } from './prices.js';
export { withRetry, backoffDelay, parseRetryAfter, RetriesExhausted, DEFAULT_RETRY } from './retry.js';
export type { RetryPolicy, RetryOptions, RetryDecision } from './retry.js';
export { createProvider } from './create-provider.js';
export { canAutopilot, type CanAutopilot } from './builtin/index.js';
export type { CreateProviderOptions } from './create-provider.js';

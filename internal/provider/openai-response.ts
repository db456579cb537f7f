// From a reply read off the wire to the CompletionResponse the loop gets: <think> blocks split off, missing tool-call
// ids made, tool calls written as text recovered, usage taken from the server or estimated (chars/4) and priced.
import {
  MODEL_REPLY_MAX_CHARS,
  truncateHeadTail,
  type CompletionRequest,
  type CompletionResponse,
  type ToolCall,
  type Usage,
} from '../shared/index.js';
import type { RemoteModelConfig } from './models.js';
import { finaliseToolCalls, splitThinkTags, type MappedReply } from './openai-mapping.js';
import { estimatePromptTokens } from './openai-request.js';
import { costUsd, type priceFor } from './prices.js';
import { extractTextToolCalls } from './text-tool-calls.js';

/** Usage with two flags the UI needs: `estimated` (server sent none; ≈ chars/4) and `priced` (cost known). */
export type ProviderUsage = Usage & { estimated: boolean; priced: boolean };

export interface ToResponseInput {
  reply: MappedReply;
  request: CompletionRequest;
  config: RemoteModelConfig;
  price: ReturnType<typeof priceFor>;
  /** What was sent, for the prompt estimate when the server reports no usage. */
  body: Parameters<typeof estimatePromptTokens>[0];
}

export function toResponse(input: ToResponseInput): CompletionResponse {
  const { reply, request, config, price, body } = input;
  const think = splitThinkTags(reply.content);
  let content = think.content;
  const reasoning = [reply.reasoning, think.reasoning].filter(Boolean).join('\n') || undefined;
  let toolCalls = finaliseToolCalls(reply.toolCalls);
  if (toolCalls.length === 0 && content.trim() !== '' && request.tools.length > 0) {
    const extracted = extractTextToolCalls(
      content,
      request.tools.map((tool) => tool.name),
    );
    if (extracted.toolCalls.length > 0) {
      toolCalls = finaliseToolCalls(extracted.toolCalls);
      content = extracted.content;
    }
  }
  const estimated = reply.usage === undefined;
  const tokens = reply.usage ?? {
    promptTokens: estimatePromptTokens(body),
    completionTokens: Math.ceil(
      (reply.content.length +
        (reply.reasoning?.length ?? 0) +
        reply.toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0)) /
        4,
    ),
    cachedTokens: 0,
  };
  const usage: ProviderUsage = {
    promptTokens: tokens.promptTokens,
    completionTokens: tokens.completionTokens,
    cachedTokens: tokens.cachedTokens,
    ...(tokens.reasoningTokens !== undefined ? { reasoningTokens: tokens.reasoningTokens } : {}),
    costUsd: costUsd(tokens, price.price),
    estimated,
    priced: price.priced,
  };
  const finishReason =
    toolCalls.length > 0 && (reply.finishReason === 'stop' || reply.finishReason === 'other')
      ? 'tool_calls'
      : reply.finishReason;
  const bounded = boundReply({ content, toolCalls, ...(reasoning ? { reasoning } : {}) });
  return {
    message: bounded,
    usage,
    finishReason,
    model: reply.model ?? config.model,
  };
}

/**
 * A reply as stored and sent back: its text, its reasoning and each call's arguments at most MODEL_REPLY_MAX_CHARS,
 * head and tail kept with a marker (a model that runs on for megabytes must not fill the store and every later
 * request). Arguments cut so are no longer JSON: the call is answered `invalid_arguments`, which the model reads.
 */
export function boundReply(message: { content: string; toolCalls: ToolCall[]; reasoning?: string }): {
  content: string;
  toolCalls: ToolCall[];
  reasoning?: string;
} {
  const bound = (text: string): string => truncateHeadTail(text, MODEL_REPLY_MAX_CHARS);
  return {
    content: bound(message.content),
    toolCalls: message.toolCalls.map((call) =>
      call.arguments.length > MODEL_REPLY_MAX_CHARS ? { ...call, arguments: bound(call.arguments) } : call,
    ),
    ...(message.reasoning !== undefined ? { reasoning: bound(message.reasoning) } : {}),
  };
}

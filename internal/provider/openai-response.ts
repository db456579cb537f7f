// From a reply read off the wire to the CompletionResponse the loop gets: <think> blocks split off, missing tool-call
// ids made, tool calls written as text recovered, usage taken from the server or estimated (chars/4) and priced.
import type { CompletionRequest, CompletionResponse, Usage } from '../shared/index.js';
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
  return {
    message: { content, toolCalls, ...(reasoning ? { reasoning } : {}) },
    usage,
    finishReason,
    model: reply.model ?? config.model,
  };
}

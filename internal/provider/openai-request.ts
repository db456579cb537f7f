// The request side of the OpenAI chat-completions mapping: our Message/ToolSpec shapes to the wire body
// (`toChatRequest`), tool-result images for vision models, history sanitised for strict servers, and a rough prompt
// size for servers that report no usage. Pure functions; the SDK's param types stop here.
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { MAX_MODEL_IMAGE_BYTES, MODEL_IMAGE_TOKENS, type Message, type ToolSpec } from '../shared/index.js';

export interface ChatRequestOptions {
  /** The model accepts images: the current turn's tool-result images are sent after their tool messages. */
  vision?: boolean;
}

export function toChatRequest(
  messages: readonly Message[],
  tools: readonly ToolSpec[],
  model: string,
  options: ChatRequestOptions = {},
): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = {
    model,
    messages: options.vision ? withToolImages(messages) : messages.map(toWireMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  // An empty `tools` array is rejected by several servers; leave the key out instead.
  if (tools.length > 0) body.tools = tools.map(toWireTool);
  return body;
}

/**
 * The wire messages with images. Chat tool messages carry text only, so after the run of tool messages that answer
 * one assistant message comes one user message holding that run's images (a user message may follow tool results;
 * the next assistant message then answers both). Only the current turn's images (after the last user message) are
 * sent: older ones stay one-line descriptions, so a long session does not resend every picture every round.
 */
function withToolImages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const wire: ChatCompletionMessageParam[] = [];
  let callIds: string[] = [];
  let images: ChatCompletionContentPart[] = [];
  messages.forEach((message, index) => {
    wire.push(toWireMessage(message));
    if (index > lastUser && message.role === 'tool' && message.toolCallId !== undefined) {
      const urls = sendableImages(message).map((url): ChatCompletionContentPart => ({
        type: 'image_url',
        image_url: { url },
      }));
      if (urls.length > 0) {
        callIds.push(message.toolCallId);
        images.push(...urls);
      }
    }
    const next = messages[index + 1];
    const runEnds = next === undefined || next.role !== 'tool' || next.toolCallId === undefined;
    if (runEnds && images.length > 0) {
      wire.push({
        role: 'user',
        content: [
          { type: 'text', text: `Images from the tool results above (call ids ${callIds.join(', ')}):` },
          ...images,
        ],
      });
      callIds = [];
      images = [];
    }
  });
  return wire;
}

/** Data URLs of a tool message's images that may be shown (bytes kept and within the cap, checked again here). */
function sendableImages(message: Message): string[] {
  const urls: string[] = [];
  for (const part of message.parts ?? []) {
    if (part.type !== 'image' || !part.data || part.bytes > MAX_MODEL_IMAGE_BYTES) continue;
    if (part.data.length > Math.ceil(MAX_MODEL_IMAGE_BYTES / 3) * 4) continue;
    urls.push(`data:${part.mimeType};base64,${part.data}`);
  }
  return urls;
}

/** A rough prompt size for servers that report no usage: text at chars/4, each image at MODEL_IMAGE_TOKENS. */
export function estimatePromptTokens(body: Pick<ChatCompletionCreateParamsStreaming, 'messages' | 'tools'>): number {
  let images = 0;
  const text = JSON.stringify(body.messages, (key, value: unknown) => {
    if (key === 'image_url') {
      images += 1;
      return undefined;
    }
    return value;
  });
  return (
    Math.ceil(text.length / 4) + Math.ceil(JSON.stringify(body.tools ?? []).length / 4) + images * MODEL_IMAGE_TOKENS
  );
}

function toWireMessage(message: Message): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // With tool calls, an empty answer is sent as null (what OpenAI itself returns), not as an empty text part.
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: wireName(call.name), arguments: wireArguments(call.arguments) },
        })),
      };
    }
    case 'tool':
      if (message.toolCallId === undefined) {
        // Cannot be sent as a tool message without its call id; keep the information as plain user text.
        return { role: 'user', content: `[result of ${message.toolName ?? 'a tool'}]\n${message.content}` };
      }
      // Some servers reject empty tool content.
      return {
        role: 'tool',
        tool_call_id: message.toolCallId,
        content: message.content === '' ? '(no output)' : message.content,
      };
  }
}

/**
 * Tool names as sent back in the history. A call the model made with an empty or odd name is kept in our store as
 * is (the loop answered it with an error); on the wire it must still pass strict servers' name pattern.
 */
function wireName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return clean === '' ? 'unnamed_tool' : clean;
}

/**
 * Arguments as sent back in the history. Malformed JSON (kept raw in our store, and answered by the loop with an
 * error result that quotes it) is sent as "{}": strict servers reject history whose arguments do not parse.
 */
function wireArguments(text: string): string {
  if (text.trim() === '') return '{}';
  try {
    JSON.parse(text);
    return text;
  } catch {
    return '{}';
  }
}

function toWireTool(tool: ToolSpec): ChatCompletionTool {
  const parameters = { ...tool.inputSchema };
  if (parameters.type === undefined) parameters.type = 'object';
  if (parameters.type === 'object' && parameters.properties === undefined) parameters.properties = {};
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
}

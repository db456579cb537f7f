// Pure mapping between our Message/ToolSpec/ToolCall shapes and the OpenAI chat-completions wire format, both
// ways: `toChatRequest` builds the request body; `fromChatResponse` reads a plain JSON reply; `StreamAccumulator`
// assembles a streamed reply from SSE chunks (text, reasoning, tool calls by index, usage). Replies are read as
// untrusted JSON (servers differ), so nothing here trusts the SDK's response types.
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { MAX_MODEL_IMAGE_BYTES, MODEL_IMAGE_TOKENS, type FinishReason, type Message, type StreamDelta, type ToolCall, type ToolSpec } from '../shared/index.js';

export interface WireUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens?: number;
}

/** A reply read off the wire, before tool-call clean-up and cost. */
export interface MappedReply {
  content: string;
  reasoning?: string;
  /** Raw calls: ids and names may be missing or empty here; `finaliseToolCalls` fixes them. */
  toolCalls: Array<{ id?: string; name: string; arguments: string }>;
  finishReason: FinishReason;
  /** Whether the server sent any finish_reason at all (a stream that never does was probably cut). */
  finished: boolean;
  model?: string;
  usage?: WireUsage;
}

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
      const urls = sendableImages(message).map((url): ChatCompletionContentPart => ({ type: 'image_url', image_url: { url } }));
      if (urls.length > 0) {
        callIds.push(message.toolCallId);
        images.push(...urls);
      }
    }
    const next = messages[index + 1];
    const runEnds = next === undefined || next.role !== 'tool' || next.toolCallId === undefined;
    if (runEnds && images.length > 0) {
      wire.push({ role: 'user', content: [{ type: 'text', text: `Images from the tool results above (call ids ${callIds.join(', ')}):` }, ...images] });
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
  return Math.ceil(text.length / 4) + Math.ceil(JSON.stringify(body.tools ?? []).length / 4) + images * MODEL_IMAGE_TOKENS;
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
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content === '' ? '(no output)' : message.content };
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

export function mapFinishReason(reason: unknown): FinishReason {
  switch (reason) {
    case 'stop':
    case 'tool_calls':
    case 'length':
    case 'content_filter':
      return reason;
    case 'function_call':
      return 'tool_calls';
    default:
      return 'other';
  }
}

export function readUsage(raw: unknown): WireUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const prompt = numberOr(raw.prompt_tokens, numberOr(raw.input_tokens, undefined));
  const completion = numberOr(raw.completion_tokens, numberOr(raw.output_tokens, undefined));
  if (prompt === undefined && completion === undefined) return undefined;
  const promptDetails = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const completionDetails = isRecord(raw.completion_tokens_details) ? raw.completion_tokens_details : {};
  const usage: WireUsage = {
    promptTokens: prompt ?? 0,
    completionTokens: completion ?? 0,
    cachedTokens: numberOr(promptDetails.cached_tokens, 0) ?? 0,
  };
  const reasoning = numberOr(completionDetails.reasoning_tokens, undefined);
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/** Reads a non-streamed chat completion (servers that ignore `stream: true` answer this way). */
export function fromChatResponse(raw: unknown): MappedReply {
  if (!isRecord(raw) || !Array.isArray(raw.choices)) throw new TypeError('response has no choices');
  const choice: unknown = raw.choices[0];
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : {};
  const toolCalls = Array.isArray(message.tool_calls)
    ? message.tool_calls.filter(isRecord).map((call) => {
        const fn = isRecord(call.function) ? call.function : {};
        return {
          ...(typeof call.id === 'string' && call.id !== '' ? { id: call.id } : {}),
          name: typeof fn.name === 'string' ? fn.name : '',
          arguments: argumentsText(fn.arguments),
        };
      })
    : [];
  const reasoning = textOf(message.reasoning_content) || textOf(message.reasoning);
  const reply: MappedReply = {
    content: textOf(message.content),
    toolCalls,
    finishReason: mapFinishReason(isRecord(choice) ? choice.finish_reason : undefined),
    finished: isRecord(choice) && typeof choice.finish_reason === 'string',
  };
  if (reasoning) reply.reasoning = reasoning;
  if (typeof raw.model === 'string') reply.model = raw.model;
  const usage = readUsage(raw.usage);
  if (usage) reply.usage = usage;
  return reply;
}

interface PartialCall {
  id?: string;
  name: string;
  arguments: string;
}

/** Assembles a streamed reply. `push` returns the deltas to hand to the UI, in arrival order. */
export class StreamAccumulator {
  private content = '';
  private reasoning = '';
  private readonly calls = new Map<number, PartialCall>();
  private finishReason: FinishReason = 'other';
  private finished = false;
  private model: string | undefined;
  private usage: WireUsage | undefined;

  push(chunk: unknown): StreamDelta[] {
    if (!isRecord(chunk)) return [];
    const deltas: StreamDelta[] = [];
    if (typeof chunk.model === 'string' && chunk.model !== '') this.model = chunk.model;
    const usage = readUsage(chunk.usage);
    if (usage) this.usage = usage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      if (!isRecord(choice)) continue;
      if (typeof choice.index === 'number' && choice.index !== 0) continue; // we only ever ask for one choice
      const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};
      const reasoning = textOf(delta.reasoning_content) || textOf(delta.reasoning);
      if (reasoning) {
        this.reasoning += reasoning;
        deltas.push({ kind: 'reasoning', text: reasoning });
      }
      const text = textOf(delta.content);
      if (text) {
        this.content += text;
        deltas.push({ kind: 'text', text });
      }
      if (Array.isArray(delta.tool_calls)) {
        for (const raw of delta.tool_calls) {
          if (isRecord(raw)) deltas.push(this.pushToolCall(raw));
        }
      }
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
        this.finishReason = mapFinishReason(choice.finish_reason);
        this.finished = true;
      }
    }
    return deltas;
  }

  private pushToolCall(raw: Record<string, unknown>): StreamDelta {
    const fn = isRecord(raw.function) ? raw.function : {};
    const id = typeof raw.id === 'string' && raw.id !== '' ? raw.id : undefined;
    const index = typeof raw.index === 'number' ? raw.index : this.indexWithoutIndex(id);
    const name = typeof fn.name === 'string' ? fn.name : undefined;
    const argumentsDelta = fn.arguments === undefined || fn.arguments === null ? undefined : argumentsText(fn.arguments);
    const call = this.calls.get(index) ?? { name: '', arguments: '' };
    if (id && !call.id) call.id = id;
    // OpenAI sends the name once; some servers repeat it on every chunk, so an identical repeat is not appended.
    if (name && name !== call.name) call.name = call.name === '' ? name : call.name + name;
    if (argumentsDelta) call.arguments += argumentsDelta;
    this.calls.set(index, call);
    const delta: StreamDelta = { kind: 'tool-call', index };
    if (id) delta.id = id;
    if (name) delta.name = name;
    if (argumentsDelta) delta.argumentsDelta = argumentsDelta;
    return delta;
  }

  /** Servers that omit `index`: a new id starts a new call, otherwise the delta continues the last one. */
  private indexWithoutIndex(id: string | undefined): number {
    const last = Math.max(-1, ...this.calls.keys());
    if (last < 0) return 0;
    if (id && this.calls.get(last)?.id !== undefined && this.calls.get(last)?.id !== id) return last + 1;
    return last;
  }

  /** True once anything (text, reasoning or a tool call) has arrived. */
  get hasOutput(): boolean {
    return this.content !== '' || this.reasoning !== '' || this.calls.size > 0;
  }

  finish(): MappedReply {
    const reply: MappedReply = {
      content: this.content,
      toolCalls: [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => ({ ...call })),
      finishReason: this.finishReason,
      finished: this.finished,
    };
    if (this.reasoning) reply.reasoning = this.reasoning;
    if (this.model) reply.model = this.model;
    if (this.usage) reply.usage = this.usage;
    return reply;
  }
}

/**
 * Makes raw calls safe to store and send back: missing ids get `call_<random>` (duplicates too), calls with no
 * name and no arguments are dropped, calls with arguments but no name are kept with name '' (the loop answers
 * them with an error result), arguments stay raw even when they are not JSON.
 */
export function finaliseToolCalls(calls: MappedReply['toolCalls'], makeId: () => string = randomCallId): ToolCall[] {
  const seen = new Set<string>();
  const out: ToolCall[] = [];
  for (const call of calls) {
    const name = call.name.trim();
    if (name === '' && call.arguments.trim() === '') continue;
    let id = call.id?.trim() || makeId();
    while (seen.has(id)) id = makeId();
    seen.add(id);
    out.push({ id, name, arguments: call.arguments.trim() === '' ? '{}' : call.arguments });
  }
  return out;
}

export function randomCallId(): string {
  return `call_${Math.random().toString(36).slice(2, 10)}${Math.random().toString(36).slice(2, 10)}`;
}

/** Splits a leading `<think>…</think>` block (Qwen3, DeepSeek-R1 on some servers) off the answer. */
export function splitThinkTags(content: string): { content: string; reasoning?: string } {
  const match = /^\s*<think>([\s\S]*?)(?:<\/think>|$)\s*/.exec(content);
  if (!match) return { content };
  const reasoning = (match[1] ?? '').trim();
  return { content: content.slice(match[0].length), ...(reasoning ? { reasoning } : {}) };
}

function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  // Some servers send content as an array of parts.
  if (Array.isArray(value)) return value.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

function numberOr<T>(value: unknown, fallback: T): number | T {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

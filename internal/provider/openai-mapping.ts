// The reply side of the OpenAI chat-completions mapping: `fromChatResponse` reads a plain JSON reply;
// `StreamAccumulator` assembles a streamed reply from the SDK's chunks (text, reasoning, tool calls by index, usage);
// `finaliseToolCalls` and `splitThinkTags` clean a reply up. Replies are read as untrusted JSON (servers differ), so
// nothing here trusts the SDK's response types. The request side is in openai-request.ts.
import { isRecord, type FinishReason, type StreamDelta, type ToolCall } from '../shared/index.js';

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
  const completionDetails = isRecord(raw.completion_tokens_details) ? raw.completion_tokens_details : {};
  const usage: WireUsage = {
    promptTokens: prompt ?? 0,
    completionTokens: completion ?? 0,
    cachedTokens: readCachedTokens(raw),
  };
  const reasoning = numberOr(completionDetails.reasoning_tokens, undefined);
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/**
 * Prompt tokens the provider served from its cache, in each shape servers report them: OpenAI (and OpenRouter, vLLM)
 * `prompt_tokens_details.cached_tokens`, the Responses API's `input_tokens_details.cached_tokens`, DeepSeek's
 * `prompt_cache_hit_tokens`. 0 when none is reported.
 */
function readCachedTokens(raw: Record<string, unknown>): number {
  const promptDetails = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const inputDetails = isRecord(raw.input_tokens_details) ? raw.input_tokens_details : {};
  return (
    numberOr(promptDetails.cached_tokens, undefined) ??
    numberOr(inputDetails.cached_tokens, undefined) ??
    numberOr(raw.prompt_cache_hit_tokens, undefined) ??
    0
  );
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
  /** Characters read so far: text, reasoning and tool-call arguments together. */
  private read = 0;
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
        this.read += reasoning.length;
        deltas.push({ type: 'reasoning', text: reasoning });
      }
      const text = textOf(delta.content);
      if (text) {
        this.content += text;
        this.read += text.length;
        deltas.push({ type: 'text', text });
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
    const argumentsDelta =
      fn.arguments === undefined || fn.arguments === null ? undefined : argumentsText(fn.arguments);
    const call = this.calls.get(index) ?? { name: '', arguments: '' };
    if (id && !call.id) call.id = id;
    // OpenAI sends the name once; some servers repeat it on every chunk, so an identical repeat is not appended.
    if (name && name !== call.name) call.name = call.name === '' ? name : call.name + name;
    if (argumentsDelta) call.arguments += argumentsDelta;
    this.read += argumentsDelta?.length ?? 0;
    this.calls.set(index, call);
    const delta: StreamDelta = { type: 'tool-call', index };
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

  /** Characters of text, reasoning and tool-call arguments read so far. */
  get chars(): number {
    return this.read;
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
  if (Array.isArray(value))
    return value.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

function numberOr<T>(value: unknown, fallback: T): number | T {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

// Builds what a real OpenAI-compatible server sends for a scripted reply: a plain chat.completion object, or the
// list of chat.completion.chunk objects of a stream (role chunk, reasoning and text pieces, tool calls split into
// name + argument pieces by index, finish chunk, then a usage chunk when asked for).

export interface FakeToolCall {
  /** null → the server omits the id (some local servers do). */
  id?: string | null;
  name: string;
  arguments?: Record<string, unknown> | string;
}

export interface FakeUsage {
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  reasoningTokens?: number;
}

export interface FakeReply {
  content?: string;
  reasoning?: string;
  /** Which field carries reasoning deltas (DeepSeek/vLLM use reasoning_content, OpenRouter/Ollama reasoning). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  toolCalls?: FakeToolCall[];
  finishReason?: string;
  /** false → send no usage even when include_usage was asked for. */
  usage?: FakeUsage | false;
  /** Characters per streamed piece (default 4). */
  chunkSize?: number;
  /** Wait between streamed chunks. */
  chunkDelayMs?: number;
  /** Omit `index` on tool-call deltas (some servers do). */
  omitToolCallIndex?: boolean;
}

type Json = Record<string, unknown>;

export interface WireContext {
  model: string;
  /** Serialized request messages, for a plausible prompt token count. */
  promptChars: number;
  callIdBase: string;
}

function toolCallId(call: FakeToolCall, index: number, context: WireContext): string | undefined {
  if (call.id === null) return undefined;
  return call.id ?? `${context.callIdBase}_${index}`;
}

function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
}

export function usageObject(reply: FakeReply, context: WireContext): Json | undefined {
  if (reply.usage === false) return undefined;
  const usage = reply.usage ?? {};
  const completionChars =
    (reply.content ?? '').length +
    (reply.reasoning ?? '').length +
    (reply.toolCalls ?? []).reduce((n, call) => n + call.name.length + argumentsText(call).length, 0);
  const prompt = usage.promptTokens ?? Math.ceil(context.promptChars / 4);
  const completion = usage.completionTokens ?? Math.max(1, Math.ceil(completionChars / 4));
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

function finishReason(reply: FakeReply): string {
  return reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
}

export function completionObject(reply: FakeReply, context: WireContext): Json {
  const message: Json = { role: 'assistant', content: reply.content ?? null };
  if (reply.reasoning) message[reply.reasoningField ?? 'reasoning_content'] = reply.reasoning;
  if (reply.toolCalls && reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call, index) => {
      const id = toolCallId(call, index, context);
      return { ...(id ? { id } : {}), type: 'function', function: { name: call.name, arguments: argumentsText(call) } };
    });
  }
  const body: Json = {
    id: `chatcmpl-${context.callIdBase}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: context.model,
    choices: [{ index: 0, message, finish_reason: finishReason(reply), logprobs: null }],
  };
  const usage = usageObject(reply, context);
  if (usage) body.usage = usage;
  return body;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

export function streamChunks(reply: FakeReply, context: WireContext, includeUsage: boolean): Json[] {
  const size = Math.max(1, reply.chunkSize ?? 4);
  const base = {
    id: `chatcmpl-${context.callIdBase}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: context.model,
  };
  const chunk = (delta: Json, finish: string | null = null): Json => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  const chunks: Json[] = [chunk({ role: 'assistant', content: '' })];
  const field = reply.reasoningField ?? 'reasoning_content';
  for (const piece of pieces(reply.reasoning ?? '', size)) chunks.push(chunk({ [field]: piece }));
  for (const piece of pieces(reply.content ?? '', size)) chunks.push(chunk({ content: piece }));
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const id = toolCallId(call, index, context);
    const at = reply.omitToolCallIndex ? {} : { index };
    chunks.push(
      chunk({
        tool_calls: [{ ...at, ...(id ? { id } : {}), type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const piece of pieces(argumentsText(call), size * 3))
      chunks.push(chunk({ tool_calls: [{ ...at, function: { arguments: piece } }] }));
  }
  chunks.push(chunk({}, finishReason(reply)));
  const usage = includeUsage ? usageObject(reply, context) : undefined;
  if (usage) chunks.push({ ...base, choices: [], usage });
  return chunks;
}

/** A reply whose tool calls are written into the content as text, the way small models do it. */
export function toolCallsAsText(calls: FakeToolCall[], style: 'tag' | 'fence' | 'bare' = 'tag', prefix = ''): string {
  const objects = calls.map((call) => ({
    name: call.name,
    arguments: typeof call.arguments === 'string' ? (JSON.parse(call.arguments) as unknown) : (call.arguments ?? {}),
  }));
  if (style === 'fence')
    return `${prefix}${objects.map((object) => '```json\n' + JSON.stringify(object, null, 2) + '\n```').join('\n')}`;
  if (style === 'bare') return JSON.stringify(objects.length === 1 ? objects[0] : objects);
  return `${prefix}${objects.map((object) => `<tool_call>\n${JSON.stringify(object)}\n</tool_call>`).join('\n')}`;
}

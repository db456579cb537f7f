// Checks a chat-completions request body the way a strict OpenAI-compatible server does, so tests prove that the
// transcripts we send stay valid: roles, content, tool definitions, and above all that every assistant tool call
// is answered by a tool message (by id) before the conversation moves on. Returns the first problem, or undefined.

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isContent = (value: unknown): boolean =>
  typeof value === 'string' ||
  (Array.isArray(value) && value.every((part) => isRecord(part) && typeof part.type === 'string'));
// What the real API takes as a content part: only user messages may hold images; system, developer and tool messages
// take text parts only (an image in a tool message is refused, which is why images travel in a user message).
const DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

function contentPartProblem(role: string, value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const [index, part] of value.entries()) {
    const at = `content[${index}]`;
    if (!isRecord(part)) return `${at} must be an object`;
    if (part.type === 'text') {
      if (typeof part.text !== 'string') return `${at}.text must be a string`;
      continue;
    }
    if (role === 'assistant' && part.type === 'refusal') continue;
    if (role !== 'user')
      return `${at}.type ${JSON.stringify(part.type)} is not allowed in a ${role} message (text only)`;
    if (part.type === 'image_url') {
      const url = isRecord(part.image_url) ? part.image_url.url : undefined;
      if (typeof url !== 'string' || !(/^https?:\/\//.test(url) || DATA_URL.test(url)))
        return `${at}.image_url.url must be an http(s) URL or a base64 image data URL`;
      continue;
    }
    if (part.type !== 'input_audio' && part.type !== 'file')
      return `${at}.type ${JSON.stringify(part.type)} is not a known content part`;
  }
  return undefined;
}

export function validateChatRequest(body: unknown): string | undefined {
  if (!isRecord(body)) return 'request body must be a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return "'model' must be a non-empty string";
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "'messages' must be a non-empty array";
  if (body.stream_options !== undefined && body.stream !== true)
    return "'stream_options' is only allowed when 'stream' is true";
  if (body.tools !== undefined) {
    const problem = validateTools(body.tools);
    if (problem) return problem;
  }
  return validateTranscript(body.messages);
}

function validateTools(tools: unknown): string | undefined {
  if (!Array.isArray(tools) || tools.length === 0)
    return "'tools' must be a non-empty array when present ([] is too short)";
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function))
      return `tools[${index}] must be {type: 'function', function: {...}}`;
    if (typeof tool.function.name !== 'string' || !NAME.test(tool.function.name))
      return `tools[${index}].function.name must match ${NAME}`;
    if (tool.function.parameters !== undefined && !isRecord(tool.function.parameters))
      return `tools[${index}].function.parameters must be a JSON schema object`;
  }
  return undefined;
}

function validateToolCall(call: unknown, callAt: string): string | undefined {
  if (!isRecord(call) || typeof call.id !== 'string' || call.id === '')
    return `${callAt}.id must be a non-empty string`;
  if (call.type !== 'function') return `${callAt}.type must be 'function'`;
  if (!isRecord(call.function) || typeof call.function.name !== 'string' || !NAME.test(call.function.name))
    return `${callAt}.function.name must match ${NAME}`;
  if (typeof call.function.arguments !== 'string') return `${callAt}.function.arguments must be a string`;
  try {
    JSON.parse(call.function.arguments);
  } catch {
    return `${callAt}.function.arguments is not valid JSON`;
  }
  return undefined;
}

/** An assistant message: content or calls, each call well formed; its call ids go into `pending` to be answered. */
function validateAssistant(message: Json, at: string, pending: Set<string>): string | undefined {
  const calls = message.tool_calls;
  if (calls !== undefined && (!Array.isArray(calls) || calls.length === 0))
    return `${at}.tool_calls must be a non-empty array when present ([] is too short)`;
  const hasCalls = Array.isArray(calls) && calls.length > 0;
  if (!hasCalls && !isContent(message.content))
    return `${at}: an assistant message needs 'content' unless it has 'tool_calls'`;
  if (message.content !== null && message.content !== undefined && !isContent(message.content))
    return `${at}.content must be a string, an array or null`;
  for (const [callIndex, call] of (hasCalls ? (calls as unknown[]) : []).entries()) {
    const callAt = `${at}.tool_calls[${callIndex}]`;
    const problem = validateToolCall(call, callAt);
    if (problem) return problem;
    const id = (call as { id: string }).id;
    if (pending.has(id)) return `${callAt}.id ${id} is duplicated`;
    pending.add(id);
  }
  return undefined;
}

/** A tool message answers one pending call, once. */
function validateToolMessage(message: Json, at: string, pending: Set<string>): string | undefined {
  if (typeof message.tool_call_id !== 'string' || message.tool_call_id === '')
    return `${at}.tool_call_id must be a non-empty string`;
  if (!pending.has(message.tool_call_id)) {
    return `${at}: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (unknown or already answered id ${message.tool_call_id})`;
  }
  if (!isContent(message.content)) return `${at}.content must be a string or an array of content parts`;
  pending.delete(message.tool_call_id);
  return undefined;
}

function validateTranscript(messages: unknown[]): string | undefined {
  // Ids of the last assistant message's tool calls not yet answered.
  let pending = new Set<string>();
  let pendingFrom = -1;
  for (const [index, message] of messages.entries()) {
    const at = `messages[${index}]`;
    if (!isRecord(message)) return `${at} must be an object`;
    const role = message.role;
    if (typeof role !== 'string' || !ROLES.has(role))
      return `${at}.role ${JSON.stringify(role)} is not one of ${[...ROLES].join(', ')}`;
    const partProblem = contentPartProblem(role, message.content);
    if (partProblem) return `${at}.${partProblem}`;
    if (role !== 'tool' && pending.size > 0) {
      return `messages[${pendingFrom}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id' (missing: ${[...pending].join(', ')}) before ${at} (${role})`;
    }
    let problem: string | undefined;
    if (role === 'assistant') {
      pending = new Set();
      pendingFrom = index;
      problem = validateAssistant(message, at, pending);
    } else if (role === 'tool') {
      problem = validateToolMessage(message, at, pending);
    } else if (!isContent(message.content)) {
      problem = `${at}.content must be a string or an array of content parts`;
    }
    if (problem) return problem;
  }
  if (pending.size > 0) {
    return `messages[${pendingFrom}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id' (missing: ${[...pending].join(', ')})`;
  }
  return undefined;
}

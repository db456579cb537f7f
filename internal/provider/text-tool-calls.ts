// Small models often write tool calls as text instead of using native tool calls. This module recognises the
// common shapes and turns them into calls, removing them from the visible content:
//   <tool_call>{"name": "...", "arguments": {...}}</tool_call>   (one or many; Hermes/Qwen style)
//   <function=NAME>{...}</function>                               (Llama 3.1 style)
//   ```json {"name": ..., "arguments": ...} ```                   (fenced; objects or arrays of them)
//   a reply that is nothing but such a JSON object
// Keys accepted: name|tool|function(.name) and arguments|args|parameters|input. Fenced and bare JSON are only
// taken when the name is a known tool (when a list is given), so a model quoting JSON is not mistaken for a call.
import { isRecord } from '../shared/index.js';

export interface TextToolCall {
  name: string;
  /** JSON text (objects are serialised; strings kept raw). */
  arguments: string;
}

export interface ExtractedToolCalls {
  content: string;
  toolCalls: TextToolCall[];
}

export function extractTextToolCalls(content: string, knownToolNames?: readonly string[]): ExtractedToolCalls {
  const known = knownToolNames && knownToolNames.length > 0 ? new Set(knownToolNames) : undefined;
  const toolCalls: TextToolCall[] = [];
  let rest = content;

  // Tagged forms: explicit intent, any name accepted (the loop answers unknown tools with an error result).
  rest = rest.replace(/<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>|$)/g, (whole, inner: string) => {
    const calls = callsFromJson(stripFence(inner), undefined);
    if (calls.length === 0) return whole;
    toolCalls.push(...calls);
    return '';
  });
  rest = rest.replace(/<function=([\w.-]+)>\s*([\s\S]*?)\s*<\/function>/g, (_whole, name: string, inner: string) => {
    toolCalls.push({ name, arguments: normaliseArguments(inner.trim() === '' ? {} : inner.trim()) });
    return '';
  });
  if (toolCalls.length > 0) return { content: tidy(rest), toolCalls };

  // Fenced JSON blocks.
  rest = rest.replace(/```(?:json|tool_call|tool)?[ \t]*\r?\n?([\s\S]*?)```/g, (whole, inner: string) => {
    const calls = callsFromJson(inner, known, true);
    if (calls.length === 0) return whole;
    toolCalls.push(...calls);
    return '';
  });
  if (toolCalls.length > 0) return { content: tidy(rest), toolCalls };

  // The whole reply is one JSON call (or an array of them).
  const trimmed = rest.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const calls = callsFromJson(trimmed, known, true);
    if (calls.length > 0) return { content: '', toolCalls: calls };
  }
  return { content, toolCalls: [] };
}

function callsFromJson(text: string, known: Set<string> | undefined, strictShape = false): TextToolCall[] {
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch {
    return [];
  }
  const items = Array.isArray(value) ? value : [value];
  const calls: TextToolCall[] = [];
  for (const item of items) {
    const call = callFromObject(item, strictShape);
    if (!call) return [];
    if (known && !known.has(call.name)) return [];
    calls.push(call);
  }
  return calls;
}

function callFromObject(item: unknown, strictShape: boolean): TextToolCall | undefined {
  if (!isRecord(item)) return undefined;
  const fn = isRecord(item.function) ? item.function : undefined;
  const name = firstString(
    item.name,
    item.tool,
    item.tool_name,
    fn?.name,
    typeof item.function === 'string' ? item.function : undefined,
  );
  if (name === undefined || name.trim() === '') return undefined;
  const args = firstDefined(item.arguments, item.args, item.parameters, item.input, fn?.arguments, fn?.parameters);
  // Fenced/bare JSON must look like a call (name + arguments), not any object that happens to have a "name".
  if (strictShape && args === undefined) return undefined;
  return { name: name.trim(), arguments: normaliseArguments(args ?? {}) };
}

function normaliseArguments(args: unknown): string {
  if (typeof args === 'string') return args;
  return JSON.stringify(args ?? {});
}

function stripFence(text: string): string {
  const match = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text.trim());
  return match?.[1] ?? text;
}

function tidy(text: string): string {
  return text.replace(/\n{3,}/g, '\n\n').trim();
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((value): value is string => typeof value === 'string');
}

function firstDefined(...values: unknown[]): unknown {
  return values.find((value) => value !== undefined && value !== null);
}

// Judging a counterfactual reply against the original one (pure): each proposed call is checked against the tool
// list the original captain was offered (unknown tool, arguments that are not a JSON object, arguments the schema
// refuses), then the calls are compared as sets — the same tool and action with the same canonical arguments, the
// same tools and actions with other arguments, or another choice. Order is ignored: queries run in parallel anyway.
import { UNTRUSTED_RULE, canonicalJson, parseArguments, prepareCall } from '../llm/index.js';
import type { Message, ToolCall, ToolSpec } from '../shared/index.js';
import type { Verdict } from '../store/index.js';

export interface CheckedCall {
  call: ToolCall;
  /** `tool` or `tool.action` (grouped tools such as SpaceMolt v2's). */
  label: string;
  /** label + canonical arguments: equal keys are the same call. */
  key: string;
  /** Why the stored tool list refuses it. */
  problem?: string;
}

/** A call's label and canonical key, without judging it (for the original calls, which were what they were). */
export function describeCall(call: ToolCall): CheckedCall {
  const parsed = parseArguments(call.arguments);
  const args = parsed.ok ? parsed.value : undefined;
  const action = args && typeof args.action === 'string' ? args.action : undefined;
  const label = action !== undefined ? `${call.name}.${action}` : call.name;
  return { call, label, key: `${call.name}\u0000${args ? canonicalJson(args) : call.arguments}` };
}

/** Each call checked against the tool list the request offered (the game's tools and Skipper's local ones). */
export function checkCalls(calls: readonly ToolCall[], tools: readonly ToolSpec[]): CheckedCall[] {
  const catalog = { tools: new Map(tools.map((tool) => [tool.name, tool])), local: new Map() };
  return calls.map((call) => {
    const described = describeCall(call);
    const prepared = prepareCall(call, catalog);
    return prepared.invalid ? { ...described, problem: prepared.invalid.text } : described;
  });
}

const sortedJoin = (items: string[]): string => [...items].sort().join('\u0001');

/** The verdict on one decision: the proposed reply (checked) against the original calls. */
export function judge(
  original: readonly ToolCall[],
  proposed: { content: string; calls: readonly CheckedCall[] },
): { verdict: Verdict; problems: string[] } {
  const problems = proposed.calls.flatMap((call) => (call.problem ? [call.problem] : []));
  if (problems.length > 0) return { verdict: 'invalid', problems };
  if (proposed.calls.length === 0 && proposed.content.trim() === '')
    return { verdict: 'invalid', problems: ['empty reply: no text and no tool call'] };
  const before = original.map(describeCall);
  if (sortedJoin(before.map((call) => call.key)) === sortedJoin(proposed.calls.map((call) => call.key)))
    return { verdict: 'same', problems: [] };
  if (sortedJoin(before.map((call) => call.label)) === sortedJoin(proposed.calls.map((call) => call.label))) {
    return { verdict: 'same-action', problems: [] };
  }
  return { verdict: 'different', problems: [] };
}

/**
 * The request's messages with another base system prompt. The system message is the base prompt, the untrusted-text
 * rule, then what Skipper added for that request (memory block, game state, nudge): the base is replaced, the rest
 * kept, and the rule added after a prompt that does not carry it — as the context builder does.
 */
export function withSystemPrompt(messages: readonly Message[], prompt: string): Message[] {
  return messages.map((message, index) => {
    if (index !== 0 || message.role !== 'system') return message;
    const at = message.content.indexOf(UNTRUSTED_RULE);
    const rest = at >= 0 ? message.content.slice(at + UNTRUSTED_RULE.length) : '';
    const rule = prompt.includes('<untrusted>') ? '' : `\n\n${UNTRUSTED_RULE}`;
    return { ...message, content: `${prompt.trim()}${rule}${rest}` };
  });
}

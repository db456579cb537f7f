// --json: one JSON object per line on stdout, for scripts. Logs never go here. Secrets never either: every line goes
// through the program's redactor (rule 14), and the game layer refuses calls that carry a secret.
import { redactValue } from '../store/index.js';
import type { RunnerEvent } from '../session/index.js';
import type { ConnectionEvent } from '../shared/index.js';

export type JsonWriter = (event: Record<string, unknown>) => void;

export function jsonLineWriter(
  stream: { write(text: string): boolean },
  options: { redact?: (text: string) => string; batch?: boolean } = {},
): JsonWriter {
  const redact = options.redact ?? ((text: string): string => text);
  const line = (event: Record<string, unknown>): string => {
    const stamped = { ts: new Date().toISOString(), ...event };
    const text = JSON.stringify(stamped);
    // A line in which no secret shows (the redactor also looks for each secret JSON-escaped) holds none in any of its
    // strings: it is written as it is. Else value by value: a secret inside a JSON string field (tool-call arguments)
    // would be escaped twice in the line, and a redaction must not cut across the line's own quotes.
    return `${redact(text) === text ? text : JSON.stringify(redactValue(stamped, redact))}\n`;
  };
  if (!options.batch) return (event) => void stream.write(line(event));
  return batchedWriter(stream, line);
}

/**
 * Lines gathered while the event loop turns and written once after it (a fleet's captains act together around each
 * tick: one write for their lines instead of one system call each — stdout on a pipe is synchronous). Whatever is
 * gathered is written before the process exits.
 */
function batchedWriter(
  stream: { write(text: string): boolean },
  line: (event: Record<string, unknown>) => string,
): JsonWriter {
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    stream.write(text);
  };
  process.once('exit', flush);
  return (event) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(line(event));
  };
}

/** Maps runner events to the JSONL vocabulary: turn-start, tool-call, tool-result, message, turn-end, notice. */
export function runnerEventToJson(event: RunnerEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'turn-start':
      return { type: 'turn-start', turn: event.turn, kind: event.input.kind, input: event.input.text };
    case 'tool-call':
      return {
        type: 'tool-call',
        id: event.call.id,
        tool: event.call.name,
        arguments: event.call.arguments,
        read_only: event.readOnly,
      };
    case 'tool-result':
      return {
        type: 'tool-result',
        id: event.message.toolCallId,
        tool: event.message.toolName,
        is_error: event.message.isError === true,
        text: event.message.content.length > 2000 ? `${event.message.content.slice(0, 2000)}…` : event.message.content,
      };
    case 'assistant-message':
      return {
        type: 'assistant',
        content: event.message.content,
        tool_calls: (event.message.toolCalls ?? []).map((call) => ({ id: call.id, name: call.name })),
      };
    case 'message-stored':
      return {
        type: 'message',
        id: event.message.id,
        role: event.message.role,
        turn: event.message.turn ?? null,
        stored: true,
      };
    case 'notice':
      return { type: 'notice', text: event.text };
    case 'connection':
      return { type: 'connection', ...connectionJson(event.event) };
    case 'turn-end':
      return {
        type: 'turn-end',
        turn: event.summary.turn,
        outcome: event.summary.outcome,
        rounds: event.summary.rounds,
        tool_calls: event.summary.toolCalls,
        failed_tool_calls: event.summary.failedToolCalls,
        prompt_tokens: event.summary.usage.promptTokens,
        completion_tokens: event.summary.usage.completionTokens,
        cost_usd: event.summary.usage.costUsd,
        duration_ms: event.summary.durationMs,
        ...(event.summary.error ? { error: event.summary.error } : {}),
        ...(event.summary.answer ? { answer: event.summary.answer } : {}),
      };
    default:
      return undefined;
  }
}

/**
 * A connection event's fields in snake_case, like every --json field (`waitMs` is written `wait_ms`). The line's
 * `type` is `connection`, so the event's own type is written as `kind`, the name --json has always used for it.
 */
function connectionJson(event: ConnectionEvent): Record<string, unknown> {
  const { type: kind, ...fields } = event;
  if (!('waitMs' in fields)) return { kind, ...fields };
  const { waitMs, ...rest } = fields;
  return { kind, ...rest, wait_ms: waitMs };
}

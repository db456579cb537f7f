// Mapping between SQLite rows and our types. Rows read back are validated (zod): the file may have been edited by hand
// or by another program, and a bad row must fail with a message naming it, not deep inside the agent loop.
import { z } from 'zod';
import { FatalError, type Message, type ToolCall } from '../shared/index.js';
import type { MemoryEntry, Session } from './types.js';

// Messages are read 100k at a time on replay and export, so they are fetched as raw arrays (half the cost of row
// objects in better-sqlite3) and checked by hand (zod would cost ~2 µs a row).
const roles = new Set(['system', 'user', 'assistant', 'tool']);

/** The columns messages are read with, in this order (`stmt.raw()`). */
export const messageColumns =
  'seq, id, turn, round, role, content, tool_calls, tool_call_id, tool_name, data, is_error, reasoning, created_at';

export type MessageTuple = [
  seq: number,
  id: string,
  turn: number | null,
  round: number | null,
  role: Message['role'],
  content: string,
  toolCalls: string | null,
  toolCallId: string | null,
  toolName: string | null,
  data: string | null,
  isError: 0 | 1 | null,
  reasoning: string | null,
  createdAt: number,
];

const textOrNull: ReadonlyArray<[index: number, name: string]> = [
  [6, 'tool_calls'],
  [7, 'tool_call_id'],
  [8, 'tool_name'],
  [9, 'data'],
  [11, 'reasoning'],
];

/** The first problem with a message row, or undefined when it has the shape we wrote. */
function messageRowProblem(row: unknown): string | undefined {
  if (!Array.isArray(row) || row.length !== 13) return 'not a message row';
  const r = row as unknown[];
  if (typeof r[1] !== 'string' || r[1] === '') return 'id is not a non-empty string';
  if (typeof r[4] !== 'string' || !roles.has(r[4])) return `role ${String(r[4])} is not a known role`;
  if (typeof r[5] !== 'string') return 'content is not text';
  if (!Number.isInteger(r[12])) return 'created_at is not an integer';
  if (r[2] !== null && !Number.isInteger(r[2])) return 'turn is not an integer';
  if (r[3] !== null && !Number.isInteger(r[3])) return 'round is not an integer';
  for (const [index, name] of textOrNull) {
    if (r[index] !== null && typeof r[index] !== 'string') return `${name} is not text`;
  }
  if (r[10] !== null && r[10] !== 0 && r[10] !== 1) return 'is_error is not 0, 1 or NULL';
  return undefined;
}

function isToolCallList(value: unknown): value is ToolCall[] {
  return (
    Array.isArray(value) &&
    value.every(
      (call: unknown) =>
        call !== null &&
        typeof call === 'object' &&
        typeof (call as ToolCall).id === 'string' &&
        typeof (call as ToolCall).name === 'string' &&
        typeof (call as ToolCall).arguments === 'string',
    )
  );
}

/** The columns messages are inserted with, in order. */
export interface MessageParams {
  id: string;
  session_id: string;
  turn: number | null;
  round: number | null;
  role: string;
  content: string;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  data: string | null;
  is_error: number | null;
  reasoning: string | null;
  created_at: number;
}

/** The one INSERT of a message (named parameters from toMessageParams); also used by the crash test's child. */
export const insertMessageSql = `INSERT INTO messages (id, session_id, turn, round, role, content, tool_calls,
    tool_call_id, tool_name, data, is_error, reasoning, created_at)
  VALUES (@id, @session_id, @turn, @round, @role, @content, @tool_calls, @tool_call_id, @tool_name, @data, @is_error,
    @reasoning, @created_at)`;

export function toMessageParams(sessionId: string, message: Message): MessageParams {
  // Rule 5: an assistant message always stores a list, '[]' for text-only replies.
  const toolCalls =
    message.role === 'assistant' ? (message.toolCalls ?? []) : message.toolCalls ? message.toolCalls : null;
  return {
    id: message.id,
    session_id: sessionId,
    turn: message.turn ?? null,
    round: message.round ?? null,
    role: message.role,
    content: message.content,
    tool_calls: toolCalls === null ? null : JSON.stringify(toolCalls.map(copyToolCall)),
    tool_call_id: message.toolCallId ?? null,
    tool_name: message.toolName ?? null,
    data: dataColumn(message),
    is_error: message.isError === undefined ? null : message.isError ? 1 : 0,
    reasoning: message.reasoning ?? null,
    created_at: message.createdAt,
  };
}

// Tool content parts (images, resources) share the data column: a message with parts stores
// {"$parts": [...], "data": <data>}; one without keeps the column exactly as before (no migration, old rows read as is).
const PARTS_KEY = '$parts';

function dataColumn(message: Message): string | null {
  if (message.parts && message.parts.length > 0) {
    return JSON.stringify({
      [PARTS_KEY]: message.parts,
      ...(message.data !== undefined ? { data: message.data } : {}),
    });
  }
  return message.data === undefined ? null : JSON.stringify(message.data);
}

function readDataColumn(message: Message, value: unknown): void {
  if (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Array.isArray((value as Record<string, unknown>)[PARTS_KEY])
  ) {
    const envelope = value as Record<string, unknown>;
    message.parts = envelope[PARTS_KEY] as Message['parts'];
    if ('data' in envelope) message.data = envelope.data;
    return;
  }
  message.data = value;
}

function copyToolCall(call: ToolCall): ToolCall {
  return { id: call.id, name: call.name, arguments: call.arguments };
}

export function fromMessageRow(row: unknown, sessionId: string): Message {
  const problem = messageRowProblem(row);
  if (problem !== undefined) throw badRow(`message row of session ${sessionId}`, row, problem);
  const [, id, turn, round, role, content, toolCalls, toolCallId, toolName, data, isError, reasoning, createdAt] =
    row as MessageTuple;
  const message: Message = { id, role, content, createdAt };
  if (turn !== null) message.turn = turn;
  if (round !== null) message.round = round;
  if (toolCalls !== null) {
    const calls = parseJson(toolCalls);
    if (!isToolCallList(calls)) throw badRow(`tool_calls of message ${id}`, row, 'not a list of {id, name, arguments}');
    message.toolCalls = calls;
  } else if (role === 'assistant') {
    message.toolCalls = [];
  }
  if (toolCallId !== null) message.toolCallId = toolCallId;
  if (toolName !== null) message.toolName = toolName;
  if (data !== null) {
    const value = parseJson(data);
    if (value === invalidJson) throw badRow(`data of message ${id}`, row, 'not JSON');
    readDataColumn(message, value);
  }
  if (isError !== null) message.isError = isError === 1;
  if (reasoning !== null) message.reasoning = reasoning;
  return message;
}

const sessionRowSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  game: z.string(),
  model: z.string(),
  username: z.string().nullable(),
  goal: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  status: z.enum(['active', 'ended']),
  extra: z.string(),
});

export function fromSessionRow(row: unknown): Session {
  const parsed = sessionRowSchema.safeParse(row);
  if (!parsed.success) throw badRow('session row', row, parsed.error.message);
  const r = parsed.data;
  const extra = parseJson(r.extra);
  if (extra === null || typeof extra !== 'object' || Array.isArray(extra)) {
    throw badRow(`extra of session ${r.name}`, row, 'not a JSON object');
  }
  return {
    id: r.id,
    name: r.name,
    game: r.game,
    model: r.model,
    username: r.username,
    goal: r.goal,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    extra: extra as Record<string, unknown>,
  };
}

const memoryRowSchema = z.object({
  id: z.number().int(),
  captain: z.string(),
  kind: z.enum(['note', 'episode', 'lesson', 'handoff']),
  text: z.string(),
  tags: z.string(),
  outcome: z.enum(['success', 'failure']).nullable(),
  evidence: z.string().nullable(),
  uses: z.number().int(),
  created_at: z.number().int(),
  last_used_at: z.number().int().nullable(),
});

export function fromMemoryRow(row: unknown): MemoryEntry {
  const parsed = memoryRowSchema.safeParse(row);
  if (!parsed.success) throw badRow('memory row', row, parsed.error.message);
  const r = parsed.data;
  const tags = z.array(z.string()).safeParse(parseJson(r.tags));
  if (!tags.success) throw badRow(`tags of memory ${r.id}`, row, tags.error.message);
  const evidence = r.evidence === null ? null : parseJson(r.evidence);
  if (evidence === invalidJson) throw badRow(`evidence of memory ${r.id}`, row, 'not JSON');
  return {
    id: r.id,
    captain: r.captain,
    kind: r.kind,
    text: r.text,
    tags: tags.data,
    outcome: r.outcome,
    evidence,
    uses: r.uses,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  };
}

const invalidJson = Symbol('invalid-json');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return invalidJson;
  }
}

function badRow(what: string, row: unknown, detail: string): FatalError {
  const id = Array.isArray(row)
    ? (row as unknown[])[1]
    : row && typeof row === 'object' && 'id' in row
      ? row.id
      : undefined;
  const key = id === undefined ? '' : ` (id ${String(id)})`;
  return new FatalError(
    'store_row_invalid',
    `the database holds a malformed ${what}${key}: ${detail.slice(0, 300)}. ` +
      'Was it edited outside Skipper? Fix or delete that row with the sqlite3 tool.',
  );
}

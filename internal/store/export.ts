// Shareable transcripts: JSON Lines (a header line — the session and its figures — then one message per line;
// round-trips through parseJsonlExport)
// and Markdown (readable; long results keep head and tail). Streams through iterateMessages so a 100k-message session
// never sits in memory, and redacts every secret on the way out.
import fs from 'node:fs';
import { z } from 'zod';
import { UsageError, type Message } from '../shared/index.js';
import { createRedactor, redactMessage, redactValue, type Redactor } from './redact.js';
import type { Store } from './contract.js';
import type { Session } from './types.js';

export type ExportFormat = 'md' | 'jsonl';

export interface ExportOptions {
  format: ExportFormat;
  /** Receives the export piece by piece. */
  write: (chunk: string) => void;
  /** Extra secrets to redact (API keys…). Every password in the credentials table is added automatically. */
  secrets?: readonly string[];
  /** Markdown: tool results longer than this are shortened, keeping head and tail. */
  maxResultChars?: number;
  /** JSON Lines: the session's figures (turns, ticks, credits, net worth, utilisation, cost, duration) under the
   * names every `--json` output uses, written in the header. Measured above the store (session-figures). */
  figures?: Record<string, unknown>;
}

export interface ExportedSession {
  name: string;
  game: string;
  model: string;
  username: string | null;
  goal: string | null;
  status: string;
  createdAt: number;
  updatedAt: number;
  extra: Record<string, unknown>;
}

export const exportFormatVersion = 1;

export async function exportSession(
  store: Store,
  nameOrId: string,
  options: ExportOptions,
): Promise<{ messages: number }> {
  let count = 0;
  for await (const piece of exportPieces(store, nameOrId, options)) {
    options.write(piece.text);
    if (piece.message) count++;
  }
  return { messages: count };
}

/**
 * The export as a sequence of pieces (`message` marks the ones that carry a message), so a caller writing to a slow
 * pipe can wait between them.
 */
export async function* exportPieces(
  store: Store,
  nameOrId: string,
  options: Omit<ExportOptions, 'write'>,
): AsyncGenerator<{ text: string; message: boolean }> {
  const session = await store.getSession(nameOrId);
  await store.credentials.refresh();
  const redact = createRedactor([...(options.secrets ?? []), ...store.credentials.passwordList()]);
  const header = exportedSession(session, redact);
  if (options.format === 'jsonl') {
    const figures = options.figures ? { figures: options.figures } : {};
    yield {
      text: `${JSON.stringify({ skipperExport: exportFormatVersion, session: header, ...figures })}\n`,
      message: false,
    };
    for await (const message of store.iterateMessages(session.id)) {
      yield { text: `${JSON.stringify(withoutImageBytes(redactMessage(message, redact)))}\n`, message: true };
    }
    return;
  }
  yield { text: markdownHeader(header), message: false };
  let turn: number | undefined;
  let openingUser = false;
  const maxChars = options.maxResultChars ?? 4000;
  // Autoplay prompts, resume notes and the handoff request are Skipper's own words, not the person's.
  const inputKinds = new Map((await store.turns(session.id)).map((row) => [row.turn, row.inputKind]));
  for await (const message of store.iterateMessages(session.id)) {
    const clean = redactMessage(message, redact);
    let text = '';
    if (clean.turn !== undefined && clean.turn !== turn) {
      turn = clean.turn;
      openingUser = true;
      text += `\n## Turn ${turn}\n\n`;
    }
    const kind = clean.role === 'user' && openingUser && turn !== undefined ? inputKinds.get(turn) : undefined;
    if (clean.role === 'user') openingUser = false;
    const by = kind && kind !== 'user' ? `Skipper (${kind} prompt)` : undefined;
    yield { text: text + markdownMessage(clean, maxChars, by), message: true };
  }
}

/** A synchronous writer that batches chunks into ~64 KB writes to an open file descriptor. */
export function createFileWriter(fd: number): {
  write: (chunk: string) => void;
  flush: () => void;
  bytes: () => number;
} {
  let pending: string[] = [];
  let pendingLength = 0;
  let written = 0;
  const flush = (): void => {
    if (pending.length === 0) return;
    const buffer = Buffer.from(pending.join(''));
    fs.writeSync(fd, buffer);
    written += buffer.length;
    pending = [];
    pendingLength = 0;
  };
  return {
    write: (chunk) => {
      pending.push(chunk);
      pendingLength += chunk.length;
      if (pendingLength >= 64 * 1024) flush();
    },
    flush,
    bytes: () => written,
  };
}

/** Exports to a new file created 0600 (transcripts are private until their owner shares them). */
export async function exportSessionToFile(
  store: Store,
  nameOrId: string,
  options: Omit<ExportOptions, 'write'> & { path: string },
): Promise<{ messages: number; bytes: number }> {
  const { path: file, ...rest } = options;
  const fd = fs.openSync(file, 'w', 0o600);
  try {
    fs.fchmodSync(fd, 0o600); // the mode above applies only when the file is new
    const writer = createFileWriter(fd);
    const result = await exportSession(store, nameOrId, { ...rest, write: writer.write });
    writer.flush();
    return { messages: result.messages, bytes: writer.bytes() };
  } finally {
    fs.closeSync(fd);
  }
}

function exportedSession(session: Session, redact: Redactor): ExportedSession {
  return {
    name: session.name,
    game: session.game,
    model: session.model,
    username: session.username,
    goal: session.goal === null ? null : redact(session.goal),
    status: session.status,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    extra: redactValue(session.extra, redact) as Record<string, unknown>,
  };
}

// ---- JSON Lines ----

/**
 * Images keep their bytes in the store (to show models that accept them), never in an export: a transcript stays
 * text, and the image stays what the content already says of it (`[image 32×32 png]`): type, size, no base64.
 */
function withoutImageBytes(message: Message): Message {
  if (!message.parts?.some((part) => part.type === 'image' && part.data !== undefined)) return message;
  return {
    ...message,
    parts: message.parts.map((part) => {
      if (part.type !== 'image' || part.data === undefined) return part;
      const { data: _data, ...described } = part;
      return described;
    }),
  };
}

const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

const messageSchema = z.object({
  id: z.string(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(toolCallSchema).optional(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  data: z.unknown().optional(),
  isError: z.boolean().optional(),
  reasoning: z.string().optional(),
  createdAt: z.number(),
  turn: z.number().int().optional(),
  round: z.number().int().optional(),
});

const headerSchema = z.object({
  skipperExport: z.number().int(),
  session: z.object({
    name: z.string(),
    game: z.string(),
    model: z.string(),
    username: z.string().nullable(),
    goal: z.string().nullable(),
    status: z.string(),
    createdAt: z.number(),
    updatedAt: z.number(),
    extra: z.record(z.string(), z.unknown()),
  }),
  figures: z.record(z.string(), z.unknown()).optional(),
});

/** Reads a JSON Lines export back. Throws UsageError naming the line that does not parse. */
export function parseJsonlExport(text: string): { session: ExportedSession; messages: Message[] } {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const [first, ...rest] = lines;
  if (first === undefined) throw new UsageError('empty export: expected a header line and messages');
  const header = headerSchema.safeParse(parseLine(first, 1));
  if (!header.success) throw new UsageError(`line 1 is not a Skipper export header: ${header.error.message}`);
  if (header.data.skipperExport > exportFormatVersion) {
    throw new UsageError(`export format ${header.data.skipperExport} is newer than this Skipper reads; upgrade`);
  }
  const messages = rest.map((line, index) => {
    const parsed = messageSchema.safeParse(parseLine(line, index + 2));
    if (!parsed.success) throw new UsageError(`line ${index + 2} is not a message: ${parsed.error.message}`);
    const message = parsed.data as Message;
    // zod keeps an explicit `data: undefined` key only when present; drop it so messages compare equal.
    if ('data' in message && message.data === undefined) delete message.data;
    return message;
  });
  return { session: header.data.session, messages };
}

function parseLine(line: string, number: number): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    throw new UsageError(`line ${number} of the export is not JSON: ${(error as Error).message}`);
  }
}

// ---- Markdown ----

function markdownHeader(session: ExportedSession): string {
  const lines = [`# Session ${session.name}`, '', `- game: ${session.game}`, `- model: ${session.model}`];
  if (session.username !== null) lines.push(`- captain: ${session.username}`);
  if (session.goal !== null) lines.push(`- goal: ${session.goal}`);
  lines.push(`- started: ${new Date(session.createdAt).toISOString()}`, '');
  return `${lines.join('\n')}\n`;
}

/** Tool results longer than this many lines are folded in the Markdown export. */
const FOLD_LINES = 20;

function markdownMessage(message: Message, maxChars: number, by?: string): string {
  const time = new Date(message.createdAt).toISOString().slice(11, 19);
  switch (message.role) {
    case 'system':
      return `**system** · ${time}\n\n${fenced(shorten(message.content, maxChars))}\n`;
    case 'user':
      return `**${by ?? 'you'}** · ${time}\n\n${quote(message.content)}\n\n`;
    case 'assistant': {
      const blocks = [`**captain** · ${time}`];
      if (message.reasoning) blocks.push(quote(`_thinking:_ ${shorten(message.reasoning, maxChars)}`));
      if (message.content.trim() !== '') blocks.push(message.content);
      const calls = (message.toolCalls ?? []).map(
        (call) => `- → \`${call.name}(${oneLine(shorten(call.arguments, 300))})\``,
      );
      if (calls.length > 0) blocks.push(calls.join('\n'));
      return `${blocks.join('\n\n')}\n\n`;
    }
    case 'tool': {
      const mark = message.isError ? '✗' : '✓';
      const body = fenced(shorten(message.content, maxChars));
      const lineCount = message.content.split('\n').length;
      // A long result (a map, a market) folds away under its first line; short ones stay open.
      if (lineCount > FOLD_LINES) {
        const first = shorten(oneLine(message.content.split('\n')[0] ?? ''), 100).replace(/[<>]/g, '');
        return `${mark} **${message.toolName ?? 'tool'}** result\n\n<details><summary>${first} (${lineCount} lines)</summary>\n\n${body}\n</details>\n\n`;
      }
      return `${mark} **${message.toolName ?? 'tool'}** result\n\n${body}\n`;
    }
  }
}

/** Rule 4 applied to exports: keep about a third of the budget from the head and two thirds from the tail. */
export function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars / 3);
  const tail = maxChars - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${omitted} chars omitted …]\n${text.slice(text.length - tail)}`;
}

function fenced(text: string): string {
  // A fence longer than any backtick run inside, so results cannot close it early.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}\n`;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/`/g, "'");
}

// `skipper doctor --from DIR`: a capture folder read back, offline, into what the doctor reports on — the server's
// name and version, its tool list when captured, and the first answer to each of the free queries the autopilot uses.
// The files are the ones `--capture` writes (game-capture.ts: call records, NNNN-initialize.json,
// NNNN-tools_list.json), checked with zod here at the boundary; a real probe file in the shape of
// test/fixtures/spacemolt/real/mcp-probe-2026-07-12.json (`handshake_initialize`, `read_only_calls`) is read too, so a
// published capture is a test as it is. A file that is not JSON or fits no shape is named in a clear error.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { CONTACT_QUERIES, type ContactAnswer, type ContactQuery, type McpToolLike } from '../game/index.js';
import { FatalError, UsageError } from '../shared/index.js';

export interface CapturedContact {
  /** The folder or file read. */
  source: string;
  /** The game's host as the capture names it. */
  game?: string;
  server: { name?: string; version?: string };
  /** The tool list, when the capture holds tools/list (every page joined). */
  tools?: McpToolLike[];
  /** The first answer to each query in the order the capture holds them (the first not refused, when there is one). */
  answers: Partial<Record<ContactQuery, ContactAnswer>>;
  /** A login answered (its greeting is in the capture). */
  loggedIn: boolean;
  files: number;
}

const serverSchema = z.object({ name: z.string().optional(), version: z.string().optional() }).catch({});
const metaSchema = z.looseObject({ game: z.string().optional(), server: serverSchema.optional() });

const callRecordSchema = z.looseObject({
  _meta: metaSchema.optional(),
  tool: z.string(),
  action: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean(),
  text: z.string(),
});

const toolSchema = z.looseObject({ name: z.string(), description: z.string().optional(), inputSchema: z.unknown() });

const handshakeSchema = z.discriminatedUnion('kind', [
  z.looseObject({
    _meta: metaSchema.optional(),
    kind: z.literal('initialize'),
    result: z.looseObject({ serverInfo: serverSchema.optional() }),
  }),
  z.looseObject({
    _meta: metaSchema.optional(),
    kind: z.literal('tools/list'),
    result: z.object({ pages: z.array(z.looseObject({ tools: z.array(toolSchema) })) }),
  }),
]);

const mcpResultSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  isError: z.boolean().optional(),
});

/** The harness probe's shape (mcp-probe-2026-07-12.json): the parts the doctor reads. */
const probeSchema = z.looseObject({
  handshake_initialize: z
    .looseObject({ response: z.looseObject({ result: z.looseObject({ serverInfo: serverSchema.optional() }) }) })
    .optional(),
  login: z.looseObject({ raw: z.looseObject({ result: mcpResultSchema }) }).optional(),
  read_only_calls: z.record(z.string(), z.looseObject({ raw: z.looseObject({ result: mcpResultSchema }) })),
});

const QUERIES = new Set<string>(CONTACT_QUERIES);
const LOGINS = new Set(['login', 'login_token']);

/** The query a call is: its action (grouped tools), else its tool name (flat tools). */
function queryOf(tool: string, action: string | undefined): ContactQuery | undefined {
  const name = (action ?? tool).toLowerCase();
  return QUERIES.has(name) ? (name as ContactQuery) : undefined;
}

const textOf = (result: z.infer<typeof mcpResultSchema>): string =>
  result.content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('\n');

class Collector {
  readonly contact: CapturedContact;
  private readonly pages: McpToolLike[] = [];
  private sawTools = false;

  constructor(source: string) {
    this.contact = { source, server: {}, answers: {}, loggedIn: false, files: 0 };
  }

  meta(meta: z.infer<typeof metaSchema> | undefined): void {
    if (meta?.game && !this.contact.game) this.contact.game = meta.game;
    if (meta?.server?.name && !this.contact.server.name) this.contact.server = { ...meta.server };
  }

  answer(options: { tool: string; action?: string | undefined; text: string; isError: boolean }): void {
    const op = (options.action ?? options.tool).toLowerCase();
    if (LOGINS.has(op) && !options.isError) this.contact.loggedIn = true;
    const query = queryOf(options.tool, options.action);
    // The first answer of each (a play run asks get_status many times; first contact is the first), but a refusal only
    // while nothing better came: a play run may ask before it has registered or logged in.
    const kept = this.contact.answers[query ?? 'get_status'];
    if (query && (!kept || (kept.isError && !options.isError)))
      this.contact.answers[query] = { text: options.text, isError: options.isError };
  }

  tools(tools: McpToolLike[]): void {
    // A reconnect lists the tools again: the first list is the one first contact met.
    if (this.sawTools) return;
    this.sawTools = true;
    this.pages.push(...tools);
  }

  done(): CapturedContact {
    if (this.sawTools) this.contact.tools = this.pages;
    return this.contact;
  }
}

function unreadable(file: string, why: string): FatalError {
  return new FatalError(
    'capture_unreadable',
    `${file} is not a capture file (${why}). --from reads the files \`skipper --capture DIR\` or ` +
      '`skipper doctor --capture DIR` writes (or a probe file like test/fixtures/spacemolt/real/mcp-probe-2026-07-12.json).',
  );
}

/** One file into the collector; throws capture_unreadable when it is not JSON or fits no known shape. */
function collectFile(collector: Collector, file: string): void {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw unreadable(file, `not JSON: ${(error as Error).message}`);
  }
  collector.contact.files += 1;
  const call = callRecordSchema.safeParse(json);
  if (call.success) {
    const action = call.data.action ?? (typeof call.data.args?.action === 'string' ? call.data.args.action : undefined);
    collector.meta(call.data._meta);
    collector.answer({ tool: call.data.tool, action, text: call.data.text, isError: call.data.isError });
    return;
  }
  const handshake = handshakeSchema.safeParse(json);
  if (handshake.success) {
    collector.meta(handshake.data._meta);
    if (handshake.data.kind === 'initialize') {
      const info = handshake.data.result.serverInfo;
      if (info?.name) collector.contact.server = { ...info };
    } else collector.tools(handshake.data.result.pages.flatMap((page) => page.tools as McpToolLike[]));
    return;
  }
  const probe = probeSchema.safeParse(json);
  if (probe.success) {
    const info = probe.data.handshake_initialize?.response.result.serverInfo;
    if (info?.name) collector.contact.server = { ...info };
    const login = probe.data.login?.raw.result;
    if (login && !login.isError) collector.contact.loggedIn = true;
    for (const [key, value] of Object.entries(probe.data.read_only_calls)) {
      const [tool = key, action] = key.split('/');
      collector.answer({ tool, action, text: textOf(value.raw.result), isError: value.raw.result.isError === true });
    }
    return;
  }
  throw unreadable(
    file,
    'neither a call record (tool, isError, text), an initialize or tools/list record, nor a probe',
  );
}

/** A capture folder (or one capture file) read back. Missing path: usage error (exit 2); unreadable: exit 1. */
export function readCaptureFolder(path: string): CapturedContact {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    throw new UsageError(`--from ${path}: no such folder or file. Give the folder a --capture run wrote.`);
  }
  const collector = new Collector(path);
  const files = isFolder
    ? readdirSync(path)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => join(path, name))
    : [path];
  if (files.length === 0)
    throw new FatalError(
      'capture_unreadable',
      `${path} holds no .json files: give the folder \`skipper --capture DIR\` or \`skipper doctor --capture DIR\` wrote.`,
    );
  for (const file of files) collectFile(collector, file);
  const contact = collector.done();
  if (Object.keys(contact.answers).length === 0)
    throw new FatalError(
      'capture_unreadable',
      `${isFolder ? path : basename(path)} holds no answer to a query the doctor reads (${CONTACT_QUERIES.join(', ')}): ` +
        'capture a run that logged in (skipper doctor --game URL --username NAME --capture DIR).',
    );
  return contact;
}

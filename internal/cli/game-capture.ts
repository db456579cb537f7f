// `--capture DIR`: first contact with a game, kept as fixtures. Everything the connection's `record` hook is told
// becomes one JSON file, numbered in order: the initialize result (NNNN-initialize.json: serverInfo, capabilities,
// instructions), the tool list with every page (NNNN-tools_list.json), and every answer (NNNN-tool[-action].json) —
// Game.call's and the connection's own (the stored-credential or key login with its greeting, get_notifications),
// which `_meta.method` tells apart — in the shape of test/fixtures/spacemolt/real/*.json: `_meta` (when, which host,
// the server's name and version, what was redacted), the call (tool, args) and the answer as the game gave it, before
// Skipper labels other players' words (isError, text, and `raw` as MCP's tools/call result). Redacted before anything touches the disk: every
// known secret, passwords, session ids, tokens and registration codes, 64-hex strings, and the player's username
// ("[REDACTED]"). `skipper doctor --from DIR` reads these files back (capture-folder.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameConnection, GameExchange } from '../game/index.js';
import type { ToolResult } from '../shared/index.js';

export const REDACTED = '[REDACTED]';

export const REDACTIONS =
  'known secrets (passwords, API keys, registration code), password/token/session_id/registration_code arguments and ' +
  'fields, "Session ID: …", 64-hex strings ([REDACTED_HEX]) and the player\'s username ([REDACTED])';

/** Argument names whose value is a secret wherever they appear. */
const SECRET_KEY =
  /^(password|pass|passwd|token|login_token|session_id|sessionid|session|registration_code|api_key|secret)$/i;

export interface RedactContext {
  /** Exact strings to remove (passwords, API keys, registration codes). */
  secrets: readonly string[];
  /** The player's own usernames (the one logged in, any named in register/login). */
  usernames: readonly string[];
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A game text with every secret, session id, token, long hex id and the player's username replaced. */
export function redactText(text: string, context: RedactContext): string {
  let out = text;
  for (const secret of [...context.secrets].filter((value) => value.length >= 4).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(REDACTED);
  }
  out = out
    // "Session ID: abc…", "session_id=…", JSON "session_id": "…", "token": "…", "password": "…"
    .replace(/(session[ _-]?id\s*[:=]\s*)("?)[^\s",}]+/gi, `$1$2${REDACTED}`)
    .replace(/("(?:password|token|login_token|session_id|registration_code|id_token)"\s*:\s*")[^"]*/gi, `$1${REDACTED}`)
    .replace(/\b((?:password|token|registration code|registration_code)\s*[:=]\s*)(?!\[REDACTED)\S+/gi, `$1${REDACTED}`)
    .replace(/\b[0-9a-f]{64}\b/gi, '[REDACTED_HEX]');
  for (const username of [...context.usernames]
    .filter((name) => name.length >= 2)
    .sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(escape(username), 'g'), REDACTED);
  }
  return out;
}

/** Arguments with secret-named values replaced and every string value redacted like text. */
export function redactArgs(args: Record<string, unknown>, context: RedactContext): Record<string, unknown> {
  const walk = (value: unknown, key?: string): unknown => {
    if (key !== undefined && SECRET_KEY.test(key) && value !== undefined && value !== null) return REDACTED;
    if (typeof value === 'string') return redactText(value, context);
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, inner]) => [name, walk(inner, name)]),
      );
    }
    return value;
  };
  return walk(args) as Record<string, unknown>;
}

export interface CaptureMeta {
  /** The game's host (`127.0.0.1:7777`, `game.spacemolt.com`) or `embedded`; never a path or query. */
  game: string;
  server?: { name?: string; version?: string };
}

export interface CaptureRecord {
  _meta: {
    captured: string;
    game: string;
    server: { name?: string; version?: string };
    method: string;
    redactions: string;
    sequence: number;
  };
  tool: string;
  action?: string;
  args: Record<string, unknown>;
  isError: boolean;
  text: string;
  raw: { result: { content: Array<{ type: 'text'; text: string }>; isError: boolean } };
}

/** What the server said on connecting, or its tool list: kept beside the answers, redacted like them. */
export interface CaptureHandshakeRecord {
  _meta: CaptureRecord['_meta'];
  kind: 'initialize' | 'tools/list';
  /** initialize: serverInfo, capabilities, instructions. tools/list: `pages`, each `{tools, nextCursor?}`. */
  result: Record<string, unknown>;
}

/** Every string in a value redacted like text; keys kept (a tool's schema names `password` as a parameter). */
export function redactStrings(value: unknown, context: RedactContext): unknown {
  if (typeof value === 'string') return redactText(value, context);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, context));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, redactStrings(inner, context)]),
    );
  return value;
}

/** The host of a game URL, or its label for in-process and stdio games. */
export function captureHost(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol.startsWith('http') ? parsed.host : parsed.protocol.replace(/:$/, '');
  } catch {
    return 'unknown';
  }
}

/** Writes one file per answer into `dir` (created if missing). */
export class CaptureWriter {
  private sequence = 0;

  constructor(
    private readonly dir: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    mkdirSync(dir, { recursive: true });
  }

  write(options: {
    meta: CaptureMeta;
    tool: string;
    args: Record<string, unknown>;
    result: ToolResult;
    context: RedactContext;
    /** One of the connection's own calls (a login, notifications), not a Game.call. */
    own?: boolean;
  }): string {
    const { meta, tool, result, context } = options;
    const args = redactArgs(options.args, context);
    const action = typeof options.args.action === 'string' ? options.args.action : undefined;
    const text = redactText(result.text, context);
    const record: CaptureRecord = {
      _meta: this.meta(
        meta,
        options.own
          ? "skipper --capture: the answer to one of the connection's own calls (a login, notifications) as the game gave it (after Skipper's secret redaction)"
          : "skipper --capture: the answer to a Game.call as the game gave it (after Skipper's secret redaction, before its untrusted-text labelling)",
      ),
      tool,
      ...(action ? { action } : {}),
      args,
      isError: result.isError,
      text,
      raw: { result: { content: [{ type: 'text', text }], isError: result.isError } },
    };
    return this.save(`${safe(tool)}${action ? `-${safe(action)}` : ''}`, record);
  }

  /** The initialize result or the tool list, redacted like text (keys kept). */
  writeHandshake(options: {
    meta: CaptureMeta;
    kind: CaptureHandshakeRecord['kind'];
    result: Record<string, unknown>;
    context: RedactContext;
  }): string {
    const record: CaptureHandshakeRecord = {
      _meta: this.meta(
        options.meta,
        options.kind === 'initialize'
          ? "skipper --capture: the server's MCP initialize result (serverInfo, capabilities, instructions)"
          : "skipper --capture: the server's tools/list result, every page in order",
      ),
      kind: options.kind,
      result: redactStrings(options.result, options.context) as Record<string, unknown>,
    };
    return this.save(safe(options.kind), record);
  }

  private meta(meta: CaptureMeta, method: string): CaptureRecord['_meta'] {
    this.sequence += 1;
    return {
      captured: this.now().toISOString(),
      game: meta.game,
      server: meta.server ?? {},
      method,
      redactions: REDACTIONS,
      sequence: this.sequence,
    };
  }

  private save(name: string, record: object): string {
    const file = join(this.dir, `${String(this.sequence).padStart(4, '0')}-${name}.json`);
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    return file;
  }
}

const safe = (name: string): string => name.replace(/[^a-z0-9_]+/gi, '_').slice(0, 60);

/**
 * One run's capture: what the connection's `record` hook (`exchange`) is told goes into one folder, numbered in the
 * order things happened, redacted with the run's live secret list and every username the player went by.
 */
export class GameCapture {
  private readonly named = new Set<string>();
  private server: { name?: string; version?: string } = {};
  /** The wrapped connection's player, once known (a key login names the player only in its answer). */
  private account: (() => string | undefined) | undefined;

  constructor(
    private readonly options: {
      writer: CaptureWriter;
      gameUrl: string;
      secrets: () => readonly string[];
      /** The player's username when known before login (--username): the handshake is redacted with it too. */
      username?: string | undefined;
    },
  ) {
    if (options.username?.trim()) this.named.add(options.username.trim());
  }

  /** The connection's `record` hook: initialize, tools/list, and every answer. */
  readonly exchange = (exchange: GameExchange): void => {
    if (exchange.type === 'call') {
      this.answer({ tool: exchange.name, args: exchange.args, result: exchange.result, own: exchange.own });
      return;
    }
    if (exchange.type === 'initialize') this.server = { ...exchange.serverInfo };
    const result =
      exchange.type === 'initialize'
        ? {
            serverInfo: exchange.serverInfo,
            capabilities: exchange.capabilities,
            ...(exchange.instructions !== undefined ? { instructions: exchange.instructions } : {}),
          }
        : { pages: exchange.pages };
    this.options.writer.writeHandshake({
      meta: this.meta(),
      kind: exchange.type === 'initialize' ? 'initialize' : 'tools/list',
      result,
      context: this.context(),
    });
  };

  /** Follows the connection's player (a key login names the player only in its answer): every later file is
   * redacted with that username too. The connection itself is handed back unchanged. */
  follow(conn: GameConnection): GameConnection {
    this.account = () => conn.username();
    return conn;
  }

  private answer(input: { tool: string; args: Record<string, unknown>; result: ToolResult; own: boolean }): void {
    // register/login name the player before the connection knows it: their `username` is the player's too.
    if (typeof input.args.username === 'string' && input.args.username.trim())
      this.named.add(input.args.username.trim());
    this.options.writer.write({ meta: this.meta(), ...input, context: this.context() });
  }

  private meta(): CaptureMeta {
    return { game: captureHost(this.options.gameUrl), server: this.server };
  }

  private context(): RedactContext {
    const own = this.account?.();
    if (own) this.named.add(own);
    return { secrets: this.options.secrets(), usernames: [...this.named] };
  }
}

// `--capture DIR`: first contact with a game, kept as fixtures. Every answer that comes back through Game.call is
// written as one JSON file (NNNN-tool[-action].json) in the shape of test/fixtures/spacemolt/real/*.json: `_meta`
// (when, which host, the server's name and version, what was redacted), the call (tool, args) and the answer (isError,
// text, and `raw` as MCP's tools/call result). Redacted before anything touches the disk: every known secret,
// passwords, session ids, tokens and registration codes, 64-hex strings, and the player's username ("[REDACTED]").
// The seam is a wrapper around the connection's `call` (the captain's and autopilot's only way to act); the
// connection's own calls (stored-credential login, notifications, the captain's log mirror) are not captured.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameConnection } from '../game/index.js';
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
  }): string {
    const { meta, tool, result, context } = options;
    this.sequence += 1;
    const args = redactArgs(options.args, context);
    const action = typeof options.args.action === 'string' ? options.args.action : undefined;
    const text = redactText(result.text, context);
    const record: CaptureRecord = {
      _meta: {
        captured: this.now().toISOString(),
        game: meta.game,
        server: meta.server ?? {},
        method:
          'skipper --capture: the answer to a Game.call as Skipper received it (after its own secret redaction and untrusted-text labelling)',
        redactions: REDACTIONS,
        sequence: this.sequence,
      },
      tool,
      ...(action ? { action } : {}),
      args,
      isError: result.isError,
      text,
      raw: { result: { content: [{ type: 'text', text }], isError: result.isError } },
    };
    const safe = (name: string): string => name.replace(/[^a-z0-9_]+/gi, '_').slice(0, 60);
    const file = join(
      this.dir,
      `${String(this.sequence).padStart(4, '0')}-${safe(tool)}${action ? `-${safe(action)}` : ''}.json`,
    );
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    return file;
  }
}

/** The connection with every `call` answer also written by `writer`; everything else passes through untouched. */
export function capturingConnection(
  conn: GameConnection,
  options: { writer: CaptureWriter; gameUrl: string; secrets: () => readonly string[] },
): GameConnection {
  const named = new Set<string>();
  const call: GameConnection['call'] = async (name, args, callOptions) => {
    const result = await conn.call(name, args, callOptions);
    // register/login name the player before the connection knows it: their `username` is the player's too.
    if (typeof args.username === 'string' && args.username.trim()) named.add(args.username.trim());
    const own = conn.username();
    if (own) named.add(own);
    const profile = conn.profile();
    const server = {
      ...(profile.server ? { name: profile.server } : {}),
      ...(profile.serverVersion ? { version: profile.serverVersion } : {}),
    };
    options.writer.write({
      meta: { game: captureHost(options.gameUrl), server },
      tool: name,
      args,
      result,
      context: { secrets: options.secrets(), usernames: [...named] },
    });
    return result;
  };
  return new Proxy(conn, {
    get(target, property) {
      if (property === 'call') return call;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

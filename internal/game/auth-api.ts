// The game's key API, over HTTP: how a SpaceMolt player logs in without a password. The player's API key (a Clerk
// key from the SpaceMolt website, sent as `Authorization: Bearer`) lists the players it owns
// (`GET /api/registration-code` → `{registration_code, players: [{id, username, empire, hidden}]}`) and mints a
// single-use login token for one of them (`POST /api/player/{id}/ws-token` → `{token}`, valid ~5 minutes), which the
// `login_token` action redeems. Shapes as SpaceMolt/spacemolt-lib's src/auth/clerk.ts reads them. Each answer is
// read with zod and comes back as data: the caller (key-login.ts) decides what a refusal or an outage means.
import { z } from 'zod';
import { parseRetryAfter } from '../shared/index.js';
import { describeError } from './result.js';

export interface OwnedPlayer {
  id: string;
  username: string;
  hidden: boolean;
}

/** One key API answer: what was asked for, or why not. */
export type KeyAnswer<T> =
  | { kind: 'ok'; value: T }
  /** The key was refused (401/403): a wrong, revoked or mistyped key. */
  | { kind: 'refused'; status: number; message: string }
  /** 503 (the auth is down) or 429 (slow down), with how long the server asked us to wait, if it said. */
  | { kind: 'unavailable'; status: number; retryAfterMs: number | undefined }
  /** Anything else: no answer, an unexpected status or body. */
  | { kind: 'failed'; reason: string };

/** The key API as the key login uses it; tests hand in one over minimolt's key desk in-process. */
export interface AuthApi {
  players(signal?: AbortSignal): Promise<KeyAnswer<OwnedPlayer[]>>;
  wsToken(playerId: string, signal?: AbortSignal): Promise<KeyAnswer<string>>;
}

const PlayerSchema = z.object({ id: z.string().min(1), username: z.string().min(1), hidden: z.boolean().optional() });
// A player the schema cannot read is left out, as spacemolt-lib does: the list is for finding one by name.
const PlayersSchema = z.object({ players: z.array(z.unknown()).optional() });
const TokenSchema = z.object({ token: z.string().min(1) });

/** The key API's address: the game's origin (https://game.spacemolt.com for its /mcp and /mcp/v2). */
export function keyApiOrigin(gameUrl: string): string {
  return new URL(gameUrl).origin;
}

export function httpAuthApi(options: {
  origin: string;
  apiKey: string;
  /** Reads Retry-After dates against it (the connection's clock). */
  now: () => number;
  fetch?: typeof fetch;
}): AuthApi {
  const send = options.fetch ?? fetch;
  const request = async (path: string, method: 'GET' | 'POST', signal?: AbortSignal): Promise<KeyAnswer<unknown>> => {
    let response: Response;
    try {
      response = await send(`${options.origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      return { kind: 'failed', reason: describeError(error) };
    }
    return readAnswer(response, options.now());
  };
  return {
    players: async (signal) => {
      const answer = await request('/api/registration-code', 'GET', signal);
      if (answer.kind !== 'ok') return answer;
      const parsed = PlayersSchema.safeParse(answer.value);
      if (!parsed.success) return { kind: 'failed', reason: 'the player list is not {players: [...]}' };
      const players = (parsed.data.players ?? []).flatMap((entry) => {
        const player = PlayerSchema.safeParse(entry);
        return player.success ? [{ ...player.data, hidden: player.data.hidden ?? false }] : [];
      });
      return { kind: 'ok', value: players };
    },
    wsToken: async (playerId, signal) => {
      const answer = await request(`/api/player/${encodeURIComponent(playerId)}/ws-token`, 'POST', signal);
      if (answer.kind !== 'ok') return answer;
      const parsed = TokenSchema.safeParse(answer.value);
      return parsed.success
        ? { kind: 'ok', value: parsed.data.token }
        : { kind: 'failed', reason: 'the ws-token answer has no token' };
    },
  };
}

/** A response as a KeyAnswer: 2xx JSON is the value; 401/403 a refused key; 503/429 a wait; the rest a failure. */
async function readAnswer(response: Response, now: number): Promise<KeyAnswer<unknown>> {
  const text = await response.text().catch(() => '');
  const { status } = response;
  if (status === 401 || status === 403) return { kind: 'refused', status, message: messageOf(text) };
  if (status === 503 || status === 429)
    return { kind: 'unavailable', status, retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), now) };
  if (status < 200 || status >= 300)
    return { kind: 'failed', reason: `HTTP ${status}${messageOf(text) ? ` (${messageOf(text)})` : ''}` };
  try {
    return { kind: 'ok', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'failed', reason: 'the answer is not JSON' };
  }
}

/** The message a JSON error body carries, else its first 200 characters. */
function messageOf(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    const message = typeof body.message === 'string' ? body.message : body.error;
    if (typeof message === 'string') return message.slice(0, 200);
  } catch {
    // not JSON
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

// minimolt's key desk: the website account that owns this server's players, as SpaceMolt's dashboard does. On the
// real game a player's API key (a Clerk key, `Authorization: Bearer`) lists the players it owns
// (`GET /api/registration-code`) and mints a single-use login token for one of them
// (`POST /api/player/{id}/ws-token`, valid ~5 minutes), which `spacemolt_auth login_token` redeems. minimolt has one
// registration code, so one owner: every player registered here is owned by the server's one key. The desk also
// plays an auth outage (`skipper serve --auth-outage`): while it lasts, the key exchange and the account calls answer
// HTTP 503 with Retry-After, as SpaceMolt's auth does when it is down.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Engine } from './engine.js';
import type { Player } from './player.js';
import { SimError } from './sim-error.js';

/** How long a minted token may wait to be redeemed (SpaceMolt: 5 minutes). */
export const TOKEN_TTL_MS = 5 * 60_000;

export interface KeyDeskOptions {
  /** The owner's API key (default: a fresh random one, printed by `skipper serve`). */
  apiKey?: string;
  /** The owner's registration code, listed with the players (as the real endpoint does). */
  registrationCode: string;
  engine: Engine;
  /** Wall clock for token expiry and outages (tests move it). */
  now: () => number;
}

/** A player the key owns, as /api/registration-code lists it. */
export interface OwnedPlayer {
  id: string;
  username: string;
  empire: string;
  hidden: boolean;
}

/** One answer of the key API: its status, JSON body and extra headers. */
export interface KeyApiAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export class KeyDesk {
  readonly apiKey: string;
  readonly registrationCode: string;
  private readonly engine: Engine;
  private readonly now: () => number;
  private readonly tokens = new Map<string, { playerId: string; expiresAt: number }>();
  private outageUntil = 0;
  /** Tokens minted and redeemed since start (tests count logins by them). */
  readonly counters = { minted: 0, redeemed: 0, refusedKeys: 0, outageAnswers: 0 };

  constructor(options: KeyDeskOptions) {
    this.apiKey = options.apiKey ?? `mmk_${randomBytes(16).toString('hex')}`;
    this.registrationCode = options.registrationCode;
    this.engine = options.engine;
    this.now = options.now;
  }

  /** From now on, for `seconds`, the auth path answers 503 with Retry-After. */
  startOutage(seconds: number): void {
    this.outageUntil = this.now() + Math.max(0, seconds) * 1000;
  }

  /** Whole seconds the outage still lasts (0 when auth is up). */
  outageSeconds(): number {
    return Math.max(0, Math.ceil((this.outageUntil - this.now()) / 1000));
  }

  /** True for an `Authorization: Bearer <key>` header carrying this desk's key (compared in constant time). */
  authorized(header: string | undefined): boolean {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
    const want = Buffer.from(this.apiKey);
    const got = Buffer.from(given);
    return got.length === want.length && timingSafeEqual(got, want);
  }

  players(): OwnedPlayer[] {
    return [...this.engine.players.values()].map((player) => ({
      id: player.id,
      username: player.username,
      empire: player.empire,
      hidden: false,
    }));
  }

  /** A single-use token for one player; undefined when the key owns no such player. */
  mint(playerId: string): { token: string; expires_in: number } | undefined {
    if (!this.engine.players.has(playerId)) return undefined;
    this.forgetExpired();
    const token = randomBytes(24).toString('hex');
    this.tokens.set(token, { playerId, expiresAt: this.now() + TOKEN_TTL_MS });
    this.counters.minted += 1;
    return { token, expires_in: TOKEN_TTL_MS / 1000 };
  }

  /** The player a token logs in as; the token is used up. A token unknown, used or expired is refused. */
  redeem(token: string): Player {
    this.forgetExpired();
    const held = this.tokens.get(token);
    const player = held ? this.engine.players.get(held.playerId) : undefined;
    if (!held || !player) {
      throw new SimError(
        'invalid_token',
        'the login token is unknown, already used or expired: mint a new one (POST /api/player/{id}/ws-token)',
      );
    }
    this.tokens.delete(token);
    this.counters.redeemed += 1;
    return player;
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [token, held] of this.tokens) if (held.expiresAt <= now) this.tokens.delete(token);
  }
}

const WS_TOKEN_PATH = /^\/api\/player\/([^/]+)\/ws-token$/;

/** True for a path the key API answers. */
export function isKeyApiPath(path: string): boolean {
  return path === '/api/registration-code' || WS_TOKEN_PATH.test(path);
}

/** The key API's answer to one request (the HTTP server only writes it). */
export function answerKeyApi(
  desk: KeyDesk,
  request: { method: string; path: string; authorization: string | undefined },
): KeyApiAnswer {
  const outage = desk.outageSeconds();
  if (outage > 0) {
    desk.counters.outageAnswers += 1;
    return authDown(outage);
  }
  const { method, path } = request;
  const wsToken = WS_TOKEN_PATH.exec(path);
  const allowed = wsToken ? 'POST' : 'GET';
  if (method !== allowed) {
    return {
      status: 405,
      body: { error: 'method_not_allowed', message: `use ${allowed} for ${path}` },
      headers: { allow: allowed },
    };
  }
  if (!desk.authorized(request.authorization)) {
    desk.counters.refusedKeys += 1;
    return {
      status: 401,
      body: {
        error: 'unauthorized',
        message: 'a valid API key is required as Authorization: Bearer <key> (minimolt: the `skipper serve` banner)',
      },
      headers: { 'www-authenticate': 'Bearer' },
    };
  }
  if (!wsToken) return { status: 200, body: { registration_code: desk.registrationCode, players: desk.players() } };
  const minted = desk.mint(decodeURIComponent(wsToken[1] ?? ''));
  if (!minted) return { status: 404, body: { error: 'not_found', message: 'this key owns no player with that id' } };
  return { status: 200, body: minted };
}

/** The auth-down answer: HTTP 503 with Retry-After, for the key API and the account calls alike. */
export function authDown(seconds: number): KeyApiAnswer {
  return {
    status: 503,
    body: {
      error: 'auth_unavailable',
      message: `authentication is temporarily unavailable: retry after ${seconds} s`,
      retry_after: seconds,
    },
    headers: { 'retry-after': String(seconds) },
  };
}

const ACCOUNT_TOOLS = new Set(['spacemolt_auth', 'register', 'login', 'login_token']);

/** True for an MCP tools/call of an account call (either face): during an auth outage it is answered 503 too. */
export function isAccountCall(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' && ACCOUNT_TOOLS.has(params.name);
}

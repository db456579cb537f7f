// Logging in with an API key instead of a password: the key finds the player (by --username, or the only one it
// owns) and mints a fresh single-use token for each login — the first one and every re-login after a reconnect or a
// displacement — which the connection redeems with `login_token`. An auth outage (HTTP 503 with Retry-After) is waited
// out on the connection's clock, each wait capped, the whole bounded, and is never a refusal. A key the game refuses,
// or a key that owns no such player, is a KeyLoginError whose message says what to do.
import { SkipperError, throwIfAborted, type ConnectionEvent, type Logger } from '../shared/index.js';
import { waitOutage } from './attempt.js';
import type { AuthApi, KeyAnswer, OwnedPlayer } from './auth-api.js';
import type { GameClock } from './options.js';

export type KeyLoginErrorCode = 'api_key_refused' | 'api_key_player' | 'auth_unavailable' | 'key_api';

/** Why a key could not log in; the message is the one line a person reads. */
export class KeyLoginError extends SkipperError {
  constructor(code: KeyLoginErrorCode, message: string) {
    super(code, message);
    this.name = 'KeyLoginError';
  }
}

export interface KeyLoginOptions {
  api: AuthApi;
  /** The player to log in as (--username); without one, the key must own exactly one (visible) player. */
  username?: string;
  clock: GameClock;
  /** Each wait's cap, and the bound on waiting out one outage (RetryOptions' maxWaitMs and maxOutageMs). */
  maxWaitMs: number;
  maxOutageMs: number;
  logger: Logger;
  emit: (event: ConnectionEvent) => void;
  counters: { outageWaits: number; rateLimitWaits: number };
}

/** Without a Retry-After, how long to wait before asking an unavailable key API again. */
const DEFAULT_WAIT_MS = 5_000;

export class KeyLogin {
  private player: OwnedPlayer | undefined;

  constructor(private readonly options: KeyLoginOptions) {}

  /** A fresh token for the key's player, and that player's name. Throws KeyLoginError, or AbortedError on abort. */
  async mint(signal?: AbortSignal): Promise<{ username: string; token: string }> {
    const player = this.player ?? (await this.findPlayer(signal));
    this.player = player;
    const token = await this.ask((waitSignal) => this.options.api.wsToken(player.id, waitSignal), signal);
    return { username: player.username, token };
  }

  private async findPlayer(signal: AbortSignal | undefined): Promise<OwnedPlayer> {
    const players = await this.ask((waitSignal) => this.options.api.players(waitSignal), signal);
    return pickPlayer(players, this.options.username);
  }

  /** One key API request, asked again while the API is down (bounded); any other failure is a KeyLoginError. */
  private async ask<T>(
    request: (signal: AbortSignal | undefined) => Promise<KeyAnswer<T>>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const { clock, maxWaitMs, maxOutageMs } = this.options;
    let waited = 0;
    for (;;) {
      throwIfAborted(signal);
      const answer = await request(signal);
      if (answer.kind === 'ok') return answer.value;
      if (answer.kind === 'refused') throw refusedKey(answer.status, answer.message);
      if (answer.kind === 'failed') {
        throw new KeyLoginError(
          'key_api',
          `could not exchange the API key for a login token (${answer.reason}); check the --game address, or try again later`,
        );
      }
      if (waited >= maxOutageMs) throw authDown(waited);
      const ms = Math.min(answer.retryAfterMs ?? DEFAULT_WAIT_MS, maxWaitMs, maxOutageMs - waited);
      waited += Math.max(1, ms);
      if (answer.status === 503) {
        await waitOutage(this.options, { ms, auth: true, signal });
      } else {
        this.options.counters.rateLimitWaits += 1;
        this.options.emit({ type: 'rate-limited', waitMs: ms });
        this.options.logger.info({ waitMs: ms }, 'the key API asks us to slow down; waiting');
        await clock.sleep(ms, signal);
      }
    }
  }
}

/** The player to log in as: the one named (any case), else the only one (the only visible one) the key owns. */
export function pickPlayer(players: readonly OwnedPlayer[], username: string | undefined): OwnedPlayer {
  const names = players.map((player) => player.username).join(', ');
  if (username !== undefined) {
    const named = players.find((player) => player.username.toLowerCase() === username.toLowerCase());
    if (named) return named;
    throw new KeyLoginError(
      'api_key_player',
      `the API key owns no player named "${username}"${names ? ` (it owns: ${names})` : ''}. ` +
        'Check --username, or leave it out when the key owns one player.',
    );
  }
  const visible = players.filter((player) => !player.hidden);
  const only = visible.length === 1 ? visible[0] : players.length === 1 ? players[0] : undefined;
  if (only) return only;
  if (players.length === 0) {
    throw new KeyLoginError(
      'api_key_player',
      'the API key owns no player yet: register one first (SKIPPER_REGISTRATION_CODE, without the key), ' +
        'then log in with the key.',
    );
  }
  throw new KeyLoginError(
    'api_key_player',
    `the API key owns several players (${names}): pick one with --username NAME.`,
  );
}

function refusedKey(status: number, message: string): KeyLoginError {
  return new KeyLoginError(
    'api_key_refused',
    `the game refused the API key (HTTP ${status}${message ? `: ${message}` : ''}). Check SKIPPER_GAME_API_KEY ` +
      '(or --api-key): copy the key again from your SpaceMolt account; a rotated key stops working.',
  );
}

function authDown(waitedMs: number): KeyLoginError {
  return new KeyLoginError(
    'auth_unavailable',
    `the game's auth has been down for ${Math.round(waitedMs / 60_000)} min (HTTP 503); nothing was refused — ` +
      'try again later.',
  );
}

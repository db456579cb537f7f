// The key login's pure parts: which player a key logs in as, how key API answers are read (statuses, shapes), and how
// an outage is waited out — capped, bounded, abortable, on a fake clock — while a refused key fails at once.
import { describe, expect, it } from 'vitest';
import { httpAuthApi, keyApiOrigin, type AuthApi, type KeyAnswer } from '../../../internal/game/auth-api.js';
import { KeyLogin, KeyLoginError, pickPlayer } from '../../../internal/game/key-login.js';
import { Keyring } from '../../../internal/game/keyring.js';
import { credentialKeys } from '../../../internal/game/credential-key.js';
import { memoryCredentials } from '../../fakes/memory-credentials.js';
import { createWorld, inMemoryTarget } from '../../fakes/fake-spacemolt-server.js';
import { connectGame } from '../../../internal/game/index.js';
import { FatalError } from '../../../internal/shared/index.js';
import { AbortedError, silentLogger, type ConnectionEvent } from '../../../internal/shared/index.js';
import { fakeClock } from './fake-clock.js';

const nova = { id: 'p1', username: 'Nova', hidden: false };
const orion = { id: 'p2', username: 'Orion', hidden: false };
const ghost = { id: 'p3', username: 'Ghost', hidden: true };

describe('pickPlayer', () => {
  it('takes the named player in any case, else the only (visible) one', () => {
    expect(pickPlayer([nova, orion], 'orion')).toBe(orion);
    expect(pickPlayer([nova], undefined)).toBe(nova);
    expect(pickPlayer([nova, ghost], undefined)).toBe(nova);
    expect(pickPlayer([ghost], undefined)).toBe(ghost);
  });

  it.each([
    [[nova, orion], 'Vega', /owns no player named "Vega" \(it owns: Nova, Orion\)\. Check --username/],
    [[nova, orion], undefined, /owns several players \(Nova, Orion\): pick one with --username NAME/],
    [[], undefined, /owns no player yet: register one first/],
  ])('says what to do when it cannot choose (%#)', (players, username, message) => {
    expect(() => pickPlayer(players, username)).toThrow(message);
    try {
      pickPlayer(players, username);
    } catch (error) {
      expect(error).toBeInstanceOf(KeyLoginError);
      expect((error as KeyLoginError).code).toBe('api_key_player');
    }
  });
});

/** A fetch that answers from a script, one response per request, and records what it was asked. */
function scriptedFetch(responses: Response[]): {
  fetch: typeof fetch;
  asked: Array<{ url: string; init: RequestInit }>;
} {
  const asked: Array<{ url: string; init: RequestInit }> = [];
  const fetchLike = (async (url: string | URL | Request, init?: RequestInit) => {
    asked.push({ url: String(url), init: init ?? {} });
    const next = responses.shift();
    if (!next) throw new Error('no response scripted');
    return next;
  }) as typeof fetch;
  return { fetch: fetchLike, asked };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('httpAuthApi', () => {
  it('asks with the bearer key at the game origin, and reads players and tokens as spacemolt-lib does', async () => {
    expect(keyApiOrigin('https://game.spacemolt.com/mcp/v2?preset=standard')).toBe('https://game.spacemolt.com');
    const { fetch, asked } = scriptedFetch([
      json(200, { registration_code: 'rc', players: [{ ...nova, empire: 'solarian' }, { id: 2 }, null] }),
      json(200, { token: 'tok_abc', expires_in: 300 }),
    ]);
    const api = httpAuthApi({ origin: 'https://game.example', apiKey: 'sk_key', now: () => 0, fetch });
    expect(await api.players()).toEqual({ kind: 'ok', value: [nova] });
    expect(await api.wsToken('p 1')).toEqual({ kind: 'ok', value: 'tok_abc' });
    expect(asked.map((one) => [one.init.method, one.url])).toEqual([
      ['GET', 'https://game.example/api/registration-code'],
      ['POST', 'https://game.example/api/player/p%201/ws-token'],
    ]);
    expect(asked[1]?.init.headers).toEqual({ authorization: 'Bearer sk_key', accept: 'application/json' });
  });

  it('reads a refused key, an outage with its Retry-After, and anything else as a failure', async () => {
    const { fetch } = scriptedFetch([
      json(401, { error: 'unauthorized', message: 'bad key' }),
      json(503, { error: 'auth_unavailable' }, { 'retry-after': '30' }),
      json(429, {}, {}),
      json(500, { message: 'boom' }),
      json(200, { nothing: true }),
    ]);
    const api = httpAuthApi({ origin: 'https://game.example', apiKey: 'k', now: () => 0, fetch });
    expect(await api.players()).toEqual({ kind: 'refused', status: 401, message: 'bad key' });
    expect(await api.wsToken('p1')).toEqual({ kind: 'unavailable', status: 503, retryAfterMs: 30_000 });
    expect(await api.wsToken('p1')).toEqual({ kind: 'unavailable', status: 429, retryAfterMs: undefined });
    expect(await api.players()).toEqual({ kind: 'failed', reason: 'HTTP 500 (boom)' });
    expect(await api.wsToken('p1')).toEqual({ kind: 'failed', reason: 'the ws-token answer has no token' });
  });
});

/** A key API that answers from a script per endpoint and counts what it was asked. */
function scriptedApi(script: {
  players?: Array<KeyAnswer<(typeof nova)[]>>;
  tokens?: Array<KeyAnswer<string>>;
}): AuthApi & {
  asked: string[];
} {
  const asked: string[] = [];
  let minted = 0;
  return {
    asked,
    players: async () => {
      asked.push('players');
      return script.players?.shift() ?? { kind: 'ok', value: [nova] };
    },
    wsToken: async (id) => {
      asked.push(`token ${id}`);
      minted += 1;
      return script.tokens?.shift() ?? { kind: 'ok', value: `token-${minted}` };
    },
  };
}

function keyLogin(
  api: AuthApi,
  clock = fakeClock(),
): { login: KeyLogin; events: ConnectionEvent[]; counters: { outageWaits: number; rateLimitWaits: number } } {
  const events: ConnectionEvent[] = [];
  const counters = { outageWaits: 0, rateLimitWaits: 0 };
  const login = new KeyLogin({
    api,
    clock,
    maxWaitMs: 60_000,
    maxOutageMs: 5 * 60_000,
    logger: silentLogger,
    emit: (event) => events.push(event),
    counters,
  });
  return { login, events, counters };
}

describe('KeyLogin', () => {
  it('finds the player once and mints a fresh token for every login', async () => {
    const api = scriptedApi({});
    const { login } = keyLogin(api);
    expect(await login.mint()).toEqual({ username: 'Nova', token: 'token-1' });
    expect(await login.mint()).toEqual({ username: 'Nova', token: 'token-2' });
    expect(api.asked).toEqual(['players', 'token p1', 'token p1']);
  });

  it('waits out an auth outage as its Retry-After says, one event per wait, and is no refusal', async () => {
    const clock = fakeClock();
    const down: KeyAnswer<string> = { kind: 'unavailable', status: 503, retryAfterMs: 20_000 };
    const api = scriptedApi({ tokens: [down, { kind: 'unavailable', status: 503, retryAfterMs: undefined }] });
    const { login, events, counters } = keyLogin(api, clock);
    expect(await login.mint()).toEqual({ username: 'Nova', token: 'token-3' });
    expect(clock.waits).toEqual([20_000, 5_000]);
    expect(events).toEqual([
      { type: 'unavailable', waitMs: 20_000, auth: true },
      { type: 'unavailable', waitMs: 5_000, auth: true },
    ]);
    expect(counters).toEqual({ outageWaits: 2, rateLimitWaits: 0 });
  });

  it('caps each wait and gives up after the outage bound with what to do', async () => {
    const clock = fakeClock();
    const forever: AuthApi = {
      players: async () => ({ kind: 'unavailable', status: 503, retryAfterMs: 3_600_000 }),
      wsToken: async () => ({ kind: 'failed', reason: 'unused' }),
    };
    const { login } = keyLogin(forever, clock);
    await expect(login.mint()).rejects.toMatchObject({
      code: 'auth_unavailable',
      message: expect.stringMatching(/auth has been down for 5 min \(HTTP 503\); nothing was refused/),
    });
    expect(clock.waits).toEqual([60_000, 60_000, 60_000, 60_000, 60_000]);
  });

  it('fails at once, without waiting, on a refused key', async () => {
    const clock = fakeClock();
    const api = scriptedApi({ players: [{ kind: 'refused', status: 401, message: 'invalid api key' }] });
    const { login } = keyLogin(api, clock);
    await expect(login.mint()).rejects.toMatchObject({
      code: 'api_key_refused',
      message: expect.stringMatching(
        /^the game refused the API key \(HTTP 401: invalid api key\)\. Check SKIPPER_GAME_API_KEY/,
      ),
    });
    expect(clock.waits).toEqual([]);
  });

  it('waits a 429 as a rate limit, and ends a wait at once on abort', async () => {
    const api = scriptedApi({ tokens: [{ kind: 'unavailable', status: 429, retryAfterMs: 2000 }] });
    const { login, events, counters } = keyLogin(api);
    await login.mint();
    expect(events).toEqual([{ type: 'rate-limited', waitMs: 2000 }]);
    expect(counters.rateLimitWaits).toBe(1);

    const controller = new AbortController();
    const stuck: AuthApi = {
      players: async () => {
        controller.abort();
        return { kind: 'unavailable', status: 503, retryAfterMs: 10_000 };
      },
      wsToken: async () => ({ kind: 'failed', reason: 'unused' }),
    };
    await expect(keyLogin(stuck).login.mint(controller.signal)).rejects.toBeInstanceOf(AbortedError);
  });
});

describe('the keyring, logging in by key', () => {
  it('keeps the token in use secret (only the latest), and logs in without storing anything', () => {
    const credentials = memoryCredentials();
    const keyring = new Keyring({
      store: credentials,
      keys: credentialKeys({ kind: 'http', url: 'http://game.example/mcp/v2' }),
      secrets: ['mmk_the_api_key_0000'],
    });
    expect(keyring.loggedInByKey()).toBeUndefined(); // a login_token Skipper did not make logs nobody in
    keyring.expectKeyLogin('Nova', 'token-one-0123456789');
    expect(keyring.redact({ text: 'echo token-one-0123456789', isError: false }).text).toBe('echo [saved]');
    expect(keyring.reveals({ content: 'say mmk_the_api_key_0000' })).toBe(true);
    expect(keyring.reveals({ content: 'token-one-0123456789' })).toBe(true);
    expect(keyring.loggedInByKey()).toBe('Nova');
    expect(keyring.account).toEqual({ username: 'Nova', password: '', byKey: true });
    expect(keyring.loggedIn).toBe(true);
    expect(credentials.store.size).toBe(0);
    // Tokens are single-use: the next login's token replaces the last in the secret list.
    keyring.expectKeyLogin('Nova', 'token-two-0123456789');
    expect(keyring.secrets().has('token-one-0123456789')).toBe(false);
    expect(keyring.secrets().has('token-two-0123456789')).toBe(true);
  });
});

describe('a server without login_token', () => {
  it.each(['v1', 'v2'] as const)(
    '%s: the key is not spent on it, and the start says to use a password',
    async (face) => {
      const api = scriptedApi({});
      const game = await connectGame({
        target: inMemoryTarget(createWorld({ face })),
        credentials: memoryCredentials(),
        apiKey: 'mmk_unused_key_000000',
        authApi: api,
        clock: fakeClock(),
      });
      try {
        const failure = await game.loginIfKnown().catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(FatalError);
        expect((failure as Error).message).toMatch(
          /offers no login_token .* log in with --username and SKIPPER_GAME_PASSWORD/,
        );
        expect(api.asked).toEqual([]);
      } finally {
        await game.close();
      }
    },
  );
});

// The game connection logging in with an API key against minimolt over real HTTP: the key API at the game's origin,
// login_token on both faces, the key and its tokens kept secret, a re-login by key after a displacement or a lost
// session (one login however many calls lost it), and an auth outage (HTTP 503 + Retry-After, on the key API and on
// the MCP login itself) waited out on a fake clock that minimolt shares — never counted as a refusal.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it, type TestContext } from 'vitest';
import { connectGame, type GameConnection } from '../../internal/game/index.js';
import { createMinimolt, type HttpHandle, type Minimolt } from '../../internal/sim/index.js';
import { FatalError, type ConnectionEvent } from '../../internal/shared/index.js';
import { fakeClock, type FakeClock } from '../unit/game/fake-clock.js';
import { memoryCredentials } from '../fakes/memory-credentials.js';

const KEY = 'mmk_0123456789abcdef0123456789abcdef';

interface World {
  sim: Minimolt;
  http: HttpHandle;
  clock: FakeClock;
  /** Nova's password, from her register greeting. */
  password: string;
  onTestFinished: Finish;
}

type Finish = TestContext['onTestFinished'];

async function world(onTestFinished: Finish): Promise<World> {
  const clock = fakeClock({ start: Date.now() });
  const sim = await createMinimolt({
    tickMs: 0,
    npcChatChance: 0,
    registrationCode: 'kc',
    apiKey: KEY,
    now: clock.now,
  });
  const http = await sim.listen({ port: 0 });
  onTestFinished(() => sim.close());
  const client = await rawClient(http.v2Url, onTestFinished);
  const greeting = await client.callTool({
    name: 'spacemolt_auth',
    arguments: { action: 'register', username: 'Nova', empire: 'solarian', registration_code: 'kc' },
  });
  const password = /^Password: ([0-9a-f]{64})$/m.exec(textOf(greeting))?.[1] ?? '';
  return { sim, http, clock, password, onTestFinished };
}

async function rawClient(url: string, onTestFinished: Finish): Promise<Client> {
  const client = new Client({ name: 'other-client', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  onTestFinished(() => client.close().catch(() => {}));
  return client;
}

const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]?.text ?? '';

async function connect(
  game: World,
  options: { url?: string; apiKey?: string; password?: string } = {},
): Promise<{ conn: GameConnection; events: ConnectionEvent[]; credentials: ReturnType<typeof memoryCredentials> }> {
  const credentials = memoryCredentials();
  const events: ConnectionEvent[] = [];
  const conn = await connectGame({
    target: { kind: 'http', url: options.url ?? game.http.v2Url },
    credentials,
    username: 'Nova',
    ...(options.password ? { password: options.password } : { apiKey: options.apiKey ?? KEY }),
    secrets: [KEY],
    clock: game.clock,
    retry: { backoffMs: 10 },
  });
  conn.onEvent((event) => events.push(event));
  game.onTestFinished(() => conn.close());
  return { conn, events, credentials };
}

/** Another client takes Nova over with a token of its own (a newer login displaces the older). */
async function displace(game: World): Promise<void> {
  const minted = game.sim.keys.mint(game.sim.keys.players()[0]?.id ?? '');
  const other = await rawClient(game.http.v2Url, game.onTestFinished);
  const login = await other.callTool({
    name: 'spacemolt_auth',
    arguments: { action: 'login_token', token: minted?.token },
  });
  expect(textOf(login)).toMatch(/^Welcome back, Nova!/);
}

describe.concurrent('logging in with an API key', () => {
  it.for([
    ['/mcp/v2', 'v2Url'],
    ['/mcp', 'url'],
  ] as const)(
    'logs in on %s with only the key, stores nothing, and refuses a call carrying the key',
    async ([, which], { onTestFinished }) => {
      const game = await world(onTestFinished);
      const { conn, events, credentials } = await connect(game, { url: game.http[which] });
      expect(await conn.loginIfKnown()).toBe(true);
      expect(conn.username()).toBe('Nova');
      expect(events).toContainEqual({ type: 'logged-in', username: 'Nova' });
      expect(game.sim.keys.counters).toMatchObject({ minted: 1, redeemed: 1 });
      // Nothing is stored: the key logs in again next time, and no password was ever known.
      expect(credentials.store.size).toBe(0);
      const status =
        which === 'url' ? await conn.call('get_status', {}) : await conn.call('spacemolt', { action: 'get_status' });
      expect(status.isError).toBe(false);
      expect(status.text).toContain('Nova');
      // A call that would carry the key is refused before it leaves.
      const leak = await conn.call(which === 'url' ? 'chat' : 'spacemolt_social', {
        ...(which === 'url' ? { channel: 'system' } : { action: 'chat', target: 'system' }),
        content: `my key is ${KEY}`,
      });
      expect(leak).toMatchObject({ isError: true, code: 'refused' });
      expect(conn.stats().refusedSecrets).toBe(1);
    },
  );

  it('a login is never sent with the key as its password; a login without one goes by key', async ({
    onTestFinished,
  }) => {
    const game = await world(onTestFinished);
    const { conn } = await connect(game);
    await conn.loginIfKnown();
    const leak = await conn.call('spacemolt_auth', { action: 'login', username: 'Nova', password: KEY });
    expect(leak).toMatchObject({ isError: true, code: 'refused' });
    expect(game.sim.keys.counters.minted).toBe(1);
    // The model logs out, then back in with the placeholder it was shown: Skipper logs in by key.
    await conn.call('spacemolt_auth', { action: 'logout' });
    const back = await conn.call('spacemolt_auth', { action: 'login', username: 'Nova', password: '[saved]' });
    expect(back.isError, back.text).toBe(false);
    expect(back.text).toMatch(/^Welcome back, Nova! Session ID: \[hidden\]/);
    expect(game.sim.keys.counters).toMatchObject({ minted: 2, redeemed: 2 });
  });

  it('a key the game refuses ends the start with one line that says what to do (exit code 1)', async ({
    onTestFinished,
  }) => {
    const game = await world(onTestFinished);
    const { conn } = await connect(game, { apiKey: 'mmk_wrong_key_0000000000000000000000' });
    const failure = await conn.loginIfKnown().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FatalError);
    expect(failure).toMatchObject({ code: 'api_key_refused', exitCode: 1 });
    expect((failure as Error).message).toMatch(
      /^the game refused the API key \(HTTP 401: a valid API key is required.*\)\. Check SKIPPER_GAME_API_KEY \(or --api-key\)/,
    );
    expect((failure as Error).message).not.toContain('mmk_wrong_key');
    expect(game.sim.keys.counters.minted).toBe(0);
  });

  it('displaced: parallel calls share one re-login by key, with a fresh token', async ({ onTestFinished }) => {
    const game = await world(onTestFinished);
    const { conn } = await connect(game);
    await conn.loginIfKnown();
    await displace(game);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => conn.call('spacemolt', { action: 'get_status' })),
    );
    for (const result of results) expect(result.isError, result.text).toBe(false);
    // 1 at the start, 1 by the other client, 1 re-login shared by all six calls.
    expect(game.sim.keys.counters).toMatchObject({ minted: 3, redeemed: 3 });
    expect(conn.stats().relogins).toBe(1);
  });

  it('a lost session: parallel calls share one reconnect and one login by key', async ({ onTestFinished }) => {
    const game = await world(onTestFinished);
    const { conn } = await connect(game);
    await conn.loginIfKnown();
    game.clock.now(); // minimolt closes an MCP session idle for 30 minutes (its clock is the test's)
    await game.clock.sleep(31 * 60_000);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => conn.call('spacemolt', { action: 'get_status' })),
    );
    for (const result of results) expect(result.isError, result.text).toBe(false);
    expect(conn.stats()).toMatchObject({ reconnects: 1, relogins: 1 });
    expect(game.sim.keys.counters).toMatchObject({ minted: 2, redeemed: 2 });
  });

  it('an auth outage mid-play is waited out: play goes on, nothing counted as a refusal', async ({
    onTestFinished,
  }) => {
    const game = await world(onTestFinished);
    const { conn, events } = await connect(game);
    await conn.loginIfKnown();
    await displace(game);
    game.sim.keys.startOutage(45);
    const result = await conn.call('spacemolt', { action: 'get_status' });
    expect(result.isError, result.text).toBe(false);
    expect(events).toContainEqual({ type: 'unavailable', waitMs: 45_000, auth: true });
    expect(conn.stats()).toMatchObject({ relogins: 1, ip: { rejections: 0 } });
    expect(conn.stats().outageWaits).toBeGreaterThanOrEqual(1);
    expect(game.sim.keys.counters.outageAnswers).toBeGreaterThanOrEqual(1);
  });

  it("an outage answered on the MCP login itself is waited out as well (the password's re-login)", async ({
    onTestFinished,
  }) => {
    const game = await world(onTestFinished);
    const { conn, events } = await connect(game, { password: game.password });
    expect(await conn.loginIfKnown()).toBe(true);
    await displace(game);
    game.sim.keys.startOutage(20);
    const result = await conn.call('spacemolt', { action: 'get_status' });
    expect(result.isError, result.text).toBe(false);
    expect(events.filter((event) => event.type === 'unavailable')).toEqual([
      { type: 'unavailable', waitMs: 20_000, auth: true },
    ]);
    expect(conn.stats()).toMatchObject({ relogins: 1, outageWaits: 1, rateLimitWaits: 0, ip: { rejections: 0 } });
    expect(game.clock.waits).toContain(20_000);
  });
});

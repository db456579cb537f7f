// minimolt's key API over real HTTP, read as SpaceMolt's public clients read it (SpaceMolt/spacemolt-lib
// src/auth/clerk.ts): GET /api/registration-code and POST /api/player/{id}/ws-token with `Authorization: Bearer KEY`,
// then `login_token` with the token on both faces (the SDK's own client, text only). Also the auth outage: 503 with
// Retry-After on the key API and on the account calls, and nothing else refused while it lasts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMinimolt, type HttpHandle, type Minimolt } from '../../internal/sim/index.js';

type Result = { isError?: boolean; content: Array<{ type: string; text: string }> };

const clients: Client[] = [];
let sim: Minimolt;
let http: HttpHandle;
let origin: string;
const clock = { now: Date.now() };

beforeAll(async () => {
  sim = await createMinimolt({
    tickMs: 0,
    npcChatChance: 0,
    registrationCode: 'keys-code',
    apiKey: 'mmk_integration',
    now: () => clock.now,
  });
  http = await sim.listen({ port: 0 });
  origin = new URL(http.url).origin;
  const client = await open(http.v2Url);
  for (const username of ['Vega', 'Rigel'])
    await client.callTool({
      name: 'spacemolt_auth',
      arguments: { action: 'register', username, empire: 'solarian', registration_code: 'keys-code' },
    });
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await sim.close();
});

async function open(url: string): Promise<Client> {
  const client = new Client({ name: 'key-reader', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

const auth = { authorization: 'Bearer mmk_integration', accept: 'application/json' };

async function players(): Promise<Array<{ id: string; username: string }>> {
  const response = await fetch(`${origin}/api/registration-code`, { headers: auth });
  expect(response.status).toBe(200);
  return ((await response.json()) as { players: Array<{ id: string; username: string }> }).players;
}

async function mint(id: string): Promise<string> {
  const response = await fetch(`${origin}/api/player/${id}/ws-token`, { method: 'POST', headers: auth });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

const text = (result: unknown): string => (result as Result).content[0]?.text ?? '';

describe('the key API over HTTP', () => {
  test('lists the players, mints a token, and login_token logs in on /mcp/v2 and on /mcp', async () => {
    const owned = await players();
    expect(owned.map((player) => player.username)).toEqual(['Vega', 'Rigel']);
    const vega = owned[0]?.id ?? '';

    const v2 = await open(http.v2Url);
    const token = await mint(vega);
    const login = await v2.callTool({ name: 'spacemolt_auth', arguments: { action: 'login_token', token } });
    expect(text(login)).toMatch(/^Welcome back, Vega! Session ID: [0-9a-f]{64}$/);
    expect(text(await v2.callTool({ name: 'spacemolt', arguments: { action: 'get_status' } }))).toContain('Vega');
    // Single-use: the same token again is refused with what to do.
    const again = await (
      await open(http.v2Url)
    ).callTool({
      name: 'spacemolt_auth',
      arguments: { action: 'login_token', token },
    });
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/^Error: invalid_token: .*mint a new one/);

    const v1 = await open(http.url);
    const flat = await v1.callTool({ name: 'login_token', arguments: { token: await mint(vega) } });
    // The flat face answers JSON (as the real /mcp): the greeting's sentence and a session id to send back.
    const greeting = JSON.parse(text(flat)) as { message?: string; session_id?: string };
    expect(greeting.message).toMatch(/^Welcome back, Vega!/);
    expect(greeting.session_id).toMatch(/^[0-9a-f]{64}$/);
    // A second login displaces the first, as with passwords.
    expect(text(await v2.callTool({ name: 'spacemolt', arguments: { action: 'get_status' } }))).toMatch(
      /session_replaced/,
    );
  });

  test('a wrong key is 401, a GET on ws-token 405, and neither reaches the players', async () => {
    const wrong = await fetch(`${origin}/api/registration-code`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect(JSON.stringify(await wrong.json())).not.toContain('Vega');
    const get = await fetch(`${origin}/api/player/player_1/ws-token`, { headers: auth });
    expect(get.status).toBe(405);
  });

  test('an auth outage answers 503 + Retry-After on the key API and account calls only, until it ends', async () => {
    const playing = await open(http.v2Url);
    const vega = (await players())[0]?.id ?? '';
    await playing.callTool({ name: 'spacemolt_auth', arguments: { action: 'login_token', token: await mint(vega) } });
    sim.keys.startOutage(20);
    try {
      const down = await fetch(`${origin}/api/player/${vega}/ws-token`, { method: 'POST', headers: auth });
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('20');
      // Over MCP: the SDK's transport sees the status (the game layer reads its Retry-After).
      const login = open(http.v2Url).then((client) =>
        client.callTool({ name: 'spacemolt_auth', arguments: { action: 'login', username: 'Vega', password: 'x' } }),
      );
      await expect(login).rejects.toMatchObject({ code: 503, message: expect.stringContaining('auth_unavailable') });
      // A logged-in player keeps playing: only the auth path is down.
      expect(text(await playing.callTool({ name: 'spacemolt', arguments: { action: 'get_status' } }))).toContain(
        'Vega',
      );
      clock.now += 20_000;
      expect((await fetch(`${origin}/api/registration-code`, { headers: auth })).status).toBe(200);
    } finally {
      sim.keys.startOutage(0);
    }
  });
});

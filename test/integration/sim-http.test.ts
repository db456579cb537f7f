// minimolt over real HTTP with the MCP SDK client (Streamable HTTP) on the flat v1 face (/mcp): a full game loop, the
// error codes a client meets, oversized bodies, /health and /stats. The servers run with `structured: true` so engine
// facts are read from structuredContent; error codes are read from the text, as a SpaceMolt client reads them. The
// face answers JSON and wants the greeting's session_id on every call after login: calls carry it (carrySession).
// sim-faces.test.ts plays both faces from their answers alone.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMinimolt, type HttpHandle, type Minimolt } from '../../internal/sim/index.js';
import { carrySession, jsonOf, sessionIdOf, type Call, type Result } from '../unit/sim/mcp.js';

const clients: Client[] = [];

async function connect(url: string): Promise<Call> {
  const client = new Client({ name: 'sim-http-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return carrySession(async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Result);
}

/** `Error: code: message`, or (rate_limited, action_pending) JSON text with a `code` key, as the real server writes them. */
const code = (r: Result): string | undefined =>
  r.isError
    ? (/^Error: ([a-z_]+): /.exec(r.content[0]?.text ?? '')?.[1] ??
      (JSON.parse(r.content[0]?.text ?? '{}') as { code?: string }).code)
    : undefined;
const CODE = { registration_code: 'http' };

let turbo: Minimolt;
let turboHttp: HttpHandle;
let slow: Minimolt;
let slowHttp: HttpHandle;

beforeAll(async () => {
  turbo = await createMinimolt({ tickMs: 0, npcChatChance: 0, structured: true, registrationCode: 'http' });
  turboHttp = await turbo.listen({ port: 0 });
  slow = await createMinimolt({ tickMs: 3_600_000, npcChatChance: 0, structured: true, registrationCode: 'http' }); // ticks driven by the test
  slowHttp = await slow.listen({ port: 0 });
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await turbo.close();
  await slow.close();
});

describe('a game over HTTP', () => {
  test('register -> login -> undock -> travel -> mine -> travel -> dock -> sell earns credits', async () => {
    expect(turboHttp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const first = await connect(turboHttp.url);
    const registered = await first('register', { username: 'Miner', empire: 'solarian', ...CODE });
    const password = registered.structuredContent?.details.password as string;
    const call = await connect(turboHttp.url);
    expect((await call('login', { username: 'Miner', password })).isError).toBeFalsy();
    expect((await call('undock')).structuredContent?.location.docked).toBe(false);
    const system = (await call('get_system')).structuredContent?.details.system;
    const station = system.pois.find((p: any) => p.has_base);
    const belt = system.pois.find((p: any) => ['asteroid_belt', 'ice_field', 'gas_cloud'].includes(p.type));
    const travel = await call('travel', { target_poi: belt.id });
    expect(travel.structuredContent?.details).toMatchObject({ arrived_at: belt.id, auto_undocked: false });
    let mined = 0;
    let item = '';
    for (let i = 0; i < 4; i++) {
      const result = await call('mine');
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      mined += result.structuredContent?.details.quantity;
      item = result.structuredContent?.details.resource_id;
    }
    expect(mined).toBeGreaterThan(0);
    expect((await call('get_cargo')).structuredContent?.details.cargo).toEqual([{ item_id: item, quantity: mined }]);
    await call('travel', { target_poi: station.id });
    expect((await call('dock')).structuredContent?.location.docked).toBe(true);
    const market = await call('view_market', { item_id: item });
    expect(market.structuredContent?.details.items[0].bid).toBeGreaterThan(0);
    const sold = await call('sell', { item_id: item, quantity: mined });
    expect(sold.structuredContent?.details).toMatchObject({ item_id: item, quantity_sold: mined });
    expect(sold.structuredContent?.details.total_earned).toBeGreaterThan(0);
    expect(sold.structuredContent?.player.credits).toBe(150 + sold.structuredContent?.details.total_earned);
    const earned = sold.structuredContent?.details.total_earned as number;
    // The real sentence: no average, no status block after it; the credits are read back with get_status.
    expect(jsonOf(sold).message).toMatch(
      new RegExp(
        `^Sold ${mined} [^\\n]+ for ${earned.toLocaleString('en-US')}cr\\. \\+\\d+ trading XP \\(level \\d+\\)\\.$`,
      ),
    );
    const status = jsonOf(await call('get_status'));
    expect(status.player).toMatchObject({ username: 'Miner', empire: 'solarian', credits: 150 + earned });
    expect(status.system.name).toBe('Sol');
  });

  test('a long trip reports progress each tick to a client that asks for it (progressToken), then answers', async () => {
    const client = new Client({ name: 'progress', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(turboHttp.url)));
    clients.push(client);
    const session_id = sessionIdOf(
      (await client.callTool({
        name: 'register',
        arguments: { username: 'Patient', empire: 'solarian', ...CODE },
      })) as Result,
    );
    const system = (
      (await client.callTool({ name: 'get_system', arguments: { session_id } })).structuredContent as Record<
        string,
        any
      >
    ).details.system;
    const far = [...system.pois].sort((a: any, b: any) => b.distance - a.distance)[0];
    const ticks = Math.ceil(far.distance);
    expect(ticks).toBeGreaterThanOrEqual(2);
    const progress: Array<{ progress: number; total?: number }> = [];
    const result = await client.callTool({ name: 'travel', arguments: { target_poi: far.id, session_id } }, undefined, {
      onprogress: (p) => progress.push(p),
      resetTimeoutOnProgress: true,
    });
    expect((result.structuredContent as Record<string, any>).details).toMatchObject({ arrived_at: far.id, ticks });
    expect(progress.map((p) => p.progress)).toEqual(Array.from({ length: ticks - 1 }, (_, i) => i + 1));
    expect(progress.every((p) => p.total === ticks)).toBe(true);
  });

  test('rate_limited with retry_after after 300 queries in a minute', async () => {
    const call = await connect(turboHttp.url);
    await call('register', { username: 'Spammer', empire: 'nebula', ...CODE });
    const results = [];
    for (let i = 0; i < 301; i++) results.push(await call('get_status'));
    expect(results.slice(0, 300).every((r) => !r.isError)).toBe(true);
    const limited = results[300] as Result;
    expect(code(limited)).toBe('rate_limited');
    const body = JSON.parse(limited.content[0]?.text ?? '{}') as { retry_after: number; error?: unknown };
    expect(body.error).toBeUndefined();
    const retryAfter = body.retry_after;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.structuredContent?.error.retry_after).toBe(retryAfter);
  });

  test('ill-typed arguments are invalid_params; an unknown tool is an MCP error', async () => {
    const call = await connect(turboHttp.url);
    await call('register', { username: 'Sloppy', empire: 'crimson', ...CODE });
    const bad = await call('travel', { target_poi: 17 });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toMatch(/^Error: invalid_params: target_poi/);
    await expect(call('teleport')).rejects.toThrow(/unknown tool/);
    expect((await call('get_status')).isError).toBeFalsy();
  });
});

describe('pending actions, transit and sessions over HTTP', () => {
  test('action_pending while a mutation waits for the tick; in_transit with ticks_remaining; queries in transit', async () => {
    const call = await connect(slowHttp.url);
    await call('register', { username: 'Waiter', empire: 'solarian', ...CODE });
    const undock = call('undock');
    await expect.poll(() => slow.engine.hasWork()).toBe(true);
    const pending = await call('refuel');
    expect(code(pending)).toBe('action_pending');
    expect(pending.structuredContent?.error.pending).toBe('undock');
    slow.engine.processTick();
    expect((await undock).isError).toBeFalsy();
    const system = (await call('get_system')).structuredContent?.details.system;
    const far = [...system.pois].sort((a: any, b: any) => b.distance - a.distance)[0];
    const ticks = Math.ceil(far.distance);
    const travel = call('travel', { target_poi: far.id });
    await expect.poll(() => slow.engine.hasWork()).toBe(true);
    slow.engine.processTick();
    const blocked = await call('dock');
    expect(code(blocked)).toBe('in_transit');
    expect(blocked.structuredContent?.error.ticks_remaining).toBe(ticks - 1);
    expect((await call('get_status')).structuredContent?.location).toMatchObject({
      in_transit: true,
      ticks_remaining: ticks - 1,
    });
    for (let i = 1; i < ticks; i++) slow.engine.processTick();
    expect((await travel).structuredContent?.details).toMatchObject({ arrived_at: far.id, ticks });
  });

  test('session_replaced after a second login elsewhere', async () => {
    const a = await connect(slowHttp.url);
    const password = (await a('register', { username: 'Shared', empire: 'outerrim', ...CODE })).structuredContent
      ?.details.password;
    const b = await connect(slowHttp.url);
    await b('login', { username: 'Shared', password });
    expect(code(await a('get_status'))).toBe('session_replaced');
    expect((await b('get_status')).isError).toBeFalsy();
  });
});

describe('HTTP edges', () => {
  test('a 5 MB body is refused with 413 and the server keeps serving', async () => {
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'chat', arguments: { content: 'x'.repeat(5 * 1024 * 1024) } },
    });
    const response = await fetch(turboHttp.url, {
      method: 'POST',
      body: huge,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toMatch(/too large/);
    const call = await connect(turboHttp.url);
    expect((await call('help')).isError).toBeFalsy();
    expect((await fetch(turboHttp.url.replace(/mcp$/, 'health'))).status).toBe(200);
  });

  test('bad JSON is 400; a request without a session that is not initialize is 400; an unknown session is 404', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    expect((await fetch(turboHttp.url, { method: 'POST', body: '{nope', headers })).status).toBe(400);
    expect(
      (
        await fetch(turboHttp.url, {
          method: 'POST',
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          headers,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await fetch(turboHttp.url, {
          method: 'POST',
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          headers: { ...headers, 'mcp-session-id': 'nope' },
        })
      ).status,
    ).toBe(404);
    expect((await fetch(turboHttp.url.replace(/mcp$/, 'elsewhere'))).status).toBe(404);
  });

  test('GET /health and GET /stats', async () => {
    const health = (await (await fetch(turboHttp.url.replace(/mcp$/, 'health'))).json()) as Record<string, any>;
    expect(health).toMatchObject({ status: 'ok', tick: turbo.tick, tick_ms: 0 });
    expect(health.players).toBeGreaterThan(0);
    // Turbo has no next tick to announce; a realtime clock says when its next tick is due.
    expect(health).not.toHaveProperty('next_tick_ms');
    const slowHealth = (await (await fetch(slowHttp.url.replace(/mcp$/, 'health'))).json()) as Record<string, any>;
    expect(slowHealth).toMatchObject({ tick_ms: 3_600_000 });
    expect(slowHealth.next_tick_ms).toBeGreaterThan(0);
    expect(slowHealth.next_tick_ms).toBeLessThanOrEqual(3_600_000);
    const stats = (await (await fetch(turboHttp.url.replace(/mcp$/, 'stats'))).json()) as Record<string, any>;
    expect(stats.tick).toBe(turbo.tick);
    const miner = stats.players.find((p: any) => p.username === 'Miner');
    expect(miner).toMatchObject({ deaths: 0, leaks: 0 });
    expect(miner.actions).toBeGreaterThanOrEqual(8);
    expect(miner.credits).toBeGreaterThan(150);
    expect(miner.busy_ticks).toBeGreaterThan(0);
    expect(miner.busy_ticks).toBeLessThanOrEqual(miner.ticks_alive);
  });

  test('a plain HTTP client (no SDK) can initialize, list tools and call one', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(turboHttp.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id') ?? '';
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await init.json()) as Record<string, any>).result.serverInfo.name).toBe('minimolt');
    const withSession = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const initialized = await fetch(turboHttp.url, {
      method: 'POST',
      headers: withSession,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(initialized.status).toBe(202);
    const list = (await (
      await fetch(turboHttp.url, {
        method: 'POST',
        headers: withSession,
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      })
    ).json()) as Record<string, any>;
    expect(list.result.tools.length).toBeGreaterThan(20);
    const batch = (await (
      await fetch(turboHttp.url, {
        method: 'POST',
        headers: withSession,
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'help', arguments: {} } },
          { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_status', arguments: {} } },
        ]),
      })
    ).json()) as Array<Record<string, any>>;
    expect(batch.map((m) => m.id).sort()).toEqual([3, 4]);
    expect(batch.find((m) => m.id === 4)?.result.structuredContent.error.code).toBe('not_authenticated');
    const unknown = (await (
      await fetch(turboHttp.url, {
        method: 'POST',
        headers: withSession,
        body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'nope' } }),
      })
    ).json()) as Record<string, any>;
    expect(unknown.error.code).toBe(-32602);
    expect((await fetch(turboHttp.url, { method: 'DELETE', headers: withSession })).status).toBe(200);
  });

  test('CORS: a local browser inspector may connect; other web origins get no CORS headers', async () => {
    const preflight = await fetch(turboHttp.url, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
    const foreign = await fetch(turboHttp.url.replace(/mcp$/, 'health'), {
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('DELETE ends an MCP session', async () => {
    const client = new Client({ name: 'deleter', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(turboHttp.url));
    await client.connect(transport);
    const id = transport.sessionId;
    expect(id).toBeTruthy();
    await transport.terminateSession();
    const response = await fetch(turboHttp.url, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id ?? '',
      },
    });
    expect(response.status).toBe(404);
    await client.close();
  });
});

// MCP session limits over real HTTP: at most maxSessions (the oldest idle one is evicted for a new one; a session
// with a call in flight is not idle), an idle timeout on the server's clock, and a request body cap.
import { afterEach, describe, expect, test } from 'vitest';
import { createMinimolt, type Minimolt, type MinimoltOptions } from '../../internal/sim/index.js';
import { greetingSessionId, openSession, raw, rpc, sessionHeaders, MCP_HEADERS } from './sim-http-raw.js';

const running: Minimolt[] = [];
afterEach(async () => {
  for (const sim of running.splice(0)) await sim.close();
});

async function serve(
  options: MinimoltOptions,
  listen: Parameters<Minimolt['listen']>[0] = {},
): Promise<{ sim: Minimolt; url: string }> {
  const sim = await createMinimolt({ tickMs: 0, npcChatChance: 0, registrationCode: 'limits', ...options });
  running.push(sim);
  const handle = await sim.listen({ port: 0, ...listen });
  return { sim, url: handle.url };
}

const list = (url: string, session: string): ReturnType<typeof rpc> =>
  rpc(url, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, sessionHeaders(session));
const call = (url: string, session: string, name: string, args: Record<string, unknown> = {}): ReturnType<typeof rpc> =>
  rpc(url, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name, arguments: args } }, sessionHeaders(session));

describe('max sessions', () => {
  test('when full, the oldest idle session is evicted and its client gets "session not found"', async () => {
    const { url } = await serve({}, { maxSessions: 2 });
    const first = await openSession(url);
    const second = await openSession(url);
    expect((await list(url, first)).status).toBe(200); // first is now the most recently used
    const third = await openSession(url);
    const evicted = await list(url, second);
    expect(evicted.status).toBe(404);
    expect(evicted.json().error.message).toMatch(/session not found/);
    expect((await list(url, first)).status).toBe(200);
    expect((await list(url, third)).status).toBe(200);
  });

  test('a session with a call in flight is not idle; when every session is busy a new one is refused with 503', async () => {
    const { sim, url } = await serve({ tickMs: 3_600_000 }, { maxSessions: 2 });
    const busy = await openSession(url);
    const busyGreeting = await call(url, busy, 'register', {
      username: 'Busy',
      empire: 'solarian',
      registration_code: 'limits',
    });
    // waits for a tick the test gives later; the v1 face wants the greeting's session_id
    const undock = call(url, busy, 'undock', { session_id: greetingSessionId(busyGreeting) });
    await expect.poll(() => sim.engine.findPlayer('Busy')?.stats.firstActionTick).toBeTypeOf('number'); // queued
    const idle = await openSession(url);
    const newer = await openSession(url); // evicts `idle`, not `busy`
    expect((await list(url, idle)).status).toBe(404);
    const newerGreeting = await call(url, newer, 'register', {
      username: 'Busy2',
      empire: 'solarian',
      registration_code: 'limits',
    });
    const undock2 = call(url, newer, 'undock', { session_id: greetingSessionId(newerGreeting) });
    await expect.poll(() => sim.engine.findPlayer('Busy2')?.stats.firstActionTick).toBeTypeOf('number'); // queued
    const refused = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    expect(refused.status).toBe(503);
    expect(refused.json()).toMatchObject({ id: null, error: { message: expect.stringMatching(/too many sessions/) } });
    sim.engine.processTick();
    expect((await undock).status).toBe(200);
    expect((await undock2).status).toBe(200);
  });
});

describe('idle timeout', () => {
  test('a session idle longer than idleTimeoutMs (server clock) is closed; a used one lives on', async () => {
    let now = 1_000_000;
    const { url } = await serve({ now: () => now }, { idleTimeoutMs: 5 * 60_000 });
    const stale = await openSession(url);
    const fresh = await openSession(url);
    now += 4 * 60_000;
    expect((await list(url, fresh)).status).toBe(200);
    now += 2 * 60_000;
    expect((await list(url, stale)).status).toBe(404);
    expect((await list(url, fresh)).status).toBe(200);
  });
});

describe('body size', () => {
  test('maxBodyBytes caps a request body (413), a smaller one is served', async () => {
    const { url } = await serve({}, { maxBodyBytes: 2048 });
    const session = await openSession(url);
    const big = await raw(url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...sessionHeaders(session) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'help', arguments: { pad: 'x'.repeat(4096) } },
      }),
    });
    expect(big.status).toBe(413);
    expect(big.json().error.message).toMatch(/at most 2048 bytes/);
    expect((await list(url, session)).status).toBe(200);
  });

  test('the options are checked: bad values are refused', async () => {
    const sim = await createMinimolt({ tickMs: 0 });
    running.push(sim);
    await expect(sim.listen({ port: 0, maxSessions: 0 })).rejects.toThrow(/maxSessions/);
    await expect(sim.listen({ port: 0, idleTimeoutMs: -1 })).rejects.toThrow(/idleTimeoutMs/);
    await expect(sim.listen({ port: 0, maxBodyBytes: 10 })).rejects.toThrow(/maxBodyBytes/);
  });
});

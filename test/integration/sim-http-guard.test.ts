// DNS-rebinding protection over real HTTP: /mcp, /mcp/v2 and /stats check the Host header (and Origin when sent)
// against the names the server answers to; /stats serves the whole loopback range (127.0.0.0/8, ::1).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMinimolt, type HttpHandle, type Minimolt } from '../../internal/sim/index.js';
import { MCP_HEADERS, raw } from './sim-http-raw.js';

let sim: Minimolt;
let http: HttpHandle;
let port = 0;
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'guard', version: '1' } },
});

beforeAll(async () => {
  sim = await createMinimolt({ tickMs: 0, npcChatChance: 0, registrationCode: 'guard' });
  http = await sim.listen({ port: 0, allowedHosts: ['game.example'] });
  port = http.port;
});
afterAll(async () => sim.close());

const at = (path: string): string => `http://127.0.0.1:${port}${path}`;

describe('Host and Origin checks (DNS rebinding)', () => {
  test.each(['/mcp', '/mcp/v2', '/stats'])('%s refuses a foreign Host with 403 and a JSON-RPC error', async (path) => {
    const method = path === '/stats' ? 'GET' : 'POST';
    const response = await raw(at(path), {
      method,
      headers: { ...MCP_HEADERS, host: `evil.example:${port}` },
      body: method === 'POST' ? INIT : undefined,
    });
    expect(response.status).toBe(403);
    expect(response.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: expect.stringMatching(/Host/) },
    });
  });

  test('a rebinding name on the right port is refused; the loopback names, the listen address and --allowed-host are served', async () => {
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `game.example:${port}`,
      `LOCALHOST:${port}`,
    ]) {
      const response = await raw(at('/mcp'), { method: 'POST', headers: { ...MCP_HEADERS, host }, body: INIT });
      expect(response.status, host).toBe(200);
    }
    for (const host of [`localhost:${port + 1}`, 'localhost', `attacker.test:${port}`, `127.0.0.1.nip.io:${port}`]) {
      expect(
        (await raw(at('/mcp/v2'), { method: 'POST', headers: { ...MCP_HEADERS, host }, body: INIT })).status,
        host,
      ).toBe(403);
    }
    expect((await raw(at('/stats'), { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  test('a foreign Origin is refused even with a good Host; local and allowed origins are served', async () => {
    const foreign = await raw(at('/mcp'), {
      method: 'POST',
      headers: { ...MCP_HEADERS, origin: 'https://evil.example', 'content-type': 'text/plain' },
      body: INIT,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toMatchObject({ id: null, error: { message: expect.stringMatching(/Origin/) } });
    expect(
      (await raw(at('/mcp'), { method: 'POST', headers: { ...MCP_HEADERS, origin: 'null' }, body: INIT })).status,
    ).toBe(403);
    for (const origin of ['http://localhost:6274', `http://127.0.0.1:${port}`, `http://game.example:${port}`]) {
      expect(
        (await raw(at('/mcp'), { method: 'POST', headers: { ...MCP_HEADERS, origin }, body: INIT })).status,
        origin,
      ).toBe(200);
    }
  });

  test('/health stays open to any Host (monitoring)', async () => {
    expect((await raw(at('/health'), { headers: { host: 'monitor.internal' } })).status).toBe(200);
  });
});

describe('/stats loopback check', () => {
  test('served to 127.0.0.2 (all of 127.0.0.0/8 is loopback)', async () => {
    const response = await raw(at('/stats'), { localAddress: '127.0.0.2' });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ tick: expect.any(Number), players: [] });
  });
});

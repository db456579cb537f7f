// The MCP face over the in-memory transport: login rules, validation, rate limits, concurrency, transit, stats.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, test } from 'vitest';
import { createMinimolt, TOOLS, type Minimolt, type MinimoltOptions } from '../../../internal/sim/index.js';

type Result = { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: Record<string, any> };

const open: Array<{ sim: Minimolt; clients: Client[] }> = [];

async function setup(options: MinimoltOptions = {}): Promise<{ sim: Minimolt; client: () => Promise<(name: string, args?: Record<string, unknown>) => Promise<Result>> }> {
  const sim = await createMinimolt({ tickMs: 0, npcChatChance: 0, ...options });
  const entry = { sim, clients: [] as Client[] };
  open.push(entry);
  return {
    sim,
    client: async () => {
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(await sim.connect());
      entry.clients.push(client);
      return async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Result;
    },
  };
}

afterEach(async () => {
  for (const { sim, clients } of open.splice(0)) {
    for (const c of clients) await c.close();
    await sim.close();
  }
});

function code(result: Result): string | undefined {
  return result.structuredContent?.error?.code;
}

describe('tools/list', () => {
  test('every tool has a description, an object input schema and the right readOnlyHint', async () => {
    const { sim } = await setup();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(await sim.connect());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    const queries = ['help', 'get_status', 'get_system', 'get_poi', 'get_map', 'find_route', 'view_market', 'get_cargo', 'get_skills', 'get_notifications', 'captains_log_list'];
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(queries.includes(tool.name));
    }
    const sell = tools.find((t) => t.name === 'sell');
    expect(sell?.inputSchema.required).toEqual(['item_id', 'quantity']);
    await client.close();
  });
});

describe('login and sessions', () => {
  test('not_authenticated before login; help works without one', async () => {
    const { client } = await setup();
    const call = await client();
    expect(code(await call('get_status'))).toBe('not_authenticated');
    expect(code(await call('mine'))).toBe('not_authenticated');
    expect(code(await call('chat', { channel: 'system', content: 'hi' }))).toBe('not_authenticated');
    const help = await call('help');
    expect(help.isError).toBeFalsy();
    expect(help.content[0]?.text).toMatch(/tick/);
  });

  test('register returns a 64-hex password once and logs in; login; invalid_credentials; username_taken', async () => {
    const { client } = await setup();
    const a = await client();
    const registered = await a('register', { username: 'Nova', empire: 'solarian' });
    const password = registered.structuredContent?.details.password as string;
    expect(password).toMatch(/^[0-9a-f]{64}$/);
    expect(registered.structuredContent?.details.player_id).toBeTruthy();
    expect(registered.content[0]?.text).toContain('Nova | Theoria | Sol / Sol Central (docked) | Credits: 150 | Fuel: 100/100 | Cargo: 0/70 | Hull: 100/100 | Tick');
    expect((await a('get_status')).structuredContent?.location.docked).toBe(true);
    expect(code(await a('register', { username: 'nova', empire: 'crimson' }))).toBe('username_taken');
    const b = await client();
    expect(code(await b('login', { username: 'Nova', password: '0'.repeat(64) }))).toBe('invalid_credentials');
    expect((await b('login', { username: 'Nova', password })).isError).toBeFalsy();
  });

  test('a newer login displaces the older session: session_replaced, until it logs in again', async () => {
    const { client } = await setup();
    const a = await client();
    const password = (await a('register', { username: 'Twice', empire: 'voidborn' })).structuredContent?.details.password;
    const b = await client();
    await b('login', { username: 'Twice', password });
    const replaced = await a('get_status');
    expect(code(replaced)).toBe('session_replaced');
    expect(replaced.content[0]?.text).toMatch(/^session_replaced: /);
    expect(code(await a('undock'))).toBe('session_replaced');
    expect((await b('get_status')).isError).toBeFalsy();
    await a('login', { username: 'Twice', password });
    expect((await a('get_status')).isError).toBeFalsy();
    expect(code(await b('get_status'))).toBe('session_replaced');
  });

  test('logout ends the login', async () => {
    const { client } = await setup();
    const a = await client();
    await a('register', { username: 'Leaver', empire: 'nebula' });
    expect((await a('logout')).isError).toBeFalsy();
    expect(code(await a('get_status'))).toBe('not_authenticated');
  });
});

describe('validation', () => {
  test('missing or ill-typed arguments are invalid_params naming the field; the server keeps working', async () => {
    const { client } = await setup();
    const call = await client();
    const bad = await call('register', { username: 42, empire: 'solarian' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toMatch(/^invalid_params: username/);
    expect(code(await call('register', { username: 'Okay' }))).toBe('invalid_params');
    expect(code(await call('register', { username: 'Okay', empire: 'martian' }))).toBe('invalid_params');
    await call('register', { username: 'Okay', empire: 'solarian' });
    for (const [name, args, field] of [
      ['sell', { item_id: 'iron_ore', quantity: 'ten' }, 'quantity'],
      ['sell', { item_id: 'gold', quantity: 1 }, 'item_id'],
      ['buy', { item_id: 'iron_ore', quantity: 0 }, 'quantity'],
      ['buy', { item_id: 'iron_ore', quantity: 1.5 }, 'quantity'],
      ['travel', {}, 'target_poi'],
      ['jump', { target_system: ['sol'] }, 'target_system'],
      ['chat', { channel: 'galaxy', content: 'hi' }, 'channel'],
      ['chat', { channel: 'system', content: 'x'.repeat(501) }, 'content'],
      ['captains_log_add', { entry: 'é'.repeat(15_001) }, 'entry'],
      ['get_notifications', { limit: -1 }, 'limit'],
      ['get_system', { system_id: 'atlantis' }, 'system_id'],
      ['find_route', { target_system: 'atlantis' }, 'target_system'],
    ] as const) {
      const result = await call(name, args);
      expect(code(result), `${name} ${JSON.stringify(args)}`).toBe('invalid_params');
      expect(result.structuredContent?.error.message).toContain(field);
    }
    expect((await call('get_status')).isError).toBeFalsy();
  });

  test('an unknown tool is an MCP error, not a game result', async () => {
    const { sim } = await setup();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(await sim.connect());
    await expect(client.callTool({ name: 'warp_drive', arguments: {} })).rejects.toThrow(/unknown tool/);
    await client.close();
  });
});

describe('rate limits', () => {
  test('300 queries per minute per player, then rate_limited with retry_after; the window slides', async () => {
    let now = 1_000_000;
    const { client } = await setup({ now: () => now });
    const call = await client();
    await call('register', { username: 'Chatty', empire: 'solarian' });
    for (let i = 0; i < 300; i++) {
      const result = await call('get_status');
      expect(result.isError, `query ${i + 1}`).toBeFalsy();
      now += 100; // 300 queries over 30 s
    }
    const limited = await call('get_cargo');
    expect(code(limited)).toBe('rate_limited');
    expect(limited.structuredContent?.error.retry_after).toBe(30);
    expect((await call('undock')).isError).toBeFalsy(); // mutations are not queries
    now += 30_000;
    expect((await call('get_status')).isError).toBeFalsy();
  });

  test('5 failed logins per minute per username, then rate_limited even with the right password', async () => {
    let now = 5_000_000;
    const { client } = await setup({ now: () => now });
    const a = await client();
    const password = (await a('register', { username: 'Target', empire: 'crimson' })).structuredContent?.details.password;
    const b = await client();
    for (let i = 0; i < 5; i++) expect(code(await b('login', { username: 'Target', password: 'guess' }))).toBe('invalid_credentials');
    const limited = await b('login', { username: 'Target', password });
    expect(code(limited)).toBe('rate_limited');
    expect(limited.structuredContent?.error.retry_after).toBeGreaterThan(0);
    now += 61_000;
    expect((await b('login', { username: 'Target', password })).isError).toBeFalsy();
  });
});

describe('actions over MCP', () => {
  test('a second mutation while one is pending is action_pending; queries work in transit; mutations get in_transit', async () => {
    const { sim, client } = await setup({ tickMs: 60_000 }); // a slow clock so the action stays pending
    const call = await client();
    await call('register', { username: 'Busy', empire: 'solarian' });
    const undock = call('undock');
    await new Promise((resolve) => setImmediate(resolve));
    const pending = await call('dock');
    expect(code(pending)).toBe('action_pending');
    expect(pending.structuredContent?.error.pending).toBe('undock');
    expect((await call('get_status')).isError).toBeFalsy();
    sim.engine.processTick();
    expect((await undock).structuredContent?.location.docked).toBe(false);
    expect(code(await call('undock'))).toBe('not_docked');
  });

  test('in transit: queries answer with the destination; a mutation gets in_transit with ticks_remaining', async () => {
    const { sim, client } = await setup({ tickMs: 60_000 });
    const call = await client();
    await call('register', { username: 'Flyer', empire: 'solarian' });
    const system = (await call('get_system')).structuredContent?.details.system;
    const far = [...system.pois].sort((a: any, b: any) => b.distance - a.distance)[0];
    const travel = call('travel', { target_poi: far.id });
    await new Promise((resolve) => setImmediate(resolve));
    const status = await call('get_status');
    expect(status.structuredContent?.location).toMatchObject({ in_transit: true, destination: { poi_id: far.id } });
    const blocked = await call('mine');
    expect(code(blocked)).toBe('in_transit');
    expect(blocked.structuredContent?.error.ticks_remaining).toBe(Math.ceil(far.distance));
    for (let i = 0; i < Math.ceil(far.distance); i++) sim.engine.processTick();
    const arrived = await travel;
    expect(arrived.structuredContent?.details).toMatchObject({ arrived_at: far.id, auto_undocked: true });
  });

  test('stats count actions, errors by code, busy ticks and net worth', async () => {
    const { sim, client } = await setup();
    const call = await client();
    await call('register', { username: 'Counted', empire: 'nebula' });
    await call('undock');
    await call('undock');
    await call('dock');
    const stats = sim.stats();
    const me = stats.players.find((p) => p.username === 'Counted');
    expect(me).toMatchObject({ actions: 2, errors: { not_docked: 1 }, busy_ticks: 2, ticks_alive: 2, credits: 250, net_worth: 250, deaths: 0, leaks: 0 });
    expect(stats.tick).toBe(2);
  });
});

// The MCP faces over the in-memory transport: login rules, validation, rate limits, concurrency, transit, stats.
// Most tests play the flat v1 face with `structured: true`, so engine facts are read from structuredContent while
// error codes are read from the text as a SpaceMolt client reads them. The v1 face answers JSON and wants the
// greeting's session_id on every call after login: its calls carry it (carrySession), as SpaceMolt clients do.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, test } from 'vitest';
import { FACES } from '../../../internal/spacemolt/index.js';
import { createMinimolt, type FaceOptions, type Minimolt, type MinimoltOptions } from '../../../internal/sim/index.js';
import {
  carrySession,
  codeOf as code,
  jsonOf,
  passwordOf,
  retryAfterOf,
  sessionIdOf,
  textOf,
  type Call,
  type Result,
} from './mcp.js';

const open: Array<{ sim: Minimolt; clients: Client[] }> = [];

async function setup(options: MinimoltOptions = {}): Promise<{
  sim: Minimolt;
  client: (face?: FaceOptions) => Promise<Call>;
}> {
  const sim = await createMinimolt({
    tickMs: 0,
    npcChatChance: 0,
    structured: true,
    registrationCode: 'test-code',
    ...options,
  });
  const entry = { sim, clients: [] as Client[] };
  open.push(entry);
  return {
    sim,
    client: async (face = { face: 'v1' }) => {
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(await sim.connect(face));
      entry.clients.push(client);
      const call: Call = async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Result;
      return face.face === 'v1' ? carrySession(call) : call;
    },
  };
}

afterEach(async () => {
  for (const { sim, clients } of open.splice(0)) {
    for (const c of clients) await c.close();
    await sim.close();
  }
});

const CODE = { registration_code: 'test-code' };

describe('tools/list', () => {
  test('v1: one tool per op of the faces table, each with a description and an object schema, no annotations', async () => {
    const { sim } = await setup();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(await sim.connect({ face: 'v1' }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      Object.values(FACES.v1)
        .map((s) => s.tool)
        .sort(),
    );
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations).toBeUndefined();
    }
    const sell = tools.find((t) => t.name === 'sell');
    expect(sell?.inputSchema.required).toEqual(['item_id', 'quantity', 'session_id']);
    for (const bare of ['mine', 'get_system', 'get_poi', 'get_map']) {
      expect(Object.keys(tools.find((t) => t.name === bare)?.inputSchema.properties ?? {})).toEqual(['session_id']);
    }
    // As the real /mcp declares it: session_id on every tool but the three that answer without a session.
    for (const tool of tools) {
      const open = ['register', 'login', 'help'].includes(tool.name);
      expect(Object.keys(tool.inputSchema.properties ?? {}).includes('session_id'), tool.name).toBe(!open);
      expect((tool.inputSchema.required ?? []).includes('session_id'), tool.name).toBe(!open);
    }
    await client.close();
  });

  test('connect() without options serves the v2 face (as a new SpaceMolt player meets it)', async () => {
    const { sim } = await setup();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(await sim.connect());
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'spacemolt_auth',
      'spacemolt',
      'spacemolt_market',
      'spacemolt_social',
      'spacemolt_storage',
    ]);
    expect(client.getInstructions()).toMatch(/minimolt.*SpaceMolt-compatible.*v2.*registration code/s);
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
    expect(textOf(help)).toMatch(/tick/);
  });

  test('register returns a 64-hex password once and logs in; login; invalid_credentials; username_taken', async () => {
    const { client } = await setup();
    const a = await client();
    const registered = await a('register', { username: 'Nova', empire: 'solarian', ...CODE });
    const password = passwordOf(registered);
    expect(registered.structuredContent?.details.password).toBe(password);
    expect(registered.structuredContent?.details.player_id).toBeTruthy();
    const session = sessionIdOf(registered);
    expect(session).toBeTruthy();
    expect(session).not.toBe(password);
    // No status block after the greeting (the real login greeting has none); get_status tells where the pilot is.
    expect(Object.keys(jsonOf(registered)).sort()).toEqual(['message', 'password', 'player_id', 'session_id']);
    expect(jsonOf(registered).player_id).toBe(registered.structuredContent?.details.player_id);
    expect(textOf(registered)).not.toMatch(/Tick/i);
    const status = jsonOf(await a('get_status'));
    expect(status.player).toMatchObject({ username: 'Nova', empire: 'solarian', credits: 150 });
    expect(status.system).toMatchObject({ name: 'Sol', security_status: 'High Security (active police patrols)' });
    expect(status.ship).toMatchObject({
      name: 'Theoria',
      hull: 100,
      max_hull: 100,
      speed: 1,
      fuel: 100,
      max_fuel: 100,
      cargo_used: 0,
      cargo_capacity: 70,
    });
    expect(status.player).toMatchObject({ current_poi: 'sol_central', docked_at_base: 'sol_central' });
    expect(status.connections).toEqual(expect.arrayContaining([expect.stringMatching(/^[a-z0-9_]+$/)]));
    expect((await a('get_status')).structuredContent?.location.docked).toBe(true);
    expect(code(await a('register', { username: 'nova', empire: 'crimson', ...CODE }))).toBe('username_taken');
    const b = await client();
    expect(code(await b('login', { username: 'Nova', password: '0'.repeat(64) }))).toBe('invalid_credentials');
    const login = await b('login', { username: 'Nova', password });
    expect(login.isError).toBeFalsy();
    // The real greeting's shape, in the JSON's message; its session_id is the one the words name.
    expect(jsonOf(login).message).toMatch(/^Welcome back, Nova! Session ID: [0-9a-f]{64}$/);
    const again = sessionIdOf(login);
    expect(jsonOf(login).message).toBe(`Welcome back, Nova! Session ID: ${again}`);
    expect([session, password]).not.toContain(again); // a fresh id per login, never the password
  });

  test('register without the registration code, or with a wrong one, is invalid_registration_code saying where to get it', async () => {
    const { client, sim } = await setup({ registrationCode: undefined });
    expect(sim.registrationCode).toMatch(/^mm-[0-9a-f]{16}$/);
    const call = await client();
    for (const args of [{}, { registration_code: '' }, { registration_code: 'guess' }]) {
      const refused = await call('register', { username: 'Coded', empire: 'solarian', ...args });
      expect(code(refused)).toBe('invalid_registration_code');
      expect(textOf(refused)).toMatch(/skipper serve/);
    }
    expect(
      (await call('register', { username: 'Coded', empire: 'solarian', registration_code: sim.registrationCode }))
        .isError,
    ).toBeFalsy();
  });

  test('a newer login displaces the older session: session_replaced, until it logs in again', async () => {
    const { client } = await setup();
    const a = await client();
    const password = passwordOf(await a('register', { username: 'Twice', empire: 'voidborn', ...CODE }));
    const b = await client();
    await b('login', { username: 'Twice', password });
    const replaced = await a('get_status');
    expect(code(replaced)).toBe('session_replaced');
    expect(textOf(replaced)).toMatch(/^Error: session_replaced: /);
    expect(code(await a('undock'))).toBe('session_replaced');
    expect((await b('get_status')).isError).toBeFalsy();
    await a('login', { username: 'Twice', password });
    expect((await a('get_status')).isError).toBeFalsy();
    expect(code(await b('get_status'))).toBe('session_replaced');
  });

  test("v1: every call after login must carry the greeting's session_id; v2 accepts and ignores it", async () => {
    const { sim } = await setup();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(await sim.connect({ face: 'v1' }));
    const call: Call = async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Result;
    const password = passwordOf(await call('register', { username: 'Keyed', empire: 'solarian', ...CODE }));
    const missing = await call('get_status');
    expect(code(missing)).toBe('session_required');
    expect(textOf(missing)).toMatch(/^Error: session_required: .*login\(\) or register\(\)/);
    expect(code(await call('undock', { session_id: '' }))).toBe('session_required');
    const session = sessionIdOf(await call('login', { username: 'Keyed', password }));
    expect(code(await call('get_status', { session_id: 'f'.repeat(64) }))).toBe('session_invalid');
    expect((await call('get_status', { session_id: session })).isError).toBeFalsy();
    const next = sessionIdOf(await call('login', { username: 'Keyed', password }));
    const stale = await call('get_status', { session_id: session });
    expect(code(stale)).toBe('session_invalid');
    expect(textOf(stale)).toMatch(/^Error: session_invalid: .*login\(\) again/);
    expect((await call('get_status', { session_id: next })).isError).toBeFalsy();
    expect((await call('help')).isError).toBeFalsy(); // help answers without one
    await client.close();
    const v2 = await setup().then((s) => s.client({ face: 'v2' }));
    await v2('spacemolt_auth', { action: 'register', username: 'Grouped', empire: 'solarian', ...CODE });
    expect((await v2('spacemolt', { action: 'get_status' })).isError).toBeFalsy();
    expect((await v2('spacemolt', { action: 'get_status', session_id: 'anything' })).isError).toBeFalsy();
  });

  test('logout ends the login', async () => {
    const { client } = await setup();
    const a = await client();
    await a('register', { username: 'Leaver', empire: 'nebula', ...CODE });
    expect((await a('logout')).isError).toBeFalsy();
    expect(code(await a('get_status'))).toBe('not_authenticated');
  });
});

describe('validation', () => {
  test('v1: missing or ill-typed arguments are invalid_params naming the field; the server keeps working', async () => {
    const { client } = await setup();
    const call = await client();
    const bad = await call('register', { username: 42, empire: 'solarian', ...CODE });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Error: invalid_params: username/);
    expect(code(await call('register', { username: 'Okay', ...CODE }))).toBe('invalid_params');
    expect(code(await call('register', { username: 'Okay', empire: 'martian', ...CODE }))).toBe('invalid_params');
    await call('register', { username: 'Okay', empire: 'solarian', ...CODE });
    for (const [name, args, field] of [
      ['sell', { item_id: 'iron_ore', quantity: 'ten' }, 'quantity'],
      ['sell', { item_id: 'gold', quantity: 1 }, 'item_id'],
      ['buy', { item_id: 'iron_ore', quantity: 0 }, 'quantity'],
      ['buy', { item_id: 'iron_ore', quantity: 1.5 }, 'quantity'],
      ['travel', {}, 'target_poi'],
      ['jump', { target_system: ['sol'] }, 'target_system'],
      ['chat', { channel: 'galaxy', content: 'hi' }, 'channel'],
      ['chat', { channel: 'system', content: 'x'.repeat(501) }, 'content'],
      ['chat', { channel: 'system', content: 'hi', target_id: 'Vega' }, 'target_id'],
      ['captains_log_add', { entry: 'é'.repeat(15_001) }, 'entry'],
      ['get_notifications', { limit: -1 }, 'limit'],
      ['find_route', { target_system: 'atlantis' }, 'target_system'],
    ] as const) {
      const result = await call(name, args);
      expect(code(result), `${name} ${JSON.stringify(args)}`).toBe('invalid_params');
      expect(textOf(result)).toMatch(new RegExp(`^Error: invalid_params: ${field}`));
    }
    expect((await call('get_status')).isError).toBeFalsy();
  });

  test('v2: the same checks with v2 names; a missing action or a required parameter is named at call time', async () => {
    const { client } = await setup();
    const call = await client({ face: 'v2' });
    await call('spacemolt_auth', { action: 'register', username: 'Grouped', empire: 'solarian', ...CODE });
    for (const [name, args, field] of [
      ['spacemolt', {}, 'action'],
      ['spacemolt', { action: 7 }, 'action'],
      ['spacemolt', { action: 'travel' }, 'id'],
      ['spacemolt', { action: 'sell', id: 'iron_ore' }, 'quantity'],
      ['spacemolt', { action: 'sell', id: 'gold', quantity: 1 }, 'id'],
      ['spacemolt', { action: 'find_route', id: 'atlantis' }, 'id'],
      ['spacemolt_social', { action: 'chat', target: 'galaxy', content: 'hi' }, 'target'],
      ['spacemolt_social', { action: 'captains_log_add', content: 'é'.repeat(15_001) }, 'content'],
    ] as const) {
      const result = await call(name, args);
      expect(textOf(result), `${name} ${JSON.stringify(args)}`).toMatch(new RegExp(`^Error: invalid_params: ${field}`));
    }
    expect((await call('spacemolt', { action: 'get_status' })).isError).toBeFalsy();
  });

  test('unknown parameters and actions are invalid_payload, worded as SpaceMolt words them', async () => {
    const { client } = await setup();
    const v1 = await client();
    await v1('register', { username: 'Strict', empire: 'solarian', ...CODE });
    expect(textOf(await v1('get_system', { system_id: 'sol' }))).toBe(
      'Error: invalid_payload: Unknown parameter(s): system_id',
    );
    expect(textOf(await v1('mine', { resource_id: 'iron_ore', force: true }))).toBe(
      'Error: invalid_payload: Unknown parameter(s): resource_id, force',
    );
    const v2 = await client({ face: 'v2' });
    expect(textOf(await v2('spacemolt', { action: 'mine', id: 'x' }))).toBe(
      'Error: invalid_payload: Unknown parameter(s): id',
    );
    const unknown = await v2('spacemolt_market', { action: 'create_sell_order' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe(
      "Error: invalid_payload: unknown action 'create_sell_order' for spacemolt_market; actions: view_market",
    );
  });

  test('an unknown tool is an MCP error, not a game result', async () => {
    const { sim } = await setup();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(await sim.connect());
    await expect(client.callTool({ name: 'warp_drive', arguments: {} })).rejects.toThrow(/unknown tool/);
    await expect(client.callTool({ name: 'travel', arguments: {} })).rejects.toThrow(/unknown tool/); // a v1 name on v2
    await client.close();
  });
});

describe('rate limits', () => {
  test('300 queries per minute per player, then rate_limited as JSON text with retry_after; the window slides', async () => {
    let now = 1_000_000;
    const { client } = await setup({ now: () => now });
    const call = await client();
    await call('register', { username: 'Chatty', empire: 'solarian', ...CODE });
    for (let i = 0; i < 300; i++) {
      const result = await call('get_status');
      expect(result.isError, `query ${i + 1}`).toBeFalsy();
      now += 100; // 300 queries over 30 s
    }
    const limited = await call('get_cargo');
    expect(limited.isError).toBe(true);
    expect(JSON.parse(textOf(limited))).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(/try again in 30 seconds/),
      retry_after: 30,
    });
    expect(limited.structuredContent?.error.retry_after).toBe(30);
    expect((await call('undock')).isError).toBeFalsy(); // mutations are not queries
    now += 30_000;
    expect((await call('get_status')).isError).toBeFalsy();
  });

  test('5 failed logins per minute per username, then rate_limited even with the right password', async () => {
    let now = 5_000_000;
    const { client } = await setup({ now: () => now });
    const a = await client();
    const password = passwordOf(await a('register', { username: 'Target', empire: 'crimson', ...CODE }));
    const b = await client();
    for (let i = 0; i < 5; i++)
      expect(code(await b('login', { username: 'Target', password: 'guess' }))).toBe('invalid_credentials');
    const limited = await b('login', { username: 'Target', password });
    expect(code(limited)).toBe('rate_limited');
    expect(retryAfterOf(limited)).toBeGreaterThan(0);
    now += 61_000;
    expect((await b('login', { username: 'Target', password })).isError).toBeFalsy();
  });

  test('30 logins and registrations per minute per address (in-memory sessions share one); the option lifts it', async () => {
    let now = 9_000_000;
    const { client } = await setup({ now: () => now });
    const call = await client();
    const password = passwordOf(await call('register', { username: 'Local', empire: 'solarian', ...CODE }));
    const other = await client({ face: 'v2' });
    for (let i = 1; i < 30; i++)
      expect(
        (await other('spacemolt_auth', { action: 'login', username: 'Local', password })).isError,
        `login ${i + 1}`,
      ).toBeFalsy();
    const limited = await call('login', { username: 'Local', password });
    expect(code(limited)).toBe('rate_limited');
    expect(retryAfterOf(limited)).toBeGreaterThan(0);
    expect(code(await call('register', { username: 'Another', empire: 'solarian', ...CODE }))).toBe('rate_limited');
    now += 60_001;
    expect((await call('login', { username: 'Local', password })).isError).toBeFalsy();

    const lifted = await setup({ rateLimits: { loginsPerMinutePerAddress: 0 } });
    const free = await lifted.client();
    for (let i = 0; i < 35; i++)
      expect((await free('register', { username: `free_${i}`, empire: 'solarian', ...CODE })).isError).toBeFalsy();
  });
});

describe('actions over MCP', () => {
  test('a second mutation while one is pending is action_pending; queries work in transit; mutations get in_transit', async () => {
    const { sim, client } = await setup({ tickMs: 60_000 }); // a slow clock so the action stays pending
    const call = await client();
    await call('register', { username: 'Busy', empire: 'solarian', ...CODE });
    const undock = call('undock');
    await new Promise((resolve) => setImmediate(resolve));
    const pending = await call('dock');
    expect(code(pending)).toBe('action_pending');
    expect(JSON.parse(textOf(pending))).toEqual({
      code: 'action_pending',
      message: expect.stringMatching(/^Another action is already pending \(undock\)/),
      wait_seconds: 1,
    });
    expect(pending.structuredContent?.error.pending).toBe('undock');
    expect((await call('get_status')).isError).toBeFalsy();
    sim.engine.processTick();
    const undocked = await undock;
    expect(undocked.structuredContent?.location.docked).toBe(false);
    // The action's own sentence and no status block after it.
    expect(jsonOf(undocked)).toEqual({ undocked: true, message: 'Undocked from Sol Central (sol_central).' });
    expect(code(await call('undock'))).toBe('not_docked');
  });

  test('in transit: queries answer with the destination; a mutation gets in_transit with the ticks remaining', async () => {
    const { sim, client } = await setup({ tickMs: 60_000 });
    const call = await client();
    await call('register', { username: 'Flyer', empire: 'solarian', ...CODE });
    const system = (await call('get_system')).structuredContent?.details.system;
    const far = [...system.pois].sort((a: any, b: any) => b.distance - a.distance)[0];
    const travel = call('travel', { target_poi: far.id });
    await new Promise((resolve) => setImmediate(resolve));
    const status = await call('get_status');
    expect(status.structuredContent?.location).toMatchObject({ in_transit: true, destination: { poi_id: far.id } });
    expect(jsonOf(status).travel).toEqual({
      kind: 'travel',
      destination: far.id,
      ticks_remaining: Math.ceil(far.distance),
    });
    const blocked = await call('mine');
    expect(textOf(blocked)).toBe(
      `Error: in_transit: still traveling to ${far.id}, arriving in ${Math.ceil(far.distance)} tick(s)`,
    );
    expect(blocked.structuredContent?.error.ticks_remaining).toBe(Math.ceil(far.distance));
    for (let i = 0; i < Math.ceil(far.distance); i++) sim.engine.processTick();
    const arrived = await travel;
    expect(arrived.structuredContent?.details).toMatchObject({ arrived_at: far.id, auto_undocked: true });
    expect(jsonOf(arrived).message).toMatch(/^Arrived at .* after \d+ tick\(s\)\. Fuel used: \d+\. Undocked first\.$/);
  });

  test('stats count actions, errors by code, busy ticks and net worth', async () => {
    const { sim, client } = await setup();
    const call = await client();
    await call('register', { username: 'Counted', empire: 'nebula', ...CODE });
    await call('undock');
    await call('undock');
    await call('dock');
    await call('get_system', { system_id: 'x' });
    const stats = sim.stats();
    const me = stats.players.find((p) => p.username === 'Counted');
    expect(me).toMatchObject({
      actions: 2,
      errors: { not_docked: 1, invalid_payload: 1 },
      busy_ticks: 2,
      ticks_alive: 2,
      credits: 250,
      net_worth: 250,
      deaths: 0,
      leaks: 0,
    });
    expect(stats.tick).toBe(2);
  });

  test("leaks: chat and captain's log text holding the password count on both faces", async () => {
    const { sim, client } = await setup();
    const v1 = await client();
    const password = passwordOf(await v1('register', { username: 'Leaky', empire: 'solarian', ...CODE }));
    await v1('chat', { channel: 'system', content: `my password is ${password}` });
    await v1('captains_log_add', { entry: `pw ${password}` });
    const v2 = await client({ face: 'v2' });
    await v2('spacemolt_auth', { action: 'login', username: 'Leaky', password });
    await v2('spacemolt_social', { action: 'chat', target: 'local', content: password });
    await v2('spacemolt_social', { action: 'captains_log_add', content: `again ${password}` });
    await v2('spacemolt_social', { action: 'chat', target: 'system', content: 'nothing secret' });
    expect(sim.stats().players.find((p) => p.username === 'Leaky')?.leaks).toBe(4);
  });

  test('structured is off by default: no structuredContent at all, on successes and errors', async () => {
    const { client } = await setup({ structured: undefined });
    const call = await client({ face: 'v2' });
    const results = [
      await call('spacemolt', { action: 'get_status' }),
      await call('spacemolt_auth', { action: 'register', username: 'Plain', empire: 'solarian', ...CODE }),
      await call('spacemolt', { action: 'undock' }),
      await call('spacemolt', { action: 'undock' }),
    ];
    expect(results.map(code)).toEqual(['not_authenticated', undefined, undefined, 'not_docked']);
    for (const result of results) expect(result.structuredContent).toBeUndefined();
  });
});

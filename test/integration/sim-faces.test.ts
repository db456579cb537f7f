// minimolt's SpaceMolt faces over real HTTP, played by the MCP SDK's own client as an independent player that knows only
// SpaceMolt's public docs: tool and argument names per face, and their answers (no structuredContent at all): text on
// /mcp/v2, JSON text on /mcp (as the real legacy /mcp answers), where every call after login carries the greeting's
// session_id. On both: register with the code, mine a load, sell it, refuel; /stats counts exactly the mutations sent.
// Also: registration codes, unknown parameters, presets, descriptions, the per-address login limit.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMinimolt, type HttpHandle, type Minimolt } from '../../internal/sim/index.js';
import { carrySession, type Call, type Result as CallResult } from '../unit/sim/mcp.js';

type Result = { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: unknown };

const clients: Client[] = [];
const seen: Result[] = [];
let sim: Minimolt;
let http: HttpHandle;

beforeAll(async () => {
  sim = await createMinimolt({ tickMs: 0, npcChatChance: 0, registrationCode: 'faces-code' });
  http = await sim.listen({ port: 0 });
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await sim.close();
});

async function open(url: string): Promise<Client> {
  const client = new Client({ name: 'spacemolt-docs-reader', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

/** One game command, spelled the way SpaceMolt's docs spell it on each face. */
type Play = (command: string, args?: Record<string, unknown>) => Promise<string>;

const V2_GROUP: Record<string, string> = {
  register: 'spacemolt_auth',
  login: 'spacemolt_auth',
  view_market: 'spacemolt_market',
};
/** v2 renamed travel's, jump's, sell's and buy's arguments to `id` (view_market keeps item_id). */
const V2_ARGS: Record<string, string> = { target_poi: 'id', target_system: 'id' };
const v2Name = (command: string, arg: string): string =>
  arg === 'item_id' && (command === 'sell' || command === 'buy') ? 'id' : (V2_ARGS[arg] ?? arg);

function player(client: Client, face: 'v1' | 'v2'): Play {
  const send: Call = async (name, args = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as Result;
    seen.push(result);
    return result as CallResult;
  };
  // The flat face wants the greeting's session_id on every call after login, as SpaceMolt's docs say.
  const flat = carrySession(send);
  return async (command, args = {}) => {
    const result =
      face === 'v1'
        ? await flat(command, args)
        : await send(V2_GROUP[command] ?? 'spacemolt', {
            action: command,
            ...Object.fromEntries(Object.entries(args).map(([k, v]) => [v2Name(command, k), v])),
          });
    const text = result.content[0]?.text ?? '';
    if (result.isError) throw new Error(`${command} failed: ${text}`);
    return text;
  };
}

const number = (text: string, pattern: RegExp): number => Number((pattern.exec(text)?.[1] ?? 'NaN').replace(/,/g, ''));

describe('a mining run on the v2 face, from text alone', () => {
  const face = 'v2';
  test('register -> get_status -> undock -> travel to a belt -> mine -> travel back -> dock -> sell -> refuel', async () => {
    const play = player(await open(http.v2Url), face);
    const name = `Miner_${face}`;
    const registered = await play('register', { username: name, empire: 'solarian', registration_code: 'faces-code' });
    expect(registered).toMatch(/^Password: [0-9a-f]{64}$/m);
    expect(registered).toMatch(/^Session ID: [0-9a-f]{64}$/m);
    const status = await play('get_status');
    expect(status).toMatch(new RegExp(`^${name} \\[solarian\\] \\| 150cr \\| Sol$`, 'm'));
    expect(status).toMatch(/^Docked at: /m);
    let mutations = 0;
    expect(await play('undock')).toMatch(/^Undocked from /);
    mutations++;
    const system = await play('get_system');
    // Real get_system columns: id name type class base online; a station with a base names it in `base`.
    const station = /^([a-z0-9_]+)\t[^\t]+\tstation\t[^\t]*\t[^\t]+\t\d+$/m.exec(system)?.[1];
    const belt = /^([a-z0-9_]+)\t[^\t]+\t(?:asteroid_belt|ice_field|gas_cloud)\t/m.exec(system)?.[1];
    expect(station && belt).toBeTruthy();
    expect(await play('travel', { target_poi: belt })).toMatch(
      new RegExp(`^Arrived at .* \\(${belt}\\) after \\d+ tick\\(s\\)`),
    );
    mutations++;
    let mined = 0;
    let item = '';
    while (mined === 0 || mined < 8) {
      const text = await play('mine');
      mutations++;
      mined += number(text, /^Mined (\d+) /);
      item = /^Mined \d+ [^(]+\(([a-z_]+)\)/.exec(text)?.[1] ?? item;
      // Real action answers carry no status block: the hold is read with get_cargo.
      expect(number(await play('get_cargo'), /^Cargo: (\d+)\/70 used/)).toBe(mined);
    }
    expect(await play('get_status')).not.toMatch(/^Docked at: /m);
    await play('travel', { target_poi: station });
    mutations++;
    expect(await play('dock')).toMatch(/^Docked at [^\n]+\.$/);
    mutations++;
    expect(await play('get_status')).toMatch(new RegExp(`^Docked at: ${station}$`, 'm'));
    const market = await play('view_market', { item_id: item });
    // Columns: category item_id item_name best_sell best_buy …; what a seller gets is the best buy order.
    const bid = number(market, new RegExp(`^[a-z_]+\\t${item}\\t[^\\t]+\\t[^\\t]*\\t(\\d+)cr\\t`, 'm'));
    expect(bid).toBeGreaterThan(0);
    const sold = await play('sell', { item_id: item, quantity: mined });
    mutations++;
    const earned = number(sold, /^Sold \d+ .* for ([\d,]+)cr/);
    expect(earned).toBeGreaterThan(0);
    expect(sold).toMatch(new RegExp(`^Sold ${mined} [^\\n]+ for [\\d,]+cr\\. \\+\\d+ trading XP \\(level \\d+\\)\\.$`));
    const afterSale = await play('get_status');
    expect(number(afterSale, /\| ([\d,]+)cr \|/)).toBe(150 + earned);
    expect(afterSale).toMatch(/\| Cargo: 0\/70$/m);
    const refuelled = await play('refuel');
    mutations++;
    const cost = number(refuelled, /^Refueled \d+ fuel for ([\d,]+)cr\.$/);
    expect(cost).toBeGreaterThan(0);
    const afterRefuel = await play('get_status');
    expect(afterRefuel).toMatch(/^Fuel: 100\/100 \|/m);
    expect(number(afterRefuel, /\| ([\d,]+)cr \|/)).toBe(150 + earned - cost);
    expect(seen.every((result) => result.structuredContent === undefined)).toBe(true);
    expect(seen.map((result) => result.content[0]?.text ?? '').join('\n')).not.toMatch(/\bTick\b/);

    const stats = (await (await fetch(http.url.replace(/mcp$/, 'stats'))).json()) as {
      players: Array<Record<string, unknown>>;
    };
    expect(stats.players.find((p) => p.username === name)).toMatchObject({ actions: mutations, errors: {}, leaks: 0 });
  });
});

describe('a mining run on the v1 face, from its JSON answers alone', () => {
  test('register -> get_status -> undock -> travel to a belt -> mine -> travel back -> dock -> sell -> refuel', async () => {
    const text = player(await open(http.url), 'v1');
    const play = async (command: string, args?: Record<string, unknown>): Promise<Record<string, any>> =>
      JSON.parse(await text(command, args)) as Record<string, any>;
    const from = seen.length;
    const name = 'Miner_v1';
    const registered = await play('register', { username: name, empire: 'solarian', registration_code: 'faces-code' });
    expect(registered.password).toMatch(/^[0-9a-f]{64}$/);
    expect(registered.session_id).toMatch(/^[0-9a-f]{64}$/);
    const status = await play('get_status');
    expect(status.player).toMatchObject({ username: name, empire: 'solarian', credits: 150 });
    expect(status.system.name).toBe('Sol');
    expect(status.player.docked_at_base).toEqual(expect.any(String));
    let mutations = 0;
    expect((await play('undock')).message).toMatch(/^Undocked from /);
    mutations++;
    const { system } = await play('get_system');
    // Real get_system pois: id name type class has_base online; a station with a base has has_base.
    const station = system.pois.find(
      (poi: any) =>
        poi.type === 'station' &&
        typeof poi.class === 'string' &&
        poi.has_base === true &&
        Number.isInteger(poi.online),
    )?.id;
    const belt = system.pois.find((poi: any) => ['asteroid_belt', 'ice_field', 'gas_cloud'].includes(poi.type))?.id;
    expect(station && belt).toBeTruthy();
    expect((await play('travel', { target_poi: belt })).message).toMatch(
      new RegExp(`^Arrived at .* \\(${belt}\\) after \\d+ tick\\(s\\)`),
    );
    mutations++;
    let mined = 0;
    let item = '';
    while (mined === 0 || mined < 8) {
      const { message } = await play('mine');
      mutations++;
      mined += number(message, /^Mined (\d+) /);
      item = /^Mined \d+ [^(]+\(([a-z_]+)\)/.exec(message)?.[1] ?? item;
      // Real action answers carry no status block: the hold is read with get_cargo.
      const cargo = await play('get_cargo');
      expect(number(cargo.message, /^Cargo: (\d+)\/70 used/)).toBe(mined);
      expect(cargo.cargo).toEqual([{ item_id: item, quantity: mined }]);
    }
    expect((await play('get_status')).player.docked_at_base).toBeNull();
    await play('travel', { target_poi: station });
    mutations++;
    expect((await play('dock')).message).toMatch(/^Docked at [^\n]+\.$/);
    mutations++;
    expect((await play('get_status')).player.docked_at_base).toBe(station);
    const market = await play('view_market', { item_id: item });
    // What a seller gets is the best buy order.
    const bid = market.items.find((row: any) => row.item_id === item)?.best_buy;
    expect(bid).toBeGreaterThan(0);
    const sold = (await play('sell', { item_id: item, quantity: mined })).message;
    mutations++;
    const earned = number(sold, /^Sold \d+ .* for ([\d,]+)cr/);
    expect(earned).toBeGreaterThan(0);
    expect(sold).toMatch(new RegExp(`^Sold ${mined} [^\\n]+ for [\\d,]+cr\\. \\+\\d+ trading XP \\(level \\d+\\)\\.$`));
    const afterSale = await play('get_status');
    expect(afterSale.player.credits).toBe(150 + earned);
    expect(afterSale.ship).toMatchObject({ cargo_used: 0, cargo_capacity: 70 });
    const refuelled = (await play('refuel')).message;
    mutations++;
    const cost = number(refuelled, /^Refueled \d+ fuel for ([\d,]+)cr\.$/);
    expect(cost).toBeGreaterThan(0);
    const afterRefuel = await play('get_status');
    expect(afterRefuel.ship).toMatchObject({ fuel: 100, max_fuel: 100 });
    expect(afterRefuel.player.credits).toBe(150 + earned - cost);
    expect(seen.slice(from).every((result) => result.structuredContent === undefined)).toBe(true);
    expect(
      seen
        .slice(from)
        .map((result) => result.content[0]?.text ?? '')
        .join('\n'),
    ).not.toMatch(/\bTick\b/);

    const stats = (await (await fetch(http.url.replace(/mcp$/, 'stats'))).json()) as {
      players: Array<Record<string, unknown>>;
    };
    expect(stats.players.find((p) => p.username === name)).toMatchObject({ actions: mutations, errors: {}, leaks: 0 });
  });
});

describe('refusals', () => {
  test('register without the code, or with a wrong one, is refused on both faces, saying where to get one', async () => {
    const v2 = await open(http.v2Url);
    for (const code of [undefined, 'nope']) {
      const result = (await v2.callTool({
        name: 'spacemolt_auth',
        arguments: {
          action: 'register',
          username: 'NoCode',
          empire: 'nebula',
          ...(code ? { registration_code: code } : {}),
        },
      })) as Result;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/^Error: invalid_registration_code: .*skipper serve/);
    }
    const v1 = await open(http.url);
    const flat = (await v1.callTool({
      name: 'register',
      arguments: { username: 'NoCode', empire: 'nebula', registration_code: 'wrong' },
    })) as Result;
    expect(flat.content[0]?.text).toMatch(/^Error: invalid_registration_code: wrong registration code/);
    expect(sim.engine.findPlayer('NoCode')).toBeUndefined();
  });

  test('unknown parameters are refused with "Unknown parameter(s)" on both faces', async () => {
    const v2 = await open(http.v2Url);
    const grouped = (await v2.callTool({
      name: 'spacemolt',
      arguments: { action: 'get_system', system_id: 'sol' },
    })) as Result;
    expect(grouped.isError).toBe(true);
    expect(grouped.content[0]?.text).toBe('Error: invalid_payload: Unknown parameter(s): system_id');
    const v1 = await open(http.url);
    const flat = (await v1.callTool({ name: 'travel', arguments: { target_poi: 'x', id: 'x', speed: 9 } })) as Result;
    expect(flat.content[0]?.text).toBe('Error: invalid_payload: Unknown parameter(s): id, speed');
  });
});

describe('tools/list', () => {
  const names = async (url: string): Promise<string[]> =>
    (await (await open(url)).listTools()).tools.map((t) => t.name);

  test('presets and exclusions change the v2 tools; auth and spacemolt cannot be excluded', async () => {
    const all = ['spacemolt_auth', 'spacemolt', 'spacemolt_market', 'spacemolt_social', 'spacemolt_storage'];
    expect(await names(http.v2Url)).toEqual(all);
    expect(await names(`${http.v2Url}?preset=basic`)).toEqual([
      'spacemolt_auth',
      'spacemolt',
      'spacemolt_social',
      'spacemolt_storage',
    ]);
    expect(await names(`${http.v2Url}?preset=full`)).toEqual(all);
    expect(await names(`${http.v2Url}?preset=everything`)).toEqual(all); // unknown preset: standard
    expect(await names(`${http.v2Url}?preset=standard&exclude=market,spacemolt_storage,auth,spacemolt`)).toEqual([
      'spacemolt_auth',
      'spacemolt',
      'spacemolt_social',
    ]);
    const flat = await names(http.url);
    expect(flat).toEqual(
      expect.arrayContaining([
        'register',
        'login',
        'get_status',
        'travel',
        'jump',
        'mine',
        'sell',
        'buy',
        'chat',
        'captains_log_add',
      ]),
    );
    expect(flat.some((name) => name.startsWith('spacemolt'))).toBe(false);
  });

  test('v2 descriptions list every action, one a line, and say which are mutations and which are free queries', async () => {
    const { tools } = await (await open(http.v2Url)).listTools();
    const core = tools.find((t) => t.name === 'spacemolt');
    const lines = (core?.description ?? '').split('\n').filter((line) => line.startsWith('- '));
    expect(lines).toHaveLength((core?.inputSchema.properties?.action as { enum: string[] }).enum.length);
    expect(lines.find((l) => l.startsWith('- travel(id)'))).toMatch(/mutation: one per tick, returns when it resolves/);
    expect(lines.find((l) => l.startsWith('- sell(id, quantity)'))).toMatch(/mutation: one per tick/);
    expect(lines.find((l) => l.startsWith('- get_status()'))).toMatch(/query: free, no tick/);
    expect(core?.inputSchema.required).toEqual(['action']);
    for (const tool of tools) expect(tool.annotations).toBeUndefined();
    expect(tools.find((t) => t.name === 'spacemolt_storage')?.description).toMatch(/get_cargo/);
  });
});

test('the 31st login or registration from one address in a minute is rate_limited with retry_after, across both faces', async () => {
  const limited = await createMinimolt({ tickMs: 0, npcChatChance: 0, registrationCode: 'ip' });
  try {
    const handle = await limited.listen({ port: 0 });
    const v2 = await open(handle.v2Url);
    const register = (await v2.callTool({
      name: 'spacemolt_auth',
      arguments: { action: 'register', username: 'Crowd', empire: 'voidborn', registration_code: 'ip' },
    })) as Result;
    const password = /^Password: ([0-9a-f]{64})$/m.exec(register.content[0]?.text ?? '')?.[1];
    const v1 = await open(handle.url);
    for (let i = 2; i <= 30; i++) {
      const client =
        i % 2 === 0
          ? { name: 'login', arguments: { username: 'Crowd', password } }
          : { name: 'spacemolt_auth', arguments: { action: 'login', username: 'Crowd', password } };
      const result = (await (i % 2 === 0 ? v1 : v2).callTool(client)) as Result;
      expect(result.isError, `attempt ${i}: ${result.content[0]?.text}`).toBeFalsy();
    }
    const refused = (await v1.callTool({ name: 'login', arguments: { username: 'Crowd', password } })) as Result;
    expect(refused.isError).toBe(true);
    // The real server's rate_limited text is JSON with a `code` (and no `error` key).
    const body = JSON.parse(refused.content[0]?.text ?? '{}') as {
      code: string;
      retry_after: number;
      message: string;
      error?: unknown;
    };
    expect(body.code).toBe('rate_limited');
    expect(body.error).toBeUndefined();
    expect(body.retry_after).toBeGreaterThanOrEqual(1);
    expect(body.retry_after).toBeLessThanOrEqual(60);
    expect(body.message).toMatch(/try again in \d+ seconds/);
  } finally {
    await limited.close();
  }
});

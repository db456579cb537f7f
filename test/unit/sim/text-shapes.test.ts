// Rule: every answer minimolt writes has the shape of its sample in test/fixtures/spacemolt/text-samples.ts (same
// labels, separators, table headers, number style), produced here from real engine state over the v2 face. A sample
// becomes a pattern: its names and numbers turn into wildcards, its table headers stay literal, its data rows may
// repeat, cells may be empty, the status block's cargo section is optional; the pattern must match the sample itself (so it encodes the
// sample) and minimolt's text.
import { afterEach, expect, test } from 'vitest';
import * as S from '../../fixtures/spacemolt/text-samples.js';
import { createMinimolt, type Minimolt } from '../../../internal/sim/index.js';
import { notify } from '../../../internal/sim/player.js';
import { connectClient, passwordOf, textOf, type Call } from './mcp.js';

const NAMES = [
  'Nexus Prime Gate',
  'nexus_prime_gate',
  'Nexus Prime',
  'nexus_prime',
  'Sol Station',
  'sol_station',
  'Sol Belt',
  'sol_belt',
  'Alpha Drift',
  'alpha_drift',
  'Iron Ore',
  'iron_ore',
  'Theoria',
  'theoria',
  'solarian',
  'asteroid_belt',
  'metallic',
  'Nova',
  'Sol',
  'sol',
];
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function linePattern(line: string): string {
  let marked = line.replace(/\b[0-9a-f]{64}\b/g, '\u0001');
  for (const name of NAMES)
    marked = marked.replace(new RegExp(`(?<![A-Za-z0-9_])${escape(name)}(?![A-Za-z0-9_])`, 'g'), '\u0002');
  return escape(marked)
    .replace(/\d[\d,]*(?:\\\.\d+)?/g, '-?\\d[\\d,]*(?:\\.\\d+)?')
    .replaceAll('\u0001', '[0-9a-f]{64}')
    .replaceAll('\u0002', '[^\\n]+?')
    .replace(/\bitem\\\)/g, 'items?\\)');
}

const CARGO_HEADER = 'item\tqty\tsize';

/** The sample as a pattern; the status block's cargo section is optional (an empty hold has none). */
function shapeOf(sample: string): RegExp {
  const lines = sample.split('\n');
  let out = '';
  let cargoSeen = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!line.includes('\t')) {
      const optional = /^Cargo \(\d+ items?\):$/.test(line);
      cargoSeen ||= optional;
      // Status samples without cargo still allow one before Skills: the section comes and goes with the hold.
      if (/^Skills \(\d+\):$/.test(line) && !cargoSeen)
        out += `(?:Cargo \\(\\d+ items?\\):\\n${escape(CARGO_HEADER)}\\n${rows(CARGO_HEADER)})?`;
      let part = `${linePattern(line)}\\n`;
      if (optional) {
        const header = lines[i + 1] as string;
        part += `${escape(header)}\\n${rows(header)}`;
        while (lines[i + 1]?.includes('\t')) i++;
        part = `(?:${part})?`;
      }
      out += part;
      continue;
    }
    // A table's first row is its header, kept literal; the captain's log lists `#n<TAB>text` rows without one.
    out += line.startsWith('#') ? rows(line) : `${escape(line)}\\n${rows(line)}`;
    while (lines[i + 1]?.includes('\t')) i++;
  }
  return new RegExp(`^${out}$`);
}

function rows(header: string): string {
  const columns = header.split('\t').length;
  return `(?:[^\\t\\n]*(?:\\t[^\\t\\n]*){${columns - 1}}\\n)*`;
}

function expectShape(actual: string, sample: string): void {
  const shape = shapeOf(sample);
  expect(`${sample}\n`).toMatch(shape);
  expect(`${actual}\n`).toMatch(shape);
}

const running: Minimolt[] = [];
afterEach(async () => {
  for (const sim of running.splice(0)) await sim.close();
});

async function start(tickMs: number): Promise<{ sim: Minimolt; call: Call }> {
  const sim = await createMinimolt({ tickMs, npcChatChance: 0, registrationCode: 'shape' });
  running.push(sim);
  const { call } = await connectClient(sim);
  return { sim, call };
}

const game =
  (call: Call) =>
  async (action: string, args: Record<string, unknown> = {}): Promise<string> => {
    const tool = ['view_market'].includes(action)
      ? 'spacemolt_market'
      : ['chat', 'captains_log_add', 'captains_log_list'].includes(action)
        ? 'spacemolt_social'
        : 'spacemolt';
    return textOf(await call(tool, { action, ...args }));
  };

test("every kind of answer has its sample's shape, from real engine state", async () => {
  const { sim, call } = await start(0);
  const play = game(call);
  const registered = await call('spacemolt_auth', {
    action: 'register',
    username: 'Nova',
    empire: 'solarian',
    registration_code: 'shape',
  });
  expectShape(textOf(registered), S.REGISTER);
  expectShape(await play('get_status'), S.STATUS_DOCKED);
  const system = await play('get_system');
  expectShape(system, S.GET_SYSTEM);
  expectShape(await play('get_map'), S.GET_MAP);
  const neighbour = /^Connections \(\d+\):\nsystem_id\tname\tdistance\n([a-z0-9_]+)\t/m.exec(system)?.[1] as string;
  expectShape(await play('find_route', { id: neighbour }), S.FIND_ROUTE);
  expectShape(await play('view_market'), S.VIEW_MARKET);
  expect(await play('get_notifications')).toBe(S.NO_NOTIFICATIONS);
  expectShape(await play('undock'), S.UNDOCK);
  expectShape(await play('dock'), S.DOCK);
  const station = /^([a-z0-9_]+)\t[^\t]+\tstation\t/m.exec(system)?.[1] as string;
  const field = /^([a-z0-9_]+)\t[^\t]+\t(?:asteroid_belt|ice_field|gas_cloud)\t/m.exec(system)?.[1] as string;
  expectShape(await play('travel', { id: field }), S.TRAVEL); // from docked: "Undocked first."
  expect(await play('sell', { id: 'water_ice', quantity: 1 })).toMatch(
    /^Error: not_docked: you must be docked at a station to sell/,
  );
  expectShape(await play('get_poi'), S.GET_POI);
  const mined = await play('mine');
  expectShape(mined, S.MINE);
  const item = /^Mined \d+ [^(]+\(([a-z_]+)\)/.exec(mined)?.[1] as string;
  expectShape(await play('get_cargo'), S.GET_CARGO);
  expectShape(await play('get_skills'), S.GET_SKILLS);
  await play('travel', { id: station });
  expectShape(await play('dock'), S.DOCK);
  const buys = sim.engine.world.pois.get(station)?.market?.get(item as never)?.buys;
  expectShape(await play('sell', { id: item, quantity: 1 }), buys ? S.SELL : S.SELL_NO_BUYERS);
  // The cargo section when the hold is not empty (mining gives at least 2, one was offered for sale).
  expect(await play('get_status')).toMatch(
    /\nCargo \(1 item\):\nitem\tqty\tsize\n[A-Z][a-z]+ [A-Z][a-z]+\t\d+\t1\nSkills \(3\):\n/,
  );
  expectShape(await play('buy', { id: item, quantity: 1 }), S.BUY);
  expectShape(await play('refuel'), S.REFUEL);
  expectShape(await play('repair'), S.REPAIR);
  expectShape(await play('chat', { target: 'system', content: 'hello' }), S.CHAT);
  expectShape(await play('captains_log_add', { content: 'first' }), S.CAPTAINS_LOG_ADD);
  await play('captains_log_add', { content: 'second\nline' });
  expectShape(await play('captains_log_list'), S.CAPTAINS_LOG_LIST);

  const other = await connectClient(sim);
  const password = passwordOf(registered);
  expectShape(textOf(await other.call('spacemolt_auth', { action: 'login', username: 'Nova', password })), S.LOGIN);
  const friend = await connectClient(sim);
  await friend.call('spacemolt_auth', {
    action: 'register',
    username: 'Vega',
    empire: 'solarian',
    registration_code: 'shape',
  });
  await friend.call('spacemolt_social', { action: 'chat', target: 'system', content: 'anyone selling platinum?' });
  const nova = sim.engine.findPlayer('Nova');
  if (nova)
    notify(nova, { type: 'combat', tick: sim.tick, message: 'Pirates ambushed you near Alpha Belt: hull -20.' });
  const notifications = textOf(await other.call('spacemolt', { action: 'get_notifications' }));
  const [head, ...lines] = notifications.split('\n');
  expect(head).toMatch(/^Notifications \(2, 0 more waiting\):$/);
  expect(S.GET_NOTIFICATIONS.split('\n')[0]).toMatch(/^Notifications \(\d+, \d+ more waiting\):$/);
  expect(lines).toEqual([
    expect.stringMatching(/^#\d+ \[chat\/system\] <Vega> anyone selling platinum\?$/),
    expect.stringMatching(/^#\d+ \[combat\] Pirates/),
  ]);

  await other.call('spacemolt', { action: 'undock' });
  expectShape(textOf(await other.call('spacemolt', { action: 'jump', id: neighbour })), S.JUMP);
});

test("in transit: the status block and the in_transit error have their samples' shapes", async () => {
  const { sim, call } = await start(3_600_000);
  await call('spacemolt_auth', {
    action: 'register',
    username: 'Nova',
    empire: 'solarian',
    registration_code: 'shape',
  });
  const jump = call('spacemolt', { action: 'jump', id: 'nexus_prime' });
  await expect.poll(() => sim.engine.hasWork()).toBe(true);
  expectShape(textOf(await call('spacemolt', { action: 'get_status' })), S.STATUS_IN_TRANSIT);
  expectShape(textOf(await call('spacemolt', { action: 'mine' })), S.ERROR_IN_TRANSIT);
  for (let i = 0; i < 6; i++) sim.engine.processTick();
  expect(textOf(await jump)).toMatch(
    /^Jumped to Nexus Prime \(nexus_prime\), arrived at .+ after 6 tick\(s\)\. Fuel used: 5\. Undocked first\.$/,
  );
});

test('errors: Error: code: message; unknown parameter and registration code as in the samples; rate limits as JSON text', async () => {
  const sim = await createMinimolt({
    tickMs: 0,
    npcChatChance: 0,
    registrationCode: 'shape',
    rateLimits: { queriesPerMinute: 2 },
  });
  running.push(sim);
  const { call } = await connectClient(sim, { face: 'v1' });
  const refused = await call('register', { username: 'Nova', empire: 'solarian' });
  expect(textOf(refused)).toMatch(/^Error: invalid_registration_code: a registration code is required: /);
  expect(S.ERROR_REGISTRATION_CODE).toMatch(/^Error: invalid_registration_code: a registration code is required: /);
  await call('register', { username: 'Nova', empire: 'solarian', registration_code: 'shape' });
  expect(textOf(await call('get_system', { system_id: 'sol' }))).toBe(S.ERROR_UNKNOWN_PARAMETER);
  await call('get_status');
  await call('get_status');
  const limited = await call('get_status');
  expect(limited.isError).toBe(true);
  const body = JSON.parse(textOf(limited)) as Record<string, unknown>;
  const sample = JSON.parse(S.ERROR_RATE_LIMITED) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(Object.keys(sample));
  expect(body).toMatchObject({
    code: 'rate_limited',
    message: expect.stringMatching(/try again in \d+ seconds/),
    retry_after: expect.any(Number),
  });
});

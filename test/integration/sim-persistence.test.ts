// Restart on the same world file: accounts, ships, credits, cargo, positions, skills, logs and world changes are kept;
// MCP sessions are not (clients log in again). Runs with `structured: true` to compare engine facts before and after.
// The flat v1 face wants the greeting's session_id on every call after login: calls carry it (carrySession).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect, test } from 'vitest';
import { createMinimolt, type Minimolt } from '../../internal/sim/index.js';
import { carrySession, type Call, type Result } from '../unit/sim/mcp.js';

let dir = '';
const running: Minimolt[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  for (const sim of running.splice(0)) await sim.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function start(worldDb: string, seed = 42): Promise<{ sim: Minimolt; call: Call }> {
  const sim = await createMinimolt({
    tickMs: 0,
    worldDb,
    seed,
    npcChatChance: 0,
    structured: true,
    registrationCode: 'persist',
  });
  running.push(sim);
  const { url } = await sim.listen({ port: 0 });
  const client = new Client({ name: 'persist', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  const call: Call = async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Result;
  return { sim, call: carrySession(call) };
}

async function stop(sim: Minimolt): Promise<void> {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  running.splice(running.indexOf(sim), 1);
  await sim.close();
}

test('stop, restart on the same world file, log in again: credits, cargo, position and more are kept', async () => {
  dir = mkdtempSync(join(tmpdir(), 'minimolt-'));
  const worldDb = join(dir, 'world.db');
  const first = await start(worldDb);
  await first.call('register', { username: 'Second', empire: 'voidborn', registration_code: 'persist' }); // another account on the same file
  const password = (
    await first.call('register', { username: 'Keeper', empire: 'nebula', registration_code: 'persist' })
  ).structuredContent?.details.password;
  await first.call('sell', { item_id: 'iron_ore', quantity: 1 }); // an error: nothing changes
  await first.call('buy', { item_id: 'water_ice', quantity: 3 });
  const system = (await first.call('get_system')).structuredContent?.details.system;
  const belt = system.pois.find((p: any) => ['asteroid_belt', 'ice_field', 'gas_cloud'].includes(p.type));
  await first.call('travel', { target_poi: belt.id });
  const mined = (await first.call('mine')).structuredContent;
  await first.call('captains_log_add', { entry: 'Belt near Haven is rich.' });
  const before = (await first.call('get_status')).structuredContent;
  const depositBefore = (await first.call('get_poi')).structuredContent?.details.poi.resources;
  expect(before?.cargo.length).toBeGreaterThan(0);
  const tickBefore = first.sim.tick;
  await stop(first.sim);

  const second = await start(worldDb, 999); // the file keeps its own seed
  expect(second.sim.tick).toBe(tickBefore);
  expect((await second.call('get_status')).content[0]?.text).toMatch(/^Error: not_authenticated: /);
  expect((await second.call('login', { username: 'Keeper', password })).isError).toBeFalsy();
  const after = (await second.call('get_status')).structuredContent;
  expect(after?.player).toEqual(before?.player);
  expect(after?.ship).toEqual(before?.ship);
  expect(after?.cargo).toEqual(before?.cargo);
  expect(after?.location).toEqual(before?.location);
  expect(after?.location.poi_id).toBe(belt.id);
  expect((await second.call('get_skills')).structuredContent?.details.skills.mining.xp).toBe(mined?.details.xp_gained);
  expect((await second.call('captains_log_list', { index: 0 })).structuredContent?.details.entry).toBe(
    'Belt near Haven is rich.',
  );
  // The deposit mined before the restart is still depleted (regeneration continues from the saved tick).
  expect((await second.call('get_poi')).structuredContent?.details.poi.resources).toEqual(depositBefore);
  expect(
    (await second.call('register', { username: 'Second', empire: 'crimson', registration_code: 'persist' })).content[0]
      ?.text,
  ).toMatch(/^Error: username_taken: /);
});

test("a captain's log entry is in the world file as soon as it is reported saved (no tick needed)", async () => {
  dir = mkdtempSync(join(tmpdir(), 'minimolt-log-'));
  const file = join(dir, 'world.db');
  const { call } = await start(file);
  expect(
    (await call('register', { username: 'scribe', empire: 'solarian', registration_code: 'persist' })).isError,
  ).toBeFalsy();
  const added = await call('captains_log_add', { entry: 'Day 1: all quiet.' });
  expect(added.isError).toBeFalsy();
  // A second connection reads the file while the server still runs: nothing waits for a flush at the next tick.
  const { default: Database } = await import('better-sqlite3');
  const reader = new Database(file, { readonly: true });
  try {
    const rows = reader.prepare('SELECT text FROM log').all() as Array<{ text: string }>;
    expect(rows.map((row) => row.text)).toContain('Day 1: all quiet.');
  } finally {
    reader.close();
  }
});

test('a SQLite file that is not a minimolt world is refused and left untouched', async () => {
  dir = mkdtempSync(join(tmpdir(), 'minimolt-foreign-'));
  const file = join(dir, 'other.db');
  const { default: Database } = await import('better-sqlite3');
  const other = new Database(file);
  other.exec('CREATE TABLE sessions (id TEXT)');
  other.close();
  await expect(createMinimolt({ tickMs: 0, worldDb: file })).rejects.toThrow(
    /not read as a minimolt world|something else/,
  );
  const check = new Database(file, { readonly: true });
  try {
    const tables = (
      check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    ).map((row) => row.name);
    expect(tables).toEqual(['sessions']);
  } finally {
    check.close();
  }
});

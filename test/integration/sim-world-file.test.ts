// The world file: a foreign SQLite file is refused before anything is written to it (same bytes, no -wal/-shm), and
// the /stats counters are kept across a restart (an older world file without them still opens).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { createMinimolt, type Minimolt } from '../../internal/sim/index.js';
import { connectClient, passwordOf } from '../unit/sim/mcp.js';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('a foreign SQLite file', () => {
  test('is refused and left byte for byte as it was, with no -wal or -shm files', async () => {
    dir = mkdtempSync(join(tmpdir(), 'minimolt-foreign-'));
    const file = join(dir, 'skipper.db');
    const other = new Database(file);
    other.exec("CREATE TABLE sessions (id TEXT); INSERT INTO sessions VALUES ('a')");
    other.close();
    const before = readFileSync(file);
    await expect(createMinimolt({ tickMs: 0, worldDb: file })).rejects.toThrow(/something else.*left as it is/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(existsSync(`${file}-shm`)).toBe(false);
  });

  test('a file that is not SQLite at all is refused and left as it was', async () => {
    dir = mkdtempSync(join(tmpdir(), 'minimolt-text-'));
    const file = join(dir, 'notes.db');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, 'just some notes, not a database\n'.repeat(200));
    const before = readFileSync(file);
    await expect(createMinimolt({ tickMs: 0, worldDb: file })).rejects.toThrow(/left as it is/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });
});

describe('/stats counters across a restart', () => {
  async function play(sim: Minimolt): Promise<void> {
    const { client, call } = await connectClient(sim, { face: 'v1' });
    const password = passwordOf(
      await call('register', { username: 'Counted', empire: 'solarian', registration_code: 'stats' }),
    );
    await call('undock');
    await call('undock'); // not_docked
    await call('sell', { item_id: 'iron_ore', quantity: 1 }); // not_docked
    await call('dock');
    await call('chat', { channel: 'local', content: `my password is ${password}` }); // a leak
    await client.close();
    const player = sim.engine.findPlayer('Counted');
    if (player) player.stats.deaths = 2; // deaths need pirates; the counter is what is kept
  }

  test('a restarted server on the same world file reports the same counts', async () => {
    dir = mkdtempSync(join(tmpdir(), 'minimolt-stats-'));
    const worldDb = join(dir, 'world.db');
    const first = await createMinimolt({ tickMs: 0, worldDb, npcChatChance: 0, registrationCode: 'stats' });
    await play(first);
    const before = first.stats();
    await first.close();
    expect(before.players[0]).toMatchObject({
      username: 'Counted',
      actions: 2,
      deaths: 2,
      leaks: 1,
      errors: { not_docked: 2 },
    });
    expect(before.players[0]?.busy_ticks).toBeGreaterThan(0);

    const second = await createMinimolt({ tickMs: 0, worldDb, npcChatChance: 0, registrationCode: 'stats' });
    try {
      expect(second.stats()).toEqual(before);
    } finally {
      await second.close();
    }
  });

  test('an older world file without the counters still opens (counters start empty)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'minimolt-old-'));
    const worldDb = join(dir, 'world.db');
    const first = await createMinimolt({ tickMs: 0, worldDb, npcChatChance: 0, registrationCode: 'stats' });
    await play(first);
    await first.close();
    const old = new Database(worldDb);
    const tables = (
      old.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    ).map((r) => r.name);
    for (const table of tables.filter((name) => !['meta', 'players', 'deposits', 'markets', 'log'].includes(name)))
      old.exec(`DROP TABLE ${table}`);
    old.close();

    const second = await createMinimolt({ tickMs: 0, worldDb, npcChatChance: 0, registrationCode: 'stats' });
    try {
      expect(second.engine.findPlayer('Counted')).toBeDefined();
      expect(second.stats().players).toEqual([]);
      const { client, call } = await connectClient(second, { face: 'v1' });
      await call('login', { username: 'Counted', password: second.engine.findPlayer('Counted')?.password ?? '' });
      await call('undock');
      await client.close();
      expect(second.stats().players[0]).toMatchObject({ username: 'Counted', actions: 1 });
    } finally {
      await second.close();
    }
  });
});

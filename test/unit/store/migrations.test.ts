import fs from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  applicationId,
  migrate,
  migrations,
  openStore,
  schemaVersion,
  type Migration,
} from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

/** Sample rows a database at `version` could hold, written with that version's tables only. */
function seed(db: Database.Database, version: number): void {
  if (version >= 1) {
    db.prepare(
      `INSERT INTO sessions (id, name, game, model, created_at, updated_at) VALUES ('s1', 'old-session', 'embedded', 'm', 1, 2)`,
    ).run();
    db.prepare(
      `INSERT INTO messages (id, session_id, turn, round, role, content, tool_calls, created_at)
       VALUES ('m1', 's1', 1, 1, 'assistant', 'hi', '[]', 3)`,
    ).run();
    db.prepare(`INSERT INTO credentials (game_url, username, password, updated_at) VALUES ('g', 'u', 'pw', 4)`).run();
  }
}

describe('migrations', () => {
  it('numbers migrations 1..n and the schema version is the last', () => {
    migrations.forEach((migration, index) => expect(migration.version).toBe(index + 1));
    expect(schemaVersion).toBe(migrations.length);
  });

  for (let version = 0; version <= schemaVersion; version++) {
    it(`upgrades a database from version ${version} to ${schemaVersion} keeping its data`, async () => {
      const { file } = tempDbPath();
      const first = await openStore({ path: file, quickCheck: false }); // creates the directory and the 0600 file
      await first.close();
      // Rebuild the file at `version` with the list sliced, as an older Skipper would have left it.
      fs.rmSync(file, { force: true });
      fs.rmSync(`${file}-wal`, { force: true });
      fs.rmSync(`${file}-shm`, { force: true });
      const old = new Database(file);
      migrate(old, migrations.slice(0, version));
      seed(old, version);
      old.close();

      const store = await openStore({ path: file });
      const raw = new Database(file, { readonly: true });
      expect(raw.pragma('user_version', { simple: true })).toBe(schemaVersion);
      expect(raw.pragma('application_id', { simple: true })).toBe(applicationId);
      raw.close();
      if (version >= 1) {
        const session = await store.getSession('old-session');
        expect(await store.messages(session.id)).toEqual([
          { id: 'm1', role: 'assistant', content: 'hi', toolCalls: [], turn: 1, round: 1, createdAt: 3 },
        ]);
        expect(await store.credentials.get('g', 'u')).toEqual({ username: 'u', password: 'pw' });
      }
      // The current schema works in full after the upgrade.
      const session = await store.createSession({ game: 'embedded', model: 'm' });
      await store.append(session.id, { role: 'user', content: 'after upgrade' });
      await store.memory.add({ captain: 'c', kind: 'note', text: 't' });
      await store.recordTurn({
        sessionId: session.id,
        turn: 1,
        outcome: 'answered',
        rounds: 1,
        toolCalls: 0,
        startedAt: 1,
        endedAt: 2,
        inputKind: 'user',
      });
      expect(await store.integrityCheck()).toEqual(['ok']);
      await store.close();
    });
  }

  it('rolls a failing migration back whole, leaving the previous version', () => {
    const db = new Database(':memory:');
    const broken: Migration = {
      version: schemaVersion + 1,
      description: 'fails half way',
      postgres: '',
      up(target) {
        target.exec('CREATE TABLE half_done (x)');
        throw new Error('boom');
      },
    };
    expect(() => migrate(db, [...migrations, broken])).toThrow('boom');
    expect(db.pragma('user_version', { simple: true })).toBe(schemaVersion);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE name = 'half_done'`).all();
    expect(tables).toEqual([]);
    db.close();
  });

  it('applies only the missing migrations', () => {
    const db = new Database(':memory:');
    const ran: number[] = [];
    const list: Migration[] = [1, 2, 3].map((version) => ({
      version,
      description: `v${version}`,
      postgres: '',
      up: () => ran.push(version),
    }));
    expect(migrate(db, list.slice(0, 1))).toEqual([1]);
    expect(migrate(db, list)).toEqual([2, 3]);
    expect(migrate(db, list)).toEqual([]);
    expect(ran).toEqual([1, 2, 3]);
    db.close();
  });
});

describe('two processes migrating one new file at once', () => {
  it('the second finds the steps the first applied under the write lock and applies none again', () => {
    const { dir } = tempDbPath();
    const file = `${dir}/race.db`;
    const first = new Database(file);
    const second = new Database(file);
    try {
      // The race as it happened (two `skipper --autoplay` on one new home): the first reads version 0, the second
      // migrates the whole file, then the first goes on from what it read.
      const pragma = first.pragma.bind(first);
      let raced = false;
      first.pragma = ((source: string, options?: Database.PragmaOptions) => {
        const out = options === undefined ? pragma(source) : pragma(source, options);
        if (!raced && source === 'user_version') {
          raced = true;
          expect(migrate(second)).toEqual(migrations.map((migration) => migration.version));
        }
        return out;
      }) as typeof first.pragma;
      expect(migrate(first)).toEqual([]);
      expect(raced).toBe(true);
      expect(Number(second.pragma('user_version', { simple: true }))).toBe(migrations.length);
    } finally {
      first.close();
      second.close();
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, resolveDatabasePath, schemaVersion } from '../../../internal/store/index.js';
import { FatalError } from '../../../internal/shared/index.js';
import { mode, tempDbPath } from './helpers.js';

async function expectFatal(run: () => Promise<unknown>, code: string, ...fragments: string[]): Promise<FatalError> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(FatalError);
  const fatal = caught as FatalError;
  expect(fatal.code).toBe(code);
  for (const fragment of fragments) expect(fatal.message).toContain(fragment);
  return fatal;
}

/** A real Skipper database with one session and one message, closed. */
async function makeStore(file: string): Promise<void> {
  const store = await openStore({ path: file });
  const session = await store.createSession({ game: 'embedded', model: 'm' });
  await store.append(session.id, { role: 'user', content: 'hello', turn: 1 });
  await store.close();
}

describe('opening the database', () => {
  it('creates the directory 0700, the file and its WAL companions 0600, in WAL mode', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file });
    const session = await store.createSession({ game: 'embedded', model: 'm' });
    await store.append(session.id, { role: 'user', content: 'hi' });
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    expect(mode(`${file}-wal`)).toBe(0o600);
    expect(mode(`${file}-shm`)).toBe(0o600);
    await store.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(schemaVersion);
    raw.close();
  });

  it('tightens a pre-existing file that was world-readable', async () => {
    const { file } = tempDbPath();
    await makeStore(file);
    fs.chmodSync(file, 0o644);
    await (await openStore({ path: file })).close();
    expect(mode(file)).toBe(0o600);
  });

  it('reopens its own database with the data intact', async () => {
    const { file } = tempDbPath();
    await makeStore(file);
    const store = await openStore({ path: file });
    const [summary] = await store.listSessions();
    expect(summary?.messages).toBe(1);
    expect(await store.integrityCheck()).toEqual(['ok']);
    await store.close();
  });

  it('refuses a database made by a newer Skipper and leaves it byte-identical', async () => {
    const { file } = tempDbPath();
    await makeStore(file);
    const raw = new Database(file);
    raw.pragma(`user_version = ${schemaVersion + 1}`);
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const before = fs.readFileSync(file);
    await expectFatal(() => openStore({ path: file }), 'store_newer', 'made by a newer Skipper', file);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a file of random bytes and leaves it byte-identical', async () => {
    const { file } = tempDbPath();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const junk = Buffer.alloc(8192);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 251;
    fs.writeFileSync(file, junk);
    await expectFatal(() => openStore({ path: file }), 'store_corrupt', file, 'untouched');
    expect(fs.readFileSync(file).equals(junk)).toBe(true);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses a truncated database and leaves it byte-identical', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file });
    const session = await store.createSession({ game: 'embedded', model: 'm' });
    await store.appendMany(
      session.id,
      Array.from({ length: 500 }, (_, i) => ({ role: 'user' as const, content: `message ${i} ${'x'.repeat(200)}` })),
    );
    await store.close();
    const full = fs.readFileSync(file);
    const cut = full.subarray(0, Math.floor(full.length / 2));
    fs.writeFileSync(file, cut);
    await expectFatal(() => openStore({ path: file }), 'store_corrupt', file);
    expect(fs.readFileSync(file).equals(cut)).toBe(true);
  });

  it('refuses a foreign SQLite database and leaves it byte-identical', async () => {
    const { file } = tempDbPath();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const raw = new Database(file);
    raw.exec("CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO recipes (title) VALUES ('soup')");
    raw.close();
    const before = fs.readFileSync(file);
    await expectFatal(() => openStore({ path: file }), 'store_foreign', file, 'recipes');
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a foreign database even when it has a user_version and tables with our names', async () => {
    const { file } = tempDbPath();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const raw = new Database(file);
    raw.exec('CREATE TABLE sessions (x); CREATE TABLE messages (y)');
    raw.pragma('user_version = 1');
    raw.close();
    const before = fs.readFileSync(file);
    await expectFatal(() => openStore({ path: file }), 'store_foreign', file);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('opens read-only without writing, and refuses a missing file', async () => {
    const { file } = tempDbPath();
    await makeStore(file);
    const before = fs.readFileSync(file);
    const store = await openStore({ path: file, readonly: true });
    expect(await store.listSessions()).toHaveLength(1);
    await store.close();
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    await expectFatal(() => openStore({ path: `${file}.missing`, readonly: true }), 'store_open', 'missing');
  });

  it('works in memory', async () => {
    const store = await openStore({ path: ':memory:' });
    await store.createSession({ name: 'a', game: 'g', model: 'm' });
    expect((await store.getSession('a')).name).toBe('a');
    await store.close();
  });
});

describe('resolveDatabasePath', () => {
  it('prefers SKIPPER_HOME, then XDG_DATA_HOME, then ~/.local/share', () => {
    expect(resolveDatabasePath({ env: { SKIPPER_HOME: '/s', XDG_DATA_HOME: '/x' }, homeDir: '/h' })).toBe(
      '/s/skipper.db',
    );
    expect(resolveDatabasePath({ env: { XDG_DATA_HOME: '/x' }, homeDir: '/h' })).toBe('/x/skipper/skipper.db');
    expect(resolveDatabasePath({ env: { XDG_DATA_HOME: 'relative' }, homeDir: '/h' })).toBe(
      '/h/.local/share/skipper/skipper.db',
    );
    expect(resolveDatabasePath({ env: {}, homeDir: '/h' })).toBe('/h/.local/share/skipper/skipper.db');
  });
});

// appendCommitted: a message is durable when its promise resolves (rule 13), committed in one transaction with the
// others handed in meanwhile, by any session; a failed batch costs no other message; closing commits what waits.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SkipperError, UsageError } from '../../../internal/shared/index.js';
import { openStore, type Store } from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function open(file: string): Store {
  const store = openStore({ path: file });
  opened.push(store);
  return store;
}

/** What another connection sees committed: message ids in order, per session. */
function committed(file: string): Record<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare('SELECT session_id, id FROM messages ORDER BY seq').all() as Array<{
      session_id: string;
      id: string;
    }>;
    const out: Record<string, string[]> = {};
    for (const row of rows) (out[row.session_id] ??= []).push(row.id);
    return out;
  } finally {
    db.close();
  }
}

const user = (id: string, content = 'go'): { id: string; role: 'user'; content: string; createdAt: number } => ({
  id,
  role: 'user',
  content,
  createdAt: 1,
});

describe('appendCommitted (group commit)', () => {
  it('commits every session’s messages together, in order, once the loop turns; each resolves committed', async () => {
    const { file } = tempDbPath();
    const store = open(file);
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const b = store.createSession({ name: 'b', game: 'embedded', model: 'm' });
    const writes = [
      store.appendCommitted(a.id, user('a1')),
      store.appendCommitted(b.id, user('b1')),
      store.appendCommitted(a.id, user('a2')),
    ];
    // Nothing is written while the callers are still running: the batch commits after them.
    expect(committed(file)).toEqual({});
    const stored = await Promise.all(writes);
    expect(stored.map((message) => message.id)).toEqual(['a1', 'b1', 'a2']);
    expect(committed(file)).toEqual({ [a.id]: ['a1', 'a2'], [b.id]: ['b1'] });
    expect(store.messages(a.id).map((message) => message.content)).toEqual(['go', 'go']);
  });

  it('one bad message in a batch is refused alone; the others are committed', async () => {
    const { file } = tempDbPath();
    const store = open(file);
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    store.append(a.id, user('taken'));
    const results = await Promise.allSettled([
      store.appendCommitted(a.id, user('ok1')),
      store.appendCommitted(a.id, user('taken', 'again')),
      store.appendCommitted('no-such-session', user('lost')),
      store.appendCommitted(a.id, user('ok2')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    const duplicate = (results[1] as PromiseRejectedResult).reason as SkipperError;
    expect(duplicate).toBeInstanceOf(SkipperError);
    expect(duplicate.code).toBe('store_duplicate');
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(UsageError);
    expect(committed(file)).toEqual({ [a.id]: ['taken', 'ok1', 'ok2'] });
  });

  it('closing the store commits the messages still waiting, and their callers hear so', async () => {
    const { file } = tempDbPath();
    const store = openStore({ path: file });
    const a = store.createSession({ name: 'a', game: 'embedded', model: 'm' });
    const write = store.appendCommitted(a.id, user('last words'));
    store.close();
    await expect(write).resolves.toMatchObject({ id: 'last words' });
    expect(committed(file)).toEqual({ [a.id]: ['last words'] });
  });
});

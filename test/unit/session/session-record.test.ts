// A session's row is written with its first turn: a draft keeps its id and name and the changes made before (model
// switched, captain logged in) and writes them all in one row when asked; a stored session updates in place.
import { describe, expect, it } from 'vitest';
import { draftSessionRecord, storedSessionRecord } from '../../../internal/session/session-record.js';
import { openStore } from '../../../internal/store/index.js';

describe('session record', () => {
  it('a draft stores nothing until ensureStored, then one row with the changes made meanwhile', async () => {
    const store = await openStore({ path: ':memory:' });
    const record = await draftSessionRecord(store, {
      game: 'embedded',
      model: 'builtin/autopilot',
      goal: 'mine',
      extra: { baseUrl: 'http://x' },
    });
    const draft = record.session();
    expect(draft.name).toMatch(/^\d{4}-\d{2}-\d{2}-[a-z]+-[a-z]+/);
    await record.update({ model: 'builtin/random' });
    await record.update({ username: 'nova' });
    expect(record.stored()).toBe(false);
    expect(await store.listSessions()).toEqual([]);
    const row = await record.ensureStored();
    expect(record.stored()).toBe(true);
    expect(row).toMatchObject({
      id: draft.id,
      name: draft.name,
      model: 'builtin/random',
      username: 'nova',
      goal: 'mine',
      extra: { baseUrl: 'http://x' },
    });
    // Once: a second call writes nothing more; later changes go to the row.
    expect((await record.ensureStored()).id).toBe(draft.id);
    await record.update({ extra: { plan: 'p' } });
    expect((await store.getSession(draft.id)).extra).toEqual({ plan: 'p' });
    expect(await store.listSessions()).toHaveLength(1);
    await store.close();
  });

  it('asked at once (the first turn and a /model switch racing), a draft is written in one row', async () => {
    const store = await openStore({ path: ':memory:' });
    const record = await draftSessionRecord(store, { game: 'embedded', model: 'a/b' });
    const [first, second] = await Promise.all([record.ensureStored(), record.ensureStored()]);
    expect(second.id).toBe(first.id);
    await record.update({ model: 'c/d' });
    expect(await store.listSessions()).toHaveLength(1);
    expect((await store.getSession(first.id)).model).toBe('c/d');
    await store.close();
  });

  it('a draft name given with -s is kept; a generated one avoids names taken', async () => {
    const store = await openStore({ path: ':memory:' });
    expect((await draftSessionRecord(store, { name: 'my-run', game: 'embedded', model: 'm' })).session().name).toBe(
      'my-run',
    );
    const taken = (await store.createSession({ game: 'embedded', model: 'm' })).name;
    const names: string[] = [];
    for (let index = 0; index < 20; index++)
      names.push((await draftSessionRecord(store, { game: 'embedded', model: 'm' })).session().name);
    expect(names).not.toContain(taken);
    await store.close();
  });

  it('a stored session (resume) updates the store at once', async () => {
    const store = await openStore({ path: ':memory:' });
    const session = await store.createSession({ game: 'embedded', model: 'a/b' });
    const record = storedSessionRecord(store, session);
    expect(record.stored()).toBe(true);
    await record.update({ model: 'c/d' });
    expect((await store.getSession(session.id)).model).toBe('c/d');
    expect(record.session().model).toBe('c/d');
    await store.close();
  });
});

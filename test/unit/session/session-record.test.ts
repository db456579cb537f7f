// A session's row is written with its first turn: a draft keeps its id and name and the changes made before (model
// switched, captain logged in) and writes them all in one row when asked; a stored session updates in place.
import { describe, expect, it } from 'vitest';
import { draftSessionRecord, storedSessionRecord } from '../../../internal/session/session-record.js';
import { openStore } from '../../../internal/store/index.js';

describe('session record', () => {
  it('a draft stores nothing until ensureStored, then one row with the changes made meanwhile', () => {
    const store = openStore({ path: ':memory:' });
    const record = draftSessionRecord(store, {
      game: 'embedded',
      model: 'builtin/autopilot',
      goal: 'mine',
      extra: { baseUrl: 'http://x' },
    });
    const draft = record.session();
    expect(draft.name).toMatch(/^\d{4}-\d{2}-\d{2}-[a-z]+-[a-z]+/);
    record.update({ model: 'builtin/random' });
    record.update({ username: 'nova' });
    expect(record.stored()).toBe(false);
    expect(store.listSessions()).toEqual([]);
    const row = record.ensureStored();
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
    expect(record.ensureStored().id).toBe(draft.id);
    record.update({ extra: { plan: 'p' } });
    expect(store.getSession(draft.id).extra).toEqual({ plan: 'p' });
    expect(store.listSessions()).toHaveLength(1);
    store.close();
  });

  it('a draft name given with -s is kept; a generated one avoids names taken', () => {
    const store = openStore({ path: ':memory:' });
    expect(draftSessionRecord(store, { name: 'my-run', game: 'embedded', model: 'm' }).session().name).toBe('my-run');
    const taken = store.createSession({ game: 'embedded', model: 'm' }).name;
    const names = Array.from(
      { length: 20 },
      () => draftSessionRecord(store, { game: 'embedded', model: 'm' }).session().name,
    );
    expect(names).not.toContain(taken);
    store.close();
  });

  it('a stored session (resume) updates the store at once', () => {
    const store = openStore({ path: ':memory:' });
    const session = store.createSession({ game: 'embedded', model: 'a/b' });
    const record = storedSessionRecord(store, session);
    expect(record.stored()).toBe(true);
    record.update({ model: 'c/d' });
    expect(store.getSession(session.id).model).toBe('c/d');
    expect(record.session().model).toBe('c/d');
    store.close();
  });
});

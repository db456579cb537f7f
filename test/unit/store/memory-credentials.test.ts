import { describe, expect, it } from 'vitest';
import { captainId, openStore } from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

describe('memory', () => {
  it('adds, lists by kind, gets, touches, removes and clears, per captain', async () => {
    let clock = 100;
    const store = await openStore({ path: ':memory:', now: () => clock });
    const me = captainId({ game: 'embedded', username: 'ace' });
    const other = captainId({ game: 'embedded', username: 'rival' });
    expect(me).not.toBe(other);
    const note = await store.memory.add({
      captain: me,
      kind: 'note',
      text: 'iron sells best at Sol',
      tags: ['trade', 'iron'],
    });
    const lesson = await store.memory.add({
      captain: me,
      kind: 'lesson',
      text: 'refuel before jumping',
      outcome: 'failure',
      evidence: { tick: 5, error: 'no_fuel' },
    });
    await store.memory.add({ captain: other, kind: 'note', text: 'not yours' });
    expect(note).toEqual({
      id: note.id,
      captain: me,
      kind: 'note',
      text: 'iron sells best at Sol',
      tags: ['trade', 'iron'],
      outcome: null,
      evidence: null,
      uses: 0,
      createdAt: 100,
      lastUsedAt: null,
    });
    expect((await store.memory.list(me)).map((m) => m.text)).toEqual([
      'iron sells best at Sol',
      'refuel before jumping',
    ]);
    expect(await store.memory.list(me, { kind: 'lesson' })).toEqual([lesson]);
    expect(await store.memory.list(me, { limit: 1 })).toHaveLength(1);
    expect((await store.memory.get(lesson.id))?.evidence).toEqual({ tick: 5, error: 'no_fuel' });
    clock = 200;
    await store.memory.touch([note.id, note.id, lesson.id]);
    expect(await store.memory.get(note.id)).toMatchObject({ uses: 2, lastUsedAt: 200 });
    expect(await store.memory.remove(note.id)).toBe(true);
    expect(await store.memory.remove(note.id)).toBe(false);
    expect(await store.memory.get(note.id)).toBeUndefined();
    expect(await store.memory.clear(me)).toBe(1);
    expect(await store.memory.list(me)).toEqual([]);
    expect((await store.memory.list(other)).map((m) => m.text)).toEqual(['not yours']);
    await expect(store.memory.add({ captain: me, kind: 'note', text: '  ' })).rejects.toThrow(/needs some text/);
    await store.close();
  });

  it('hands back from add exactly what reading the entry gives: redacted, JSON columns as they read back', async () => {
    const store = await openStore({
      path: ':memory:',
      now: () => 7,
      redact: (text) => text.replaceAll('hunter2', '[secret]'),
    });
    const captain = captainId({ game: 'embedded', username: 'ace' });
    const added = await store.memory.add({
      captain,
      kind: 'lesson',
      text: 'login with hunter2 failed',
      tags: ['login'],
      outcome: 'failure',
      evidence: { args: 'hunter2', gone: undefined, list: [1, undefined] },
    });
    expect(added).toEqual(await store.memory.get(added.id));
    expect(added.text).toBe('login with [secret] failed');
    expect(added.evidence).toEqual({ args: '[secret]', list: [1, null] });
    const plain = await store.memory.add({ captain, kind: 'note', text: 'no extras', createdAt: 3 });
    expect(plain).toEqual(await store.memory.get(plain.id));
    expect(plain).toMatchObject({ tags: [], outcome: null, evidence: null, uses: 0, lastUsedAt: null, createdAt: 3 });
    await store.close();
  });
});

describe('credentials', () => {
  it('keeps passwords per game url and username, survives reopening, and knows the latest account', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file, now: () => 1000 });
    const creds = store.credentials;
    expect(await creds.latest('https://a')).toBeUndefined();
    await creds.put('https://a', 'alice', 'pw-a1');
    await creds.put('https://a', 'bob', 'pw-b');
    await creds.put('https://b', 'alice', 'pw-other-game');
    expect(await creds.latest('https://a')).toEqual({ username: 'bob', password: 'pw-b' });
    await creds.put('https://a', 'alice', 'pw-a2'); // same millisecond, still becomes the latest
    expect(await creds.latest('https://a')).toEqual({ username: 'alice', password: 'pw-a2' });
    expect(await creds.get('https://b', 'alice')).toEqual({ username: 'alice', password: 'pw-other-game' });
    expect(await creds.get('https://b', 'bob')).toBeUndefined();
    await store.close();
    const reopened = await openStore({ path: file });
    expect((await reopened.credentials.get('https://a', 'alice'))?.password).toBe('pw-a2');
    expect([...reopened.credentials.passwordList()].sort()).toEqual(['pw-a2', 'pw-b', 'pw-other-game']);
    expect(await reopened.credentials.remove('https://a', 'bob')).toBe(true);
    expect((await reopened.credentials.latest('https://a'))?.username).toBe('alice');
    await reopened.close();
  });
});

import { describe, expect, it } from 'vitest';
import { captainId, openStore } from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

describe('memory', () => {
  it('adds, lists by kind, gets, touches, removes and clears, per captain', () => {
    let clock = 100;
    const store = openStore({ path: ':memory:', now: () => clock });
    const me = captainId({ game: 'embedded', username: 'ace' });
    const other = captainId({ game: 'embedded', username: 'rival' });
    expect(me).not.toBe(other);
    const note = store.memory.add({
      captain: me,
      kind: 'note',
      text: 'iron sells best at Sol',
      tags: ['trade', 'iron'],
    });
    const lesson = store.memory.add({
      captain: me,
      kind: 'lesson',
      text: 'refuel before jumping',
      outcome: 'failure',
      evidence: { tick: 5, error: 'no_fuel' },
    });
    store.memory.add({ captain: other, kind: 'note', text: 'not yours' });
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
    expect(store.memory.list(me).map((m) => m.text)).toEqual(['iron sells best at Sol', 'refuel before jumping']);
    expect(store.memory.list(me, { kind: 'lesson' })).toEqual([lesson]);
    expect(store.memory.list(me, { limit: 1 })).toHaveLength(1);
    expect(store.memory.get(lesson.id)?.evidence).toEqual({ tick: 5, error: 'no_fuel' });
    clock = 200;
    store.memory.touch([note.id, note.id, lesson.id]);
    expect(store.memory.get(note.id)).toMatchObject({ uses: 2, lastUsedAt: 200 });
    expect(store.memory.remove(note.id)).toBe(true);
    expect(store.memory.remove(note.id)).toBe(false);
    expect(store.memory.get(note.id)).toBeUndefined();
    expect(store.memory.clear(me)).toBe(1);
    expect(store.memory.list(me)).toEqual([]);
    expect(store.memory.list(other).map((m) => m.text)).toEqual(['not yours']);
    expect(() => store.memory.add({ captain: me, kind: 'note', text: '  ' })).toThrow(/needs some text/);
    store.close();
  });

  it('hands back from add exactly what reading the entry gives: redacted, JSON columns as they read back', () => {
    const store = openStore({
      path: ':memory:',
      now: () => 7,
      redact: (text) => text.replaceAll('hunter2', '[secret]'),
    });
    const captain = captainId({ game: 'embedded', username: 'ace' });
    const added = store.memory.add({
      captain,
      kind: 'lesson',
      text: 'login with hunter2 failed',
      tags: ['login'],
      outcome: 'failure',
      evidence: { args: 'hunter2', gone: undefined, list: [1, undefined] },
    });
    expect(added).toEqual(store.memory.get(added.id));
    expect(added.text).toBe('login with [secret] failed');
    expect(added.evidence).toEqual({ args: '[secret]', list: [1, null] });
    const plain = store.memory.add({ captain, kind: 'note', text: 'no extras', createdAt: 3 });
    expect(plain).toEqual(store.memory.get(plain.id));
    expect(plain).toMatchObject({ tags: [], outcome: null, evidence: null, uses: 0, lastUsedAt: null, createdAt: 3 });
    store.close();
  });
});

describe('credentials', () => {
  it('keeps passwords per game url and username, survives reopening, and knows the latest account', () => {
    const { file } = tempDbPath();
    const store = openStore({ path: file, now: () => 1000 });
    const creds = store.credentials;
    expect(creds.latest('https://a')).toBeUndefined();
    creds.put('https://a', 'alice', 'pw-a1');
    creds.put('https://a', 'bob', 'pw-b');
    creds.put('https://b', 'alice', 'pw-other-game');
    expect(creds.latest('https://a')).toEqual({ username: 'bob', password: 'pw-b' });
    creds.put('https://a', 'alice', 'pw-a2'); // same millisecond, still becomes the latest
    expect(creds.latest('https://a')).toEqual({ username: 'alice', password: 'pw-a2' });
    expect(creds.get('https://b', 'alice')).toEqual({ username: 'alice', password: 'pw-other-game' });
    expect(creds.get('https://b', 'bob')).toBeUndefined();
    store.close();
    const reopened = openStore({ path: file });
    expect(reopened.credentials.get('https://a', 'alice')?.password).toBe('pw-a2');
    expect(reopened.credentials.allPasswords().sort()).toEqual(['pw-a2', 'pw-b', 'pw-other-game']);
    expect(reopened.credentials.remove('https://a', 'bob')).toBe(true);
    expect(reopened.credentials.latest('https://a')?.username).toBe('alice');
    reopened.close();
  });
});

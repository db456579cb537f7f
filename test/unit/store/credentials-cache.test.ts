// The password list is read once and kept (the secret guard asks for it on every game call), yet a password stored
// by this handle or by another connection to the same file shows at once: on SQLite the cache follows SQLite's
// data_version, so another connection's write shows without waiting for refresh() (which reads it again and, when
// nothing changed, keeps the very same list).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Keyring } from '../../../internal/game/keyring.js';
import { openStore, type Store } from '../../../internal/store/index.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function twoHandles(): Promise<[Store, Store]> {
  const dir = mkdtempSync(join(tmpdir(), 'skipper-creds-'));
  const a = await openStore({ path: join(dir, 'skipper.db') });
  const b = await openStore({ path: join(dir, 'skipper.db') });
  cleanups.push(async () => {
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return [a, b];
}

it("sees its own writes and another connection's, and hands out a list no caller can change", async () => {
  const [a, b] = await twoHandles();
  expect(a.credentials.passwordList()).toEqual([]);
  await a.credentials.put('g', 'ada', 'pw-ada-1234');
  expect(a.credentials.passwordList()).toEqual(['pw-ada-1234']);
  await b.credentials.put('g', 'bob', 'pw-bob-5678');
  expect([...a.credentials.passwordList()].sort()).toEqual(['pw-ada-1234', 'pw-bob-5678']);
  await a.credentials.refresh();
  expect([...a.credentials.passwordList()].sort()).toEqual(['pw-ada-1234', 'pw-bob-5678']);
  await b.credentials.remove('g', 'ada');
  expect(a.credentials.passwordList()).toEqual(['pw-bob-5678']);
  await a.credentials.refresh();
  expect(a.credentials.passwordList()).toEqual(['pw-bob-5678']);
  expect(() => (a.credentials.passwordList() as string[]).push('changed')).toThrow(TypeError);
  expect(a.credentials.passwordList()).toEqual(['pw-bob-5678']);
});

it('passwordList is the very same read-only list until a password comes or goes, from any connection', async () => {
  const [a, b] = await twoHandles();
  await a.credentials.put('g', 'ada', 'pw-ada-1234');
  const first = a.credentials.passwordList();
  expect(a.credentials.passwordList()).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  await a.credentials.refresh();
  expect(a.credentials.passwordList()).toBe(first);
  await b.credentials.put('g', 'bob', 'pw-bob-5678');
  const second = a.credentials.passwordList();
  expect(second).not.toBe(first);
  expect([...second].sort()).toEqual(['pw-ada-1234', 'pw-bob-5678']);
  await a.credentials.refresh();
  expect(a.credentials.passwordList()).toBe(second);
});

it("the keyring's secrets are one set while nothing changes, and a password another connection stores is hidden at once", async () => {
  const [a, b] = await twoHandles();
  await a.credentials.put('g', 'ada', 'pw-ada-1234');
  const keyring = new Keyring({ store: a.credentials, keys: { key: 'g', legacy: [] } });
  const first = keyring.secrets();
  expect(keyring.secrets()).toBe(first);
  const result = { text: 'ada pw-ada-1234, bob pw-bob-5678', isError: false };
  expect(keyring.redact(result).text).toBe('ada [saved], bob pw-bob-5678');
  await b.credentials.put('g', 'bob', 'pw-bob-5678');
  expect(keyring.secrets()).not.toBe(first);
  expect(keyring.redact(result).text).toBe('ada [saved], bob [saved]');
  expect(keyring.reveals({ text: 'my friend said pw-bob-5678' })).toBe(true);
  await keyring.loggedInAs('cy', 'pw-cy-90123456');
  expect(keyring.redact({ text: 'pw-cy-90123456', isError: false }).text).toBe('[saved]');
});

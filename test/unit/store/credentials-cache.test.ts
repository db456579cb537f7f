// The password list is read once and kept (the secret guard asks for it on every game call), yet a password stored
// by this handle or by another connection to the same file shows at once: the cache follows SQLite's data_version.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Keyring } from '../../../internal/game/keyring.js';
import { openStore, type Store } from '../../../internal/store/index.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

function twoHandles(): [Store, Store] {
  const dir = mkdtempSync(join(tmpdir(), 'skipper-creds-'));
  const a = openStore({ path: join(dir, 'skipper.db') });
  const b = openStore({ path: join(dir, 'skipper.db') });
  cleanups.push(() => (a.close(), b.close(), rmSync(dir, { recursive: true, force: true })));
  return [a, b];
}

it("sees its own writes and another connection's, and hands out copies", () => {
  const [a, b] = twoHandles();
  expect(a.credentials.allPasswords()).toEqual([]);
  a.credentials.put('g', 'ada', 'pw-ada-1234');
  expect(a.credentials.allPasswords()).toEqual(['pw-ada-1234']);
  b.credentials.put('g', 'bob', 'pw-bob-5678');
  expect(a.credentials.allPasswords().sort()).toEqual(['pw-ada-1234', 'pw-bob-5678']);
  b.credentials.remove('g', 'ada');
  expect(a.credentials.allPasswords()).toEqual(['pw-bob-5678']);
  a.credentials.allPasswords().push('changed');
  expect(a.credentials.allPasswords()).toEqual(['pw-bob-5678']);
});

it('passwordList is the very same read-only list until a password comes or goes, from any connection', () => {
  const [a, b] = twoHandles();
  a.credentials.put('g', 'ada', 'pw-ada-1234');
  const first = a.credentials.passwordList();
  expect(a.credentials.passwordList()).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  b.credentials.put('g', 'bob', 'pw-bob-5678');
  const second = a.credentials.passwordList();
  expect(second).not.toBe(first);
  expect([...second].sort()).toEqual(['pw-ada-1234', 'pw-bob-5678']);
});

it("the keyring's secrets are one set while nothing changes, and a password another connection stores is hidden at once", () => {
  const [a, b] = twoHandles();
  a.credentials.put('g', 'ada', 'pw-ada-1234');
  const keyring = new Keyring({ store: a.credentials, keys: { key: 'g', legacy: [] } });
  const first = keyring.secrets();
  expect(keyring.secrets()).toBe(first);
  const result = { text: 'ada pw-ada-1234, bob pw-bob-5678', isError: false };
  expect(keyring.redact(result).text).toBe('ada [saved], bob pw-bob-5678');
  b.credentials.put('g', 'bob', 'pw-bob-5678');
  expect(keyring.secrets()).not.toBe(first);
  expect(keyring.redact(result).text).toBe('ada [saved], bob [saved]');
  expect(keyring.reveals({ text: 'my friend said pw-bob-5678' })).toBe(true);
  keyring.loggedInAs('cy', 'pw-cy-90123456');
  expect(keyring.redact({ text: 'pw-cy-90123456', isError: false }).text).toBe('[saved]');
});

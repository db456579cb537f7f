// The password list is read once and kept (the secret guard asks for it on every game call), yet a password stored
// by this handle or by another connection to the same file shows at once: the cache follows SQLite's data_version.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
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

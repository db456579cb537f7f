// The asynchronous store contract on SQLite: a real database file per test (sqlite/store.ts over better-sqlite3), as a
// user's home holds one; a second handle on the same file plays another process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { SqliteStore } from '../../internal/store/sqlite/store.js';
import { asyncStoreContract } from './async-store.contract.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-async-contract-'));
let count = 0;
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

asyncStoreContract('sqlite', {
  fresh: () => Promise.resolve(path.join(root, `store-${(count += 1)}`, 'skipper.db')),
  open: (location, options) => Promise.resolve(new SqliteStore({ ...options, path: location })),
});

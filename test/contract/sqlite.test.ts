// The store contract on SQLite: a real database file per test, as a user's home holds one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { storeContract } from './store.contract.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-contract-'));
let count = 0;
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

storeContract('sqlite', () => openStore({ path: path.join(root, `store-${(count += 1)}`, 'skipper.db') }));

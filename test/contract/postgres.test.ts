// The asynchronous store contract on a real PostgreSQL server (openPgStore on a pg.Pool, a fresh schema per test).
// Skips, saying why, only when SKIPPER_TEST_DATABASE_URL is unset; CI (.ci/run) starts a server and sets it.
import { afterAll, describe, it } from 'vitest';
import { openPgStore } from '../../internal/store/pg/store.js';
import { asyncStoreContract } from './async-store.contract.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason } from './pg-test-db.js';

const skipReason = pgSkipReason();
const schemas: string[] = [];

if (skipReason) {
  console.warn(skipReason);
  describe.skip('postgres async store contract', () => {
    it.skip(skipReason, () => undefined);
  });
} else {
  afterAll(() => dropSchemas(schemas));
  asyncStoreContract('postgres', {
    fresh: () => {
      const { url, schema } = freshSchemaUrl();
      schemas.push(schema);
      return Promise.resolve(url);
    },
    open: (url, options) => openPgStore({ ...options, url, poolSize: 4 }),
  });
}

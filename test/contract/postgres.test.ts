// The store contract on a real PostgreSQL server (a fresh schema per test). Skips, saying why, only when
// SKIPPER_TEST_DATABASE_URL is unset; CI (.ci/run) starts a server and sets it, so there it always runs.
import { afterAll, describe, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { storeContract } from './store.contract.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason } from './pg-test-db.js';

const skipReason = pgSkipReason();
const schemas: string[] = [];

if (skipReason) {
  console.warn(skipReason);
  describe.skip('postgres store contract', () => {
    it.skip(skipReason, () => undefined);
  });
} else {
  afterAll(() => dropSchemas(schemas));
  storeContract('postgres', () => {
    const { url, schema } = freshSchemaUrl();
    schemas.push(schema);
    return openStore({ path: url });
  });
}

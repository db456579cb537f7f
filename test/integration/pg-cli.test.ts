// The command line on a PostgreSQL store: a session played with --db is listed by `skipper sessions` through
// SKIPPER_DATABASE_URL from another home (the database, not the home, holds sessions), and a URL that is not a
// PostgreSQL one is a usage error that says what is expected.
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason } from '../contract/pg-test-db.js';

const skipReason = pgSkipReason();
if (skipReason) console.warn(skipReason);
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));
const newHome = tempHomes();

describe.skipIf(skipReason !== undefined)('skipper on PostgreSQL', () => {
  it('plays into the database given with --db and lists it from another home', async () => {
    const { url, schema } = freshSchemaUrl();
    schemas.push(schema);
    const play = runCli(['--autoplay', '--max-ticks', '3', '--tick-ms', '0', '-s', 'pg-captain', '--db', url], {
      home: newHome(),
    });
    expect((await play.exited).code).toBe(0);
    const list = runCli(['sessions'], { home: newHome(), env: { SKIPPER_DATABASE_URL: url } });
    expect((await list.exited).code).toBe(0);
    expect(list.stdout()).toContain('pg-captain');
    const store = await openStore({ path: url });
    try {
      const session = await store.getSession('pg-captain');
      expect(await store.messageCount(session.id)).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe('database URL checks', () => {
  it('refuses a --db that is not a postgres:// URL (exit 2)', async () => {
    const run = runCli(['--autoplay', '--max-ticks', '1', '--db', 'mysql://x@y/z'], { home: newHome() });
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toMatch(/postgres:\/\/USER@HOST:PORT\/DB/);
  }, 30_000);
});

// The command line on a PostgreSQL store: a session played with --db is listed by `skipper sessions` through
// SKIPPER_DATABASE_URL from another home (the database, not the home, holds sessions); every command over the store
// (sessions, replay, export, report, memory, web) reads it with --db from a home that holds nothing; the hints a run
// prints carry its --db (without the URL's password); a URL that is not a PostgreSQL one is a usage
// error that says what is expected, and a database that cannot be reached is one line without the password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { runCli, tempHomes, type CliRun } from '../fakes/cli-process.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason } from '../contract/pg-test-db.js';

const skipReason = pgSkipReason();
if (skipReason) console.warn(skipReason);
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));
const newHome = tempHomes();

/** A fresh schema of the test database, dropped when the file's tests end. */
function freshDatabase(): string {
  const { url, schema } = freshSchemaUrl();
  schemas.push(schema);
  return url;
}

/** Three turbo ticks of the autopilot as session NAME, stored where `where` says (--db URL, --home DIR). */
function playThreeTicks(name: string, where: string[]): CliRun {
  return runCli(['--autoplay', '--max-ticks', '3', '--tick-ms', '0', '-s', name, ...where], { home: newHome() });
}

/** A command that ended well: exit 0, nothing on stderr that looks like a stack trace. */
async function succeeded(run: CliRun): Promise<void> {
  const { code } = await run.exited;
  expect(run.stderr(), run.stderr()).not.toMatch(/\n\s+at /);
  expect(code, run.stderr()).toBe(0);
}

describe.skipIf(skipReason !== undefined)('skipper on PostgreSQL', () => {
  it('plays into the database given with --db and lists it from another home', async () => {
    const url = freshDatabase();
    const play = playThreeTicks('pg-captain', ['--db', url]);
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

  describe('every command over the store takes --db', () => {
    let url = '';
    beforeAll(async () => {
      url = freshDatabase();
      await succeeded(playThreeTicks('pg-reader', ['--db', url]));
    }, 60_000);

    it('sessions --db URL --json lists the session (from a home that holds nothing)', async () => {
      const run = runCli(['sessions', '--db', url, '--json'], { home: newHome() });
      await succeeded(run);
      const rows = run
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { name: string; turns: number });
      expect(rows.map((row) => row.name)).toEqual(['pg-reader']);
      expect(rows[0]?.turns).toBeGreaterThan(0);
    }, 30_000);

    it('replay --db URL shows the session', async () => {
      const run = runCli(['replay', 'pg-reader', '--instant', '--db', url], { home: newHome() });
      await succeeded(run);
      expect(run.stdout()).toMatch(/replay of pg-reader · game embedded · model builtin\/autopilot/);
      expect(run.stdout()).toMatch(/turn 1/);
    }, 30_000);

    it('export --db URL writes the transcript', async () => {
      const run = runCli(['export', 'pg-reader', '--format', 'jsonl', '--db', url], { home: newHome() });
      await succeeded(run);
      expect(run.stdout().trim().split('\n').length).toBeGreaterThan(1);
      expect(run.stdout()).toContain('pg-reader');
    }, 30_000);

    it('report --db URL --json reports the session', async () => {
      const run = runCli(['report', 'pg-reader', '--db', url, '--json'], { home: newHome() });
      await succeeded(run);
      const report = JSON.parse(run.stdout()) as { name: string; turns: number };
      expect(report.name).toBe('pg-reader');
      expect(report.turns).toBeGreaterThan(0);
    }, 30_000);

    it('memory --db URL (and memory list --db URL) lists what the captain remembers', async () => {
      for (const args of [['memory'], ['memory', 'list']]) {
        const run = runCli([...args, '--db', url], { home: newHome() });
        await succeeded(run);
        expect(run.stdout()).toMatch(/^embedded#\S+ {2}\(\d+ entr(y|ies)\)/m);
        expect(run.stdout()).toMatch(/handoff/);
      }
    }, 30_000);

    it('web --db URL serves the session', async () => {
      const web = runCli(['web', '--port', '0', '--db', url], { home: newHome() });
      try {
        const [, base] = await web.waitFor(/Skipper bridge on (http:\/\/\S+?)\/? \(/);
        const response = await fetch(`${base}/api/sessions/pg-reader/messages`);
        expect(response.status).toBe(200);
        const body = (await response.json()) as { messages: unknown[] };
        expect(body.messages.length).toBeGreaterThan(0);
      } finally {
        web.kill('SIGINT');
      }
      expect((await web.exited).code).toBe(0);
      expect(web.stdout()).toContain('bridge closed');
    }, 30_000);
  });

  it("the summary's hints carry --db without the URL's password, and they run as printed", async () => {
    const withPassword = new URL(freshDatabase());
    // A server that trusts the connection ignores a password; one that asks for it gets the test URL's own.
    withPassword.password ||= 'hintpw';
    const password = withPassword.password;
    const home = newHome();
    const play = runCli(
      ['--autoplay', '--max-ticks', '3', '--tick-ms', '0', '-s', 'pg-hint', '--db', `${withPassword}`],
      {
        home,
      },
    );
    await succeeded(play);
    const out = play.stdout();
    expect(out).not.toContain(password);
    const [, db] = out.match(/replay it: .* --db '([^']+)' replay pg-hint/) ?? [];
    expect(db).toBeDefined();
    const bare = new URL(db ?? '');
    expect(bare.password).toBe('');
    expect(`${bare.host}${bare.pathname}${bare.search}`).toBe(
      `${withPassword.host}${withPassword.pathname}${withPassword.search}`,
    );
    expect(out).toMatch(/--db is shown without its password: PostgreSQL reads it from PGPASSWORD or ~\/\.pgpass/);
    // The hint as printed, with the password where it says PostgreSQL reads it.
    const replay = runCli(['--db', db ?? '', 'replay', 'pg-hint', '--instant'], {
      home: newHome(),
      env: { PGPASSWORD: decodeURIComponent(password) },
    });
    await succeeded(replay);
    expect(replay.stdout()).toContain('replay of pg-hint');
  }, 60_000);
});

describe('database URL checks', () => {
  it('refuses a --db that is not a postgres:// URL (exit 2)', async () => {
    const run = runCli(['--autoplay', '--max-ticks', '1', '--db', 'mysql://x@y/z'], { home: newHome() });
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toMatch(/postgres:\/\/USER@HOST:PORT\/DB/);
  }, 30_000);

  // Port 1 of the loopback: nothing listens there, the refusal comes at once.
  const unreachable = 'postgres://postgres:wrongpw@127.0.0.1:1/postgres';
  for (const args of [['sessions'], ['replay', 'any-session']]) {
    it(`${args[0]} --db with a password and an unreachable server: one line, no password, no stack, exit 1`, async () => {
      const run = runCli([...args, '--db', unreachable], { home: newHome() });
      const { code } = await run.exited;
      expect(code).toBe(1);
      const said = run.stdout() + run.stderr();
      expect(said).not.toContain('wrongpw');
      expect(said).not.toMatch(/\n\s+at /);
      expect(run.stderr().trim().split('\n')).toHaveLength(1);
      expect(run.stderr()).toMatch(
        /^skipper: cannot connect to PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\//,
      );
    }, 30_000);
  }
});

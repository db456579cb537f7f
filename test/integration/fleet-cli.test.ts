// `skipper fleet` as a person meets it: the real CLI process, a fleet file, embedded minimolt, the home's SQLite store.
// - kill -9 of the fleet process mid-run, then the same file again: every captain resumes its own session (the same
//   session, more turns), no message the --json stream acknowledged is lost, no dangling tool call is left;
// - `fleet park NAME` on a running fleet parks that captain within a second or two, `fleet resume` brings it back;
// - `fleet status` (text and --json) says state, place, credits, net worth, cost today, ladder and watchdog;
// - a malformed fleet file is refused with the captain and the field named (exit 2), nothing started.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHomes, type CliRun } from '../fakes/cli-process.js';
import { checkStore, jsonEvents, stopChild } from '../faults/harness.js';
import { openStore } from '../../internal/store/index.js';

const newHome = tempHomes();
const CAPTAINS = ['ada', 'bob', 'cyd', 'dee', 'eli'];

function fleetFile(home: string, maxTicks: number, name = 'fleet.yaml'): string {
  const path = join(home, name);
  writeFileSync(
    path,
    [
      'name: five',
      'defaults:',
      '  game: embedded',
      '  tick_ms: 60',
      `  max_ticks: ${maxTicks}`,
      'captains:',
      ...CAPTAINS.map((captain) => `  - name: ${captain}`),
      '',
    ].join('\n'),
  );
  return path;
}

function readStore(home: string): ReturnType<typeof openStore> {
  return openStore({ path: join(home, 'skipper.db'), readonly: true });
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function acknowledged(cli: CliRun): Set<string> {
  const ids = new Set<string>();
  for (const event of jsonEvents(cli))
    if (event.type === 'message' && typeof event.id === 'string' && typeof event.captain === 'string')
      ids.add(event.id);
  return ids;
}

describe.concurrent('skipper fleet', () => {
  it('kill -9 mid-run, then a restart resumes all 5 captains with no acknowledged message lost', async () => {
    const home = newHome();
    const first = runCli(['fleet', fleetFile(home, 100_000), '--json'], { home });
    // Every captain has stored messages (and acted) before the kill.
    await until(
      () =>
        CAPTAINS.every((c) =>
          new RegExp(`"captain":"${c}"[^\\n]*"type":"message"|"type":"message"[^\\n]*"captain":"${c}"`).test(
            first.stdout(),
          ),
        ),
      60_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    await stopChild(first, 'SIGKILL');
    const acked = acknowledged(first);
    expect(acked.size).toBeGreaterThan(20);
    const before = checkStore(home);
    expect(before.integrity).toBe('ok');
    expect([...acked].filter((id) => !before.ids.has(id))).toEqual([]);
    const store = await readStore(home);
    const sessionsBefore = new Map<string, Awaited<ReturnType<typeof store.getSession>>>();
    const turnsBefore = new Map<string, number>();
    try {
      for (const c of CAPTAINS) {
        const session = await store.getSession(c);
        sessionsBefore.set(c, session);
        turnsBefore.set(c, await store.lastTurn(session.id));
      }
    } finally {
      await store.close();
    }

    // The same fleet again (a short run now): every captain resumes its own session.
    const second = runCli(['fleet', fleetFile(home, 30, 'again.yaml'), '--json'], { home });
    const exit = await second.exited;
    expect(exit.code, second.stderr()).toBe(0);
    const after = checkStore(home);
    expect(after.integrity).toBe('ok');
    expect([...acked].filter((id) => !after.ids.has(id))).toEqual([]);
    expect(after.dangling).toEqual([]);
    expect(after.sessions).toBe(CAPTAINS.length);
    const reread = await readStore(home);
    try {
      for (const captain of CAPTAINS) {
        const session = await reread.getSession(captain);
        expect(session.id).toBe(sessionsBefore.get(captain)?.id);
        expect(await reread.lastTurn(session.id)).toBeGreaterThan(turnsBefore.get(captain) ?? 0);
        expect((await reread.fleets.captain('five', captain))?.state).toBe('finished');
      }
      expect(
        jsonEvents(second).filter((e) => e.type === 'captain' && /resumed session/.test(String(e.text))),
      ).toHaveLength(5);
      // The fleet-end event says how late the one event loop ran, in ms beyond the monitor's 10 ms timer.
      const end = jsonEvents(second).find((e) => e.type === 'fleet-end');
      expect(end?.event_loop_delay_ms).toEqual({
        p50: expect.any(Number),
        p99: expect.any(Number),
        max: expect.any(Number),
      });
      const delay = end?.event_loop_delay_ms as { p50: number; p99: number; max: number };
      expect(delay.p50).toBeLessThanOrEqual(delay.p99);
      expect(delay.p99).toBeLessThanOrEqual(delay.max);
    } finally {
      await reread.close();
    }
  }, 180_000);

  it('fleet park / resume act on a running fleet; fleet status shows each captain', async () => {
    const home = newHome();
    const run = runCli(['fleet', fleetFile(home, 100_000)], { home });
    try {
      await run.waitFor(/eli\s+started session/, { timeoutMs: 60_000 });
      const park = runCli(['fleet', 'park', 'bob'], { home });
      expect((await park.exited).code, park.stderr()).toBe(0);
      expect(park.stdout()).toMatch(/park sent to bob \(fleet five/);
      const stateOf = async (captain: string): Promise<string | undefined> => {
        const store = await readStore(home);
        try {
          return (await store.fleets.captain('five', captain))?.state;
        } finally {
          await store.close();
        }
      };
      await until(async () => (await stateOf('bob')) === 'parked', 10_000);
      await run.waitFor(/bob\s+order: park/, { timeoutMs: 5000 });
      const status = runCli(['fleet', 'status', 'five'], { home });
      await status.exited;
      expect(status.stdout()).toMatch(/fleet five · running \(pid \d+\) · 5 captains/);
      expect(status.stdout()).toMatch(/bob\s+parked/);
      expect(status.stdout()).toMatch(/ada\s+playing/);
      const json = runCli(['fleet', 'status', '--json'], { home });
      await json.exited;
      const rows = json
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(rows.map((row) => row.captain)).toEqual(CAPTAINS);
      expect(rows.find((row) => row.captain === 'bob')).toMatchObject({
        state: 'parked',
        ladder: 'model',
        watchdog: 'ok',
      });
      expect(rows.find((row) => row.captain === 'ada')?.credits).toEqual(expect.any(Number));
      const resume = runCli(['fleet', 'resume', 'bob'], { home });
      await resume.exited;
      await until(async () => (await stateOf('bob')) === 'playing', 10_000);
    } finally {
      await stopChild(run, 'SIGINT');
    }
    expect(run.stdout()).toMatch(/fleet five: 5 captains/);
  }, 120_000);

  it('a malformed fleet file is refused naming the captain and the field; nothing starts', async () => {
    const home = newHome();
    const path = join(home, 'bad.yaml');
    writeFileSync(path, 'captains:\n  - name: ada\n    max_ticks: ten\n  - name: bob\n    max_tick: 5\n');
    const run = runCli(['fleet', path], { home });
    const exit = await run.exited;
    expect(exit.code).toBe(2);
    expect(run.stderr()).toMatch(/captain "ada": max_ticks/);
    expect(run.stderr()).toMatch(/captain "bob": unknown field "max_tick" — did you mean max_ticks\?/);
    expect(run.stderr()).not.toMatch(/at .*\.js:\d+/);
  }, 30_000);
});

describe.concurrent('skipper fleet: honest outcome', () => {
  it('exits 1 when a captain failed (here: its game cannot be reached), with the reason in the summary', async () => {
    const home = newHome();
    const path = join(home, 'unreachable.yaml');
    writeFileSync(
      path,
      'defaults:\n  game: http://127.0.0.1:9/mcp\n  password_env: SOME_PW\ncaptains:\n  - name: ada\n',
    );
    const run = runCli(['fleet', path], { home, env: { SOME_PW: 'not-a-real-password' } });
    const exit = await run.exited;
    expect(exit.code).toBe(1);
    expect(run.stdout()).toMatch(/ada: failed · 0 actions .*could not reach the game at http:\/\/127\.0\.0\.1:9\/mcp/);
  }, 60_000);
});

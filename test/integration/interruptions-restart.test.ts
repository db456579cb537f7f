// Interruptions mid-travel (issue 45): the game server restarts while the captain's travel or jump is in flight. A
// separate `skipper serve --world-db FILE` on a fixed port is killed (SIGTERM, or SIGKILL) while the built CLI autoplays
// it with the built-in autopilot and its travel or jump waits for the arrival, then started again on the same port from
// the same world file (the trip cut short completes there: minimolt's persistence puts the ship at its destination).
// The captain must reconnect, read where it is and play on: at most 3 refusals in all after the restart, in the stored session and in
// the new server's /stats, and successful actions again. Ticks are the server's (GET /health), never the wall clock.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateWorld } from '../../internal/sim/index.js';
import { openStore } from '../../internal/store/index.js';
import { snapshotsOutOfPlace } from '../fakes/game-watch.js';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';
import { jsonEvents, stopChild, type JsonEvent } from '../faults/harness.js';

const CODE = 'restart-code-4545';
/** Ticks of the served game; a travel's case has longer ones (its leg is 2 ticks, the kill must fall inside). */
const TICK_MS = 500;
/** The bound on refusals after an interruption. */
const MAX_REFUSALS = 3;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function newHome(): string {
  const home = makeHome();
  cleanups.push(() => removeHome(home));
  return home;
}

async function startServer(options: { home: string; port: number; worldDb: string; tickMs: number }): Promise<CliRun> {
  const server = runCli(
    [
      'serve',
      ...['--port', String(options.port), '--tick-ms', String(options.tickMs), '--world-db', options.worldDb],
      ...['--registration-code', CODE, '--hostile-chat', '0'],
    ],
    { home: options.home },
  );
  cleanups.push(() => stopChild(server, 'SIGINT'));
  await server.waitFor(/http:\/\/127\.0\.0\.1:\d+\/mcp/, { timeoutMs: 30_000 });
  return server;
}

interface Health {
  tick: number;
}

async function health(base: string): Promise<Health> {
  return (await (await fetch(`${base}/health`)).json()) as Health;
}

async function stats(base: string): Promise<Record<string, number>> {
  const body = (await (await fetch(`${base}/stats`)).json()) as { players: Array<{ errors: Record<string, number> }> };
  return body.players[0]?.errors ?? {};
}

/** The one player's transit as the world file holds it (written every tick): null when not under way. */
function storedTransit(worldDb: string): { kind: string; toSystem: string; arrivesAt: number } | null {
  const db = new Database(worldDb, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT transit FROM players ORDER BY serial LIMIT 1').get() as
      { transit: string | null } | undefined;
    return row?.transit ? (JSON.parse(row.transit) as { kind: string; toSystem: string; arrivesAt: number }) : null;
  } finally {
    db.close();
  }
}

/** A --json tool-result with the tool-call it answers. */
interface Answer {
  call: JsonEvent | undefined;
  result: JsonEvent;
}

/** The action a --json tool-call event asked for, and whether it changes the game. */
function actionOf(event: JsonEvent): { action: string; mutation: boolean } {
  const args = JSON.parse(String(event.arguments ?? '{}')) as { action?: string };
  return { action: args.action ?? String(event.tool), mutation: event.read_only === false };
}

/** Awaits the CLI's next output until `check` holds (checked after each chunk), or fails after `timeoutMs`. */
async function untilOutput<T>(cli: CliRun, check: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (cli.child.exitCode !== null || Date.now() > deadline)
      throw new Error(
        `no ${what} within ${timeoutMs} ms (exit ${cli.child.exitCode}); last events: ${jsonEvents(cli)
          .slice(-6)
          .map((event) => JSON.stringify(event).slice(0, 300))
          .join('\n')}`,
      );
    await cli
      .waitFor(/\n/, { after: cli.stdout().length, timeoutMs: Math.max(1, deadline - Date.now()) })
      .catch(() => undefined);
  }
}

/** Awaits a condition on the world file, looked at again every tenth of a tick (the server writes it every tick). */
async function untilWorld<T>(
  check: () => T | null | undefined,
  what: string,
  options: { ticks: number; tickMs: number },
): Promise<T> {
  const deadline = Date.now() + options.ticks * options.tickMs * 4;
  for (;;) {
    const value = check();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${options.ticks} ticks`);
    await new Promise((resolve) => setTimeout(resolve, options.tickMs / 20));
  }
}

describe('interruptions: the game server restarts while a travel or jump is in flight', () => {
  it.each([
    { signal: 'SIGTERM', kind: 'jump', tickMs: TICK_MS },
    { signal: 'SIGKILL', kind: 'jump', tickMs: TICK_MS },
    { signal: 'SIGKILL', kind: 'travel', tickMs: 3 * TICK_MS },
  ] as const)(
    'the server is killed ($signal) mid-$kind and restarted: the captain plays on with at most 3 refusals',
    async ({ signal, kind, tickMs }) => {
      const serverHome = newHome();
      const worldDb = join(serverHome, 'world.db');
      let server = await startServer({ home: serverHome, port: 0, worldDb, tickMs });
      const [, base] = server.stdout().match(/(http:\/\/127\.0\.0\.1:\d+)\/mcp/)!;
      const port = Number(new URL(base!).port);
      const cliHome = newHome();
      const cli = runCli(
        ['--game', `${base}/mcp/v2`, '--registration-code', CODE, '--autoplay', '--max-ticks', '2000', '--json'],
        { home: cliHome },
      );
      cleanups.push(() => stopChild(cli));

      // The captain's travel or jump: asked for (its tool-call event), taken by the game and written to the world file.
      const leg = await untilOutput(
        cli,
        () => jsonEvents(cli).find((event) => event.type === 'tool-call' && actionOf(event).action === kind),
        kind,
        180_000,
      );
      const transit = await untilWorld(() => storedTransit(worldDb), 'transit in the world file', { ticks: 3, tickMs });
      expect(transit.kind).toBe(kind);
      const tickBefore = (await health(base!)).tick;
      expect(transit.arrivesAt, 'still under way at the kill').toBeGreaterThan(tickBefore);
      const errorsBefore = await stats(base!);
      expect(
        jsonEvents(cli).some((event) => event.type === 'tool-result' && event.id === leg.id),
        'the call is in flight at the kill',
      ).toBe(false);
      server.child.kill(signal);
      await server.exited;
      server = await startServer({ home: serverHome, port, worldDb, tickMs });
      const restartedAt = jsonEvents(cli).length;
      const tickRestarted = (await health(base!)).tick;

      // Play on: three successful actions after the restart (or more refusals than allowed, to report them).
      const after = (): JsonEvent[] => jsonEvents(cli).slice(restartedAt);
      const calls = (): Map<unknown, JsonEvent> =>
        new Map(
          jsonEvents(cli)
            .filter((e) => e.type === 'tool-call')
            .map((e) => [e.id, e]),
        );
      // The leg's own answer counts too: the game layer sends it again once reconnected, to the restarted server.
      const results = (): Answer[] =>
        after()
          .filter((event) => event.type === 'tool-result')
          .map((result) => ({ call: calls().get(result.id), result }));
      const refusals = (): Answer[] => results().filter(({ result }) => result.is_error === true);
      // The server's tick when each action was asked (read as its tool-call line appears): a travel's answer comes only
      // on arrival, so the tick of the asking is when the captain acted.
      const askedAt = new Map<unknown, Promise<number>>();
      const stampCalls = (): void => {
        for (const event of after())
          if (event.type === 'tool-call' && actionOf(event).mutation && !askedAt.has(event.id))
            askedAt.set(
              event.id,
              health(base!).then((h) => h.tick),
            );
      };
      const good = (): Answer[] =>
        results().filter(({ call, result }) => call && actionOf(call).mutation && result.is_error === false);
      await untilOutput(
        cli,
        () => {
          stampCalls();
          return good().length >= 3 || refusals().length > MAX_REFUSALS ? true : undefined;
        },
        'three successful actions after the restart',
        120_000,
      );
      const firstGood = good()[0];
      const firstActionTick = firstGood ? await askedAt.get(firstGood.result.id) : undefined;
      const errorsAfter = await stats(base!);
      await stopChild(cli, 'SIGINT');

      const legResult = jsonEvents(cli).find((event) => event.type === 'tool-result' && event.id === leg.id);
      const gameRefusals = Object.entries(errorsAfter)
        .map(([code, count]) => [code, count - (errorsBefore[code] ?? 0)] as const)
        .filter(([, count]) => count > 0);
      const stored = await storedRefusals(cliHome, leg.id as string);
      const report =
        `${signal}: ${kind} to ${transit.toSystem} at tick ≤${tickBefore} (arrives ${transit.arrivesAt}), the call answered ` +
        `${JSON.stringify(String(legResult?.text ?? '(no answer)').slice(0, 300))}; server back at tick ${tickRestarted}, ` +
        `first successful action (${firstGood?.call ? actionOf(firstGood.call).action : 'none'}) asked at tick ${firstActionTick} (${(firstActionTick ?? NaN) - tickRestarted} ticks); refusals after: ` +
        `--json ${refusals().length} ${JSON.stringify(refusals().map(({ call, result }) => `${call ? actionOf(call).action : '?'}: ${String(result.text).slice(0, 100)}`))}, ` +
        `game ${JSON.stringify(gameRefusals)}, stored ${stored.length} ${JSON.stringify(stored)}`;
      console.log(report);
      expect(refusals().length, report).toBeLessThanOrEqual(MAX_REFUSALS);
      // The call cut off by the restart is not sent again (it ends `uncertain`, Skipper's own word, before the captain
      // reads where it is): the restarted game refuses nothing at all.
      expect(
        gameRefusals.reduce((sum, [, count]) => sum + count, 0),
        report,
      ).toBe(0);
      expect(
        refusals().filter(({ result }) => !/\buncertain: /.test(String(result.text))),
        report,
      ).toEqual([]);
      expect(stored.length, report).toBeLessThanOrEqual(MAX_REFUSALS);
      expect(good().length, report).toBeGreaterThanOrEqual(3);
      // The same galaxy the server plays (its default seed and size): no snapshot pairs a system with another's POI.
      expect(await snapshotsOutOfPlace(generateWorld({ seed: 42, systems: 30 }), cliHome)).toEqual([]);
    },
    300_000,
  );
});

/** The stored session's refusals from the travel or jump that met the dead server on (its answer came from the new server). */
async function storedRefusals(home: string, legId: string): Promise<string[]> {
  const store = await openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    const session = (await store.listSessions())[0]!.session;
    const messages = await store.messages(session.id);
    const legAt = messages.findIndex((m) => m.role === 'tool' && m.toolCallId === legId);
    return (
      messages
        .slice(legAt)
        // The synthetic result of the call the test's own Ctrl+C cut off at the end is no refusal.
        .filter((m) => m.role === 'tool' && m.isError === true && !String(m.content).startsWith('cancelled:'))
        .map((m) => String(m.content).slice(0, 120))
    );
  } finally {
    await store.close();
  }
}

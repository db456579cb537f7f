// Fault group 2 — the game server dies under a playing captain. A separate `skipper serve --world-db FILE` is
// SIGTERMed, SIGKILLed and SIGTERMed again, each time restarted on the same port from the same world file, while the
// built CLI autoplays it with the autopilot (no model needed: this is about the game connection). Each restart is
// survived when the CLI reconnects, logs back in as the same captain (no second registration) and completes a turn
// with successful tool calls on the new server; at the end the CLI finishes on its own with exit 0.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';
import { exitWithin, jsonEvents, stopChild, type JsonEvent } from './harness.js';

const CODE = 'faults-code-5150';
const homes: string[] = [];
afterAll(() => homes.forEach(removeHome));

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGKILL', 'SIGTERM'];
/** Turns the CLI plays in all: enough to span three restarts (two turns between each), few enough to end soon. */
const MAX_TURNS = 24;

function newHome(): string {
  const home = makeHome();
  homes.push(home);
  return home;
}

async function startServer(options: {
  home: string;
  port: number;
  worldDb: string;
}): Promise<{ server: CliRun; url: string }> {
  const server = runCli(
    [
      'serve',
      '--port',
      String(options.port),
      '--tick-ms',
      '100',
      '--world-db',
      options.worldDb,
      '--registration-code',
      CODE,
      '--hostile-chat',
      '0',
    ],
    { home: options.home },
  );
  const [, url] = await server.waitFor(/(http:\/\/127\.0\.0\.1:\d+)\/mcp/, { timeoutMs: 15_000 });
  return { server, url: url! };
}

/** Waits until the CLI's --json stream, after `from` events, holds `count` turn-ends with a successful tool call. */
async function turnsAfter(cli: CliRun, from: number, count: number, timeoutMs: number): Promise<JsonEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = jsonEvents(cli).slice(from);
    const good = events.some((event) => event.type === 'tool-result' && event.is_error === false);
    const ends = events.filter(
      (event) => event.type === 'turn-end' && Number(event.tool_calls) > Number(event.failed_tool_calls ?? 0),
    );
    if (good && ends.length >= count) return events;
    if (cli.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(
        `no ${count} good turn(s) within ${timeoutMs} ms (exit ${cli.child.exitCode}); last events: ${events
          .slice(-4)
          .map((event) => JSON.stringify(event))
          .join(' ')}`,
      );
    }
    // Await the next output, not a fixed sleep.
    await cli
      .waitFor(/\n/, { after: cli.stdout().length, timeoutMs: Math.max(1, deadline - Date.now()) })
      .catch(() => undefined);
  }
}

/** 'reconnecting to the game' lines in the CLI's log file. */
function reconnectsLogged(home: string): number {
  const path = join(home, 'logs', 'skipper.log');
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"reconnecting to the game"')).length
    : 0;
}

describe('faults: server restarts', () => {
  it(`the game server is killed and restarted ${SIGNALS.length} times while a CLI autoplays it`, async ({ task }) => {
    task.meta.faultGroup = 'server restarts';
    const serverHome = newHome();
    const worldDb = join(serverHome, 'world.db');
    const started = await startServer({ home: serverHome, port: 0, worldDb });
    const url = started.url;
    let server = started.server;
    const port = Number(new URL(url).port);
    const cliHome = newHome();
    const cli = runCli(
      [
        '--game',
        `${url}/mcp/v2`,
        '--registration-code',
        CODE,
        '--autoplay',
        '--max-turns',
        String(MAX_TURNS),
        '--json',
      ],
      { home: cliHome },
    );
    let survived = 0;
    const failures: string[] = [];
    const line = (): string => `server restarts survived ${survived}/${SIGNALS.length}`;
    task.meta.faultLine = line();
    try {
      await turnsAfter(cli, 0, 2, 30_000);
      for (const [index, signal] of SIGNALS.entries()) {
        const from = jsonEvents(cli).length;
        const reconnectsBefore = reconnectsLogged(cliHome);
        server.child.kill(signal);
        const exit = await server.exited;
        // Restart on the same port from the same world file.
        ({ server } = await startServer({ home: serverHome, port, worldDb }));
        try {
          const events = await turnsAfter(cli, from, 2, 30_000);
          // Logged back in: the new server process knows no session from before, so a successful call after the
          // restart (turnsAfter) needs a new session and a login. Reconnected: the game layer says so in the result of
          // the call that met the dead connection, or (when that call was the turn's event fetch) only in its log.
          const reconnects = reconnectsLogged(cliHome);
          const noticed = events.some(
            (event) =>
              (event.type === 'connection' && event.kind === 'logged-in') ||
              (event.type === 'tool-result' && String(event.text).startsWith('(reconnected to the game')),
          );
          if (!noticed && reconnects <= reconnectsBefore)
            throw new Error('no sign of a reconnect after the restart (no notice in a result, none in the log)');
          const registers = events.filter(
            (event) => event.type === 'tool-call' && JSON.stringify(event.arguments ?? '').includes('register'),
          );
          if (registers.length > 0) throw new Error('the captain registered again instead of logging back in');
          survived += 1;
        } catch (error) {
          failures.push(
            `restart #${index + 1} (${signal}, server exit ${exit.code ?? exit.signal}): ${String(error).split('\n')[0]}`,
          );
        }
        task.meta.faultLine = line();
      }
      const exit = await exitWithin(cli, 60_000);
      const end = jsonEvents(cli).find((event) => event.type === 'autoplay-end');
      if (exit?.code !== 0)
        failures.push(
          `the CLI did not finish cleanly: exit ${exit ? exit.code : 'none within 60 s'}; ${cli.stderr().slice(-300)}`,
        );
      else if ((end?.stop_reason as { code?: string } | undefined)?.code !== 'max_turns')
        failures.push(`autoplay stopped early: ${JSON.stringify(end?.stop_reason)}`);
      // Logged back in, never registered anew: the world knows one captain.
      const stats = (await (await fetch(`${url}/stats`)).json()) as { players: unknown[] };
      if (stats.players.length !== 1)
        failures.push(`the restarted world has ${stats.players.length} players, expected the one captain`);
      task.meta.faultLine = `${line()}${end ? `, the CLI finished (${(end.stop_reason as { text?: string }).text}, ${String(end.turns)} turns)` : ''}`;
    } finally {
      await stopChild(cli);
      await stopChild(server, 'SIGINT');
    }
    if (failures.length > 0) task.meta.faultCause = failures[0];
    expect(failures).toEqual([]);
    expect(survived).toBe(SIGNALS.length);
  });
});

// Interruptions mid-travel (issue 45), on the real program against minimolt served over HTTP in this process, with
// ticks long enough that a travel or a jump takes several of them:
// - chat with the built-in autopilot: Ctrl+C (or /stop) while its travel or jump is in flight, then `/autoplay` again
//   in the same process;
// - `skipper fleet`: a captain parked by order while its travel or jump is in flight, then resumed.
// Either way the captain must read its state and act again within 3 game ticks, with no more than 3 refusals — never
// repeat the travel into `invalid_poi: you are already at …`. Ticks are the game's (the engine's own counter), never
// the wall clock; every wait awaits an event of the game or a line of the CLI.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMinimolt, type Minimolt } from '../../internal/sim/index.js';
import { openStore } from '../../internal/store/index.js';
import { fleetOrder } from '../../internal/cli/fleet-status.js';
import { removeHome, runCli, makeHome, type CliRun } from '../fakes/cli-process.js';
import { stopChild } from '../faults/harness.js';
import { GameWatch, snapshotsOutOfPlace } from '../fakes/game-watch.js';

const CODE = 'interrupt-code-4545';
/** Long enough for the CLI to read and act between two ticks on a loaded machine; a travel still takes several. */
const TICK_MS = 1000;
/** The issue's bound: the next action within 3 game ticks, at most 3 refusals. */
const TICKS_TO_ACT = 3;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function servedGame(tickMs = TICK_MS): Promise<{ sim: Minimolt; watch: GameWatch; url: string }> {
  const sim = await createMinimolt({
    tickMs,
    worldDb: ':memory:',
    seed: 42,
    registrationCode: CODE,
    hostileChat: 0,
  });
  const http = await sim.listen();
  cleanups.push(() => sim.close());
  return { sim, watch: new GameWatch(sim), url: http.v2Url };
}

function chat(url: string): CliRun {
  const home = makeHome();
  const cli = runCli(['--game', url, '--registration-code', CODE], { home });
  cleanups.push(async () => {
    await stopChild(cli);
    removeHome(home);
  });
  return cli;
}

/** The stored session's tool results, oldest first, with the call each answers. */
async function storedResults(
  home: string,
  sessionName?: string,
): Promise<Array<{ action: string; isError: boolean; content: string; at: number }>> {
  const store = await openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    const session = sessionName ? await store.getSession(sessionName) : (await store.listSessions())[0]!.session;
    const messages = await store.messages(session.id);
    const calls = new Map(messages.flatMap((m) => m.toolCalls ?? []).map((call) => [call.id, call]));
    return messages
      .filter((m) => m.role === 'tool')
      .map((m) => {
        const call = m.toolCallId ? calls.get(m.toolCallId) : undefined;
        const action = call ? String((JSON.parse(call.arguments) as { action?: unknown }).action ?? call.name) : '?';
        return { action, isError: m.isError === true, content: String(m.content), at: m.createdAt };
      });
  } finally {
    await store.close();
  }
}

/** Resolves once `check` (an async look, at the store say) holds, looked at every 50 ms. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('interruptions: Ctrl+C or /stop mid-travel, then /autoplay again in the same chat', () => {
  it.each([
    { stop: 'Ctrl+C', kind: 'travel', resume: 'after the ship arrived' },
    { stop: 'Ctrl+C', kind: 'jump', resume: 'after the ship arrived' },
    { stop: 'Ctrl+C', kind: 'jump', resume: 'while the ship is still under way' },
    { stop: '/stop', kind: 'travel', resume: 'after the ship arrived' },
  ] as const)(
    '$stop during a $kind, /autoplay again $resume: it acts within 3 ticks, no refusal follows',
    async ({ stop, kind, resume }) => {
      const { sim, watch, url } = await servedGame();
      const cli = chat(url);
      await cli.waitFor(/Talk to your captain/, { timeoutMs: 30_000 });
      cli.send('/autoplay');
      // The game takes the travel or jump (a leg of 2 ticks and more), and the call waits for the arrival: in flight.
      const departed = await watch.until(
        () => watch.attempts.find((a) => a.ok && a.type === kind && (a.arrivesAt ?? 0) - a.tick >= 2),
        `a ${kind} to be taken`,
        240_000,
      );
      const stoppedAt = cli.stdout().length;
      if (stop === 'Ctrl+C') cli.kill('SIGINT');
      else cli.send('/stop');
      const arrival = departed.arrivesAt!;
      // The captain said where it went before the call left (the line the person saw).
      const said = [...cli.stdout().matchAll(/captain › [^\n]*(?:travelling to|jumping to)[^\n]*/g)].at(-1)?.[0];
      expect(said, 'the captain said it was under way').toMatch(kind === 'travel' ? /travelling to/ : /jumping to/);
      await cli.waitFor(stop === 'Ctrl+C' ? /\^C autoplay stopped/ : /Autoplay ended: interrupted/, {
        after: stoppedAt,
        timeoutMs: 30_000,
      });
      // The summary ends the stop; nothing of the dead turn comes after it.
      await cli.waitFor(/tick utilisation/, { after: stoppedAt, timeoutMs: 30_000 });
      const afterStop = cli.stdout().length;
      cli.send('/status');
      const [stoppedStatus] = await cli.waitFor(/¢[^\n]*· tick \d+[^\n]*/, { after: afterStop, timeoutMs: 30_000 });
      const statuses = [stoppedStatus!];
      if (resume === 'after the ship arrived') {
        await watch.until(() => watch.player().transit === null, 'the ship to arrive');
        // Arrived while nobody played: /status asks the game afresh, so it names the system the ship is in (its POI
        // only if an answer said it: an undocked get_status does not) and the game's tick, not the one of the stop.
        const beforeArrived = cli.stdout().length;
        const arrivedTick = watch.tick;
        cli.send('/status');
        const [arrived] = await cli.waitFor(/¢[^\n]*· tick \d+[^\n]*/, { after: beforeArrived, timeoutMs: 30_000 });
        const system = sim.engine.world.systems.get(watch.player().systemId)!;
        expect(arrived, 'the arrival shown').toMatch(new RegExp(`· ${system.name}( / [^·]+)? · tick`));
        expect(Number(/· tick (\d+)/.exec(arrived!)?.[1]), `the game's tick in ${arrived}`).toBeGreaterThanOrEqual(
          arrivedTick,
        );
        expect(arrived, 'read afresh, not as of an older tick').not.toMatch(/\(as of/);
        statuses.push(arrived!);
      } else expect(watch.player().transit, 'still under way when /autoplay is sent again').not.toBeNull();

      const attemptsBefore = watch.attempts.length;
      const errorsBefore = { ...watch.player().stats.errors };
      const resumedTick = watch.tick;
      const resumedAt = Date.now();
      cli.send('/autoplay');
      // The next action, or more refusals than the issue allows (then the refusals below say what went wrong).
      const next = await watch.until(() => {
        const after = watch.attempts.slice(attemptsBefore);
        return after.find((a) => a.ok) ?? (after.filter((a) => !a.ok).length > TICKS_TO_ACT && after.at(-1));
      }, 'the next action after /autoplay');
      // The game takes no action from a ship under way: count from the arrival when it came later.
      const ticksToAct = next.tick - Math.max(resumedTick, arrival);
      // Play on a little, to see what follows the first action: two more actions taken (or the refusals go on).
      await watch.until(() => {
        const after = watch.attempts.slice(attemptsBefore);
        return after.filter((a) => a.ok).length >= 3 || after.filter((a) => !a.ok).length > TICKS_TO_ACT;
      }, 'two more actions');
      const stopAt = cli.stdout().length;
      cli.send('/stop');
      await cli.waitFor(/tick utilisation/, { after: stopAt, timeoutMs: 30_000 });
      const beforeStatus = cli.stdout().length;
      cli.send('/status');
      const [endStatus] = await cli.waitFor(/¢[^\n]*· tick \d+[^\n]*/, { after: beforeStatus, timeoutMs: 30_000 });
      cli.send('/quit');
      await cli.exited;

      const refusedAfter = watch.attempts.slice(attemptsBefore).filter((a) => !a.ok);
      const errorsAfter = Object.entries(watch.player().stats.errors)
        .map(([code, count]) => [code, count - (errorsBefore[code] ?? 0)] as const)
        .filter(([, count]) => count > 0);
      const stored = await storedResults(cli.home);
      // The stop cut the call off while it waited for the arrival: its stored result is a cancellation.
      expect(
        stored.some((r) => r.at < resumedAt && r.action === kind && r.isError && /cancel/i.test(r.content)),
        `the ${kind} call was in flight at the ${stop}`,
      ).toBe(true);
      const storedRefusals = stored.filter((r) => r.at >= resumedAt && r.isError && !/cancel/i.test(r.content));
      const report =
        `${kind} taken at tick ${departed.tick} (arrives ${arrival}), /autoplay again at tick ${resumedTick}, ` +
        `next action ${next.type} at tick ${next.tick} (${ticksToAct} ticks), refusals after: ` +
        `game ${refusedAfter.length} ${JSON.stringify(errorsAfter)}, stored ${storedRefusals.length}`;
      console.log(report);
      expect(
        storedRefusals.map((r) => `${r.action}: ${r.content.slice(0, 120)}`),
        report,
      ).toEqual([]);
      expect(refusedAfter, report).toEqual([]);
      expect(errorsAfter, report).toEqual([]);
      expect(ticksToAct, report).toBeLessThanOrEqual(TICKS_TO_ACT);
      // What the person is shown pairs a system with one of its own POIs (or with none).
      console.log(`/status lines: ${[...statuses, endStatus].join('\n')}`);
      checkStatusPlaces(sim, [...statuses, endStatus!]);
      expect(await snapshotsOutOfPlace(sim.engine.world, cli.home)).toEqual([]);
    },
    300_000,
  );
});

const FLEET_CAPTAINS = ['ada', 'bob'];

function fleetFile(home: string, url: string): string {
  const path = join(home, 'fleet.yaml');
  writeFileSync(
    path,
    [
      'name: parkers',
      'defaults:',
      `  game: ${url}`,
      '  registration_code_env: INTERRUPT_CODE',
      '  max_ticks: 100000',
      'captains:',
      ...FLEET_CAPTAINS.map((captain) => `  - name: ${captain}`),
      '',
    ].join('\n'),
  );
  return path;
}

/** An order as `skipper fleet park|resume NAME` gives it: by the CLI, or by the same function in this process. */
async function order(home: string, command: 'park' | 'resume', by: 'cli' | 'store'): Promise<void> {
  if (by === 'cli') {
    const run = runCli(['fleet', command, 'ada'], { home });
    expect((await run.exited).code, run.stderr()).toBe(0);
    expect(run.stdout()).toMatch(new RegExp(`${command} sent to ada \\(fleet parkers`));
    return;
  }
  const store = await openStore({ path: join(home, 'skipper.db') });
  try {
    expect(await fleetOrder(store, { captain: 'ada', command })).toMatch(new RegExp(`${command} sent to ada`));
  } finally {
    await store.close();
  }
}

describe('interruptions: a fleet captain parked mid-travel, then resumed', () => {
  // A jump takes 6 ticks: long enough for the CLI's order to land while the call waits for the arrival. A travel takes
  // 2: its park goes in this process (an order is picked up within half a second) and its ticks last 2 s.
  it.each([
    { kind: 'jump', resume: 'after the ship arrived', by: 'cli', tickMs: TICK_MS },
    { kind: 'jump', resume: 'while the ship is still under way', by: 'store', tickMs: TICK_MS },
    { kind: 'travel', resume: 'after the ship arrived', by: 'store', tickMs: 2 * TICK_MS },
  ] as const)(
    'fleet park during a $kind, resume $resume ($by): it acts within 3 ticks, no captain gets more than 3 refusals',
    async ({ kind, resume, by, tickMs }) => {
      const { watch, url } = await servedGame(tickMs);
      const home = makeHome();
      const fleet = runCli(['fleet', fleetFile(home, url)], { home, env: { INTERRUPT_CODE: CODE } });
      cleanups.push(async () => {
        await stopChild(fleet);
        removeHome(home);
      });
      const departed = await watch.until(
        () => watch.attempts.find((a) => a.username === 'ada' && a.ok && a.type === kind),
        `ada's ${kind} to be taken`,
        240_000,
      );
      const arrival = departed.arrivesAt!;
      await order(home, 'park', by);
      await fleet.waitFor(/ada\s+order: park/, { timeoutMs: 30_000 });
      const parkedAt = watch.tick;
      // Parked: the stretch ended, so the call was cut off (its result a cancellation) and no turn follows.
      await eventually(
        async () => (await storedResults(home, 'ada')).some((r) => r.action === kind && /cancel/i.test(r.content)),
        `ada's ${kind} call to be cut off by the park`,
        30_000,
      );
      if (resume === 'after the ship arrived')
        await watch.until(() => watch.player('ada').transit === null, 'the ship to arrive');
      else expect(watch.player('ada').transit, 'still under way when resumed').not.toBeNull();
      const parkedActions = watch.attempts.filter((a) => a.username === 'ada' && a.tick > parkedAt);

      const attemptsBefore = watch.attempts.length;
      const errorsBefore = new Map(FLEET_CAPTAINS.map((c) => [c, { ...watch.player(c).stats.errors }]));
      const resumeSentAt = fleet.stdout().length;
      await order(home, 'resume', by);
      await fleet.waitFor(/ada\s+order: resume/, { after: resumeSentAt, timeoutMs: 30_000 });
      const resumedTick = watch.tick;
      const resumedAt = Date.now();
      const adaAfter = (): typeof watch.attempts =>
        watch.attempts.slice(attemptsBefore).filter((a) => a.username === 'ada');
      const next = await watch.until(
        () =>
          adaAfter().find((a) => a.ok) ?? (adaAfter().filter((a) => !a.ok).length > TICKS_TO_ACT && adaAfter().at(-1)),
        "ada's next action after the resume",
      );
      const ticksToAct = next.tick - Math.max(resumedTick, arrival);
      await watch.until(
        () => adaAfter().filter((a) => a.ok).length >= 3 || adaAfter().filter((a) => !a.ok).length > TICKS_TO_ACT,
        'two more actions of ada',
      );
      await stopChild(fleet, 'SIGINT');

      const refusals = [];
      for (const captain of FLEET_CAPTAINS) {
        const before = errorsBefore.get(captain)!;
        const game = Object.entries(watch.player(captain).stats.errors)
          .map(([code, count]) => [code, count - (before[code] ?? 0)] as const)
          .filter(([, count]) => count > 0);
        const stored = (await storedResults(home, captain)).filter(
          (r) => r.at >= resumedAt && r.isError && !/cancel/i.test(r.content),
        );
        refusals.push({ captain, game, gameCount: game.reduce((sum, [, n]) => sum + n, 0), stored });
      }
      const report =
        `ada's ${kind} at tick ${departed.tick} (arrives ${arrival}), parked at tick ${parkedAt}, ` +
        `resumed at tick ${resumedTick}, next action ${next.type} at tick ${next.tick} (${ticksToAct} ticks); ` +
        `refusals after the resume: ${refusals
          .map((r) => `${r.captain} game ${r.gameCount} ${JSON.stringify(r.game)} stored ${r.stored.length}`)
          .join(', ')}`;
      console.log(report);
      expect(parkedActions, `no action while parked: ${report}`).toEqual([]);
      for (const { captain, gameCount, stored } of refusals) {
        expect(gameCount, `${captain}: ${report}`).toBeLessThanOrEqual(3);
        expect(
          stored.length,
          `${captain}: ${stored.map((r) => r.content.slice(0, 100)).join(' | ')}`,
        ).toBeLessThanOrEqual(3);
      }
      for (const captain of FLEET_CAPTAINS)
        expect(await snapshotsOutOfPlace(watch.sim.engine.world, home, captain)).toEqual([]);
      expect(next.ok, report).toBe(true);
      expect(ticksToAct, report).toBeLessThanOrEqual(TICKS_TO_ACT);
    },
    300_000,
  );
});

/**
 * The /status lines (read afresh from the game when idle) name a system of the galaxy and, when they name a POI, one
 * of that system's (`System / POI`, or `System (in transit)` without one); a line naming no place fails.
 */
function checkStatusPlaces(sim: Minimolt, statuses: string[]): void {
  const world = sim.engine.world;
  for (const status of statuses) {
    const place = status.match(/· ([^·/()]+?)(?: \/ ([^·(]+?))? (?:\((?:docked|in transit)\) )?· tick/);
    expect(place, `a place in ${status}`).not.toBeNull();
    const [, systemName, poiName] = place!;
    const system = [...world.systems.values()].find((s) => s.name === systemName!.trim());
    expect(system, `a system of the galaxy in ${status}`).toBeDefined();
    if (poiName === undefined) continue;
    expect(
      system!.pois.map((poi) => poi.name),
      `the status line's POI is one of ${systemName}'s: ${status}`,
    ).toContain(poiName.trim());
  }
}

// The governor and the watchdog on the shipped path: captains of a real FleetRunner on a real minimolt over HTTP, a
// real SQLite store; the models are scripted (their costs are the script's), the autopilot is the real one.
// - a budget cap walks the ladder: model → fallback model → planner mode → autopilot, each step stored and shown;
// - the watchdog parks a captain stuck repeating one call (where the autopilot cannot take over);
// - the watchdog un-sticks a captain that stopped acting: a nudge, then the autopilot, which acts.
import { afterEach, describe, expect, it } from 'vitest';
import { createAutopilotProvider } from '../../internal/provider/builtin/index.js';
import type { Provider } from '../../internal/shared/index.js';
import { captain, fleetRunner, startFleetFixture, type FleetFixture } from '../fakes/fleet-fixture.js';
import { ScriptedProvider, type ScriptedReply } from '../fakes/scripted-provider.js';

let fixture: FleetFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A model that asks for the status (one call), then ends its turn: `cost` USD per request. */
function statusModel(id: string, cost: number): ScriptedProvider {
  const step = (): ScriptedReply => ({
    content: 'checking',
    toolCalls: [{ name: 'get_status' }],
    usage: { costUsd: cost },
  });
  const provider = new ScriptedProvider([], { id });
  // Endless: each request gets the same kind of reply (the ladder moves on before it matters).
  for (let i = 0; i < 2000; i++) provider.push(i % 2 === 0 ? step : { content: 'done', usage: { costUsd: cost } });
  return provider;
}

/** A model that never calls a tool: it only talks. */
function idleModel(id: string): ScriptedProvider {
  const provider = new ScriptedProvider([], { id });
  for (let i = 0; i < 2000; i++) provider.push({ content: 'Thinking about it.', usage: { costUsd: 0 } });
  return provider;
}

/** A model stuck on one call: get_status, every round, forever. */
function loopingModel(id: string): ScriptedProvider {
  const provider = new ScriptedProvider([], { id });
  for (let i = 0; i < 4000; i++) provider.push({ toolCalls: [{ name: 'get_status' }], usage: { costUsd: 0 } });
  return provider;
}

function modelsOf(
  table: Record<string, Provider>,
  name: string,
): { model: (id: string) => Provider; autopilot: () => Provider } {
  return {
    model: (id) => {
      const provider = table[id];
      if (!provider) throw new Error(`no scripted model ${id}`);
      return provider;
    },
    autopilot: () => createAutopilotProvider({ seed: 7, username: name }),
  };
}

describe('fleet steps', () => {
  it('a budget cap walks the ladder: model → fallback → planner → autopilot, every step stored as an event', async () => {
    fixture = await startFleetFixture({ tickMs: 30 });
    const main = statusModel('scripted/main', 0.05);
    const cheap = statusModel('scripted/cheap', 0.03);
    const spec = captain('spender', {
      model: 'scripted/main',
      fallbackModel: 'scripted/cheap',
      budgetUsd: 1,
      maxTicks: 5000,
    });
    const runner = fleetRunner(fixture, [spec], {
      models: () => modelsOf({ 'scripted/main': main, 'scripted/cheap': cheap }, 'spender'),
    });
    // Ticks are wall time: on a busy machine the planner step needs more of them to spend its share, so the run
    // goes on until the autopilot has taken over and played, not for a fixed count of ticks.
    const controller = new AbortController();
    const done = runner.run(controller.signal);
    // The step's row says `autopilot` at once, but the autopilot's own stretch (its model in the row) starts a moment
    // later; the planner step's actions count too, so wait for actions made once the autopilot flies alone.
    let actionsWhenAutopilot: number | undefined;
    const played = await waitFor(async () => {
      const row = await fixture?.store.fleets.captain('test', 'spender');
      if (row?.ladder !== 'autopilot' || row.model !== 'builtin/autopilot') return false;
      actionsWhenAutopilot ??= row.actions;
      return row.actions > actionsWhenAutopilot && row.actions > 5;
    }, 90_000);
    controller.abort();
    const summary = await done;
    expect(played).toBe(true);
    const steps = (await fixture.store.fleets.events('test', { captain: 'spender' }))
      .filter((event) => event.kind === 'ladder')
      .map((event) => event.data.to);
    expect(steps).toEqual(['fallback', 'planner', 'autopilot']);
    const row = await fixture.store.fleets.captain('test', 'spender');
    expect(row?.ladder).toBe('autopilot');
    expect(row?.model).toBe('builtin/autopilot');
    // Never a silent overspend: the spend stopped at the autopilot step, under the cap.
    expect(summary.costUsd).toBeGreaterThanOrEqual(0.9);
    expect(summary.costUsd).toBeLessThan(1);
    expect(main.requests.length).toBeGreaterThan(0);
    expect(cheap.requests.length).toBeGreaterThan(0);
    // The autopilot went on playing at no cost.
    expect(row?.actions).toBeGreaterThan(5);
  }, 150_000);

  it('the watchdog parks a captain stuck repeating one call when the autopilot cannot take over', async () => {
    fixture = await startFleetFixture({ tickMs: 30 });
    const { parked, done, controller } = await runLooper(fixture, 3000);
    controller.abort();
    await done;
    expect(parked).toBe(true);
    const steps = (await fixture.store.fleets.events('test', { captain: 'looper' })).filter(
      (e) => e.kind === 'watchdog',
    );
    expect(steps.map((e) => e.data.step)).toEqual(['nudge', 'park']);
    expect(steps[0]?.text).toMatch(/get_status/);
    expect((await fixture.store.fleets.captain('test', 'looper'))?.watchdog).toBe('parked');
  }, 90_000);

  it('a parked captain still ends at its tick limit: ticks pass while it is parked, and the fleet ends', async () => {
    fixture = await startFleetFixture({ tickMs: 30 });
    const { parked, done, ended } = await runLooper(fixture, 120);
    expect(parked).toBe(true);
    // No order comes: the run ends on its own once the captain's 120 ticks have passed.
    expect(await waitFor(ended, 60_000)).toBe(true);
    await done;
    const row = await fixture.store.fleets.captain('test', 'looper');
    expect(row?.state).toBe('finished');
    expect(row?.note).toMatch(/max-ticks 120 while parked \(parked by the watchdog/);
    expect(fixture.sim.tick).toBeGreaterThanOrEqual(120);
  }, 90_000);

  it('the watchdog un-sticks a captain that stopped acting: a nudge, then the autopilot, which acts', async () => {
    fixture = await startFleetFixture({ tickMs: 30 });
    const idle = idleModel('scripted/idle');
    const spec = captain('idler', { model: 'scripted/idle', maxTicks: 300 });
    // The grace after the autopilot takes over (100 ticks of 30 ms) is room for its first action on a busy machine:
    // with 5 ticks, a second test suite beside this one once kept it from acting in time, and it was parked.
    const runner = fleetRunner(fixture, [spec], {
      models: () => modelsOf({ 'scripted/idle': idle }, 'idler'),
      watchdog: { noActionTicks: 15, graceTicks: 100, graceMs: 10_000 },
    });
    // A parked captain waits for `fleet resume` until its 300 ticks have passed: a park ends this test early, and the
    // steps say why.
    const controller = new AbortController();
    let ended = false;
    const done = runner.run(controller.signal).finally(() => (ended = true));
    await waitFor(
      async () => ended || (await fixture?.store.fleets.captain('test', 'idler'))?.state === 'parked',
      60_000,
    );
    controller.abort();
    await done;
    const steps = (await fixture.store.fleets.events('test', { captain: 'idler' })).filter(
      (e) => e.kind === 'watchdog',
    );
    expect(steps.map((e) => e.data.step).slice(0, 2)).toEqual(['nudge', 'autopilot']);
    // The nudge reached the model as an order.
    expect(idle.requests.some((request) => request.messages.some((m) => /Watchdog/.test(m.content)))).toBe(true);
    const row = await fixture.store.fleets.captain('test', 'idler');
    expect(row?.model).toBe('builtin/autopilot');
    expect(row?.actions).toBeGreaterThan(10);
  }, 90_000);
});

/** A fleet of one captain stuck on one call, which the autopilot may not take over: run until the watchdog parks it. */
async function runLooper(
  fleet: FleetFixture,
  maxTicks: number,
): Promise<{ parked: boolean; done: Promise<unknown>; ended: () => boolean; controller: AbortController }> {
  const looper = loopingModel('scripted/loop');
  const runner = fleetRunner(fleet, [captain('looper', { model: 'scripted/loop', maxTicks })], {
    models: () => modelsOf({ 'scripted/loop': looper }, 'looper'),
    canAutopilot: () => false,
    watchdog: { repeatLimit: 5, graceTicks: 3, graceMs: 500 },
  });
  const controller = new AbortController();
  let ended = false;
  const done = runner.run(controller.signal).finally(() => (ended = true));
  const parked = await waitFor(
    async () => (await fleet.store.fleets.captain('test', 'looper'))?.state === 'parked',
    60_000,
  );
  return { parked, done, ended: () => ended, controller };
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return await check();
}

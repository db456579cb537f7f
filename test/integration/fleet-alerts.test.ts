// Alerts on the shipped path: a real FleetRunner on a real minimolt over HTTP with a real SQLite store, a captain stuck
// on one call that the watchdog parks (the autopilot may not take over), every alert rule on. The `parked` alert
// fires once — however many looks the fleet takes while the captain stays parked — and reaches a webhook receiver (a
// real node:http server), the fleet's stored events, and `skipper web`'s server: its event stream and /api/state, with
// a link to the captain's turn on the page.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAutopilotProvider } from '../../internal/provider/builtin/index.js';
import { allAlertRules } from '../../internal/fleet/index.js';
import { startWebServer, type WebServer } from '../../internal/web/index.js';
import { captain, fleetRunner, startFleetFixture, type FleetFixture } from '../fakes/fleet-fixture.js';
import { ScriptedProvider } from '../fakes/scripted-provider.js';

let fixture: FleetFixture | undefined;
let hook: Server | undefined;
let web: WebServer | undefined;
afterEach(async () => {
  await web?.close();
  await new Promise((resolve) => (hook ? hook.close(resolve) : resolve(undefined)));
  await fixture?.close();
  fixture = undefined;
  hook = undefined;
  web = undefined;
});

/** A webhook receiver: every body posted to it. */
async function startReceiver(): Promise<{ url: string; bodies: Array<Record<string, unknown>> }> {
  const bodies: Array<Record<string, unknown>> = [];
  hook = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alerts`, bodies };
}

/** The page's event stream, as text, from now on. */
function watchStream(server: WebServer): { text: () => string; close: () => void } {
  let text = '';
  const url = new URL('/api/events', server.url);
  const req = request({ host: '127.0.0.1', port: Number(url.port), path: url.pathname }, (response) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
  });
  req.on('error', () => undefined);
  req.end();
  return { text: () => text, close: () => req.destroy() };
}

/** A model stuck on one call: get_status, every round, forever. */
function loopingModel(): ScriptedProvider {
  const provider = new ScriptedProvider([], { id: 'scripted/loop' });
  for (let i = 0; i < 4000; i++) provider.push({ toolCalls: [{ name: 'get_status' }], usage: { costUsd: 0 } });
  return provider;
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return await check();
}

describe('fleet alerts', () => {
  it('a captain parked by the watchdog raises one parked alert: webhook, stored events, the page', async () => {
    fixture = await startFleetFixture({ tickMs: 30 });
    const receiver = await startReceiver();
    web = await startWebServer({ store: fixture.store, port: 0, token: 'a-token-of-twenty-chars', pollMs: 100 });
    const stream = watchStream(web);
    const looper = loopingModel();
    // 200 ticks: parked well before them, the captain then sits parked for seconds of periodic looks, and the run ends
    // on its own at its tick limit (a `done` alert too).
    const runner = fleetRunner(fixture, [captain('looper', { model: 'scripted/loop', maxTicks: 200 })], {
      models: () => ({
        model: () => looper,
        autopilot: () => createAutopilotProvider({ seed: 7, username: 'looper' }),
      }),
      canAutopilot: () => false,
      watchdog: { repeatLimit: 5, graceTicks: 3, graceMs: 500 },
      alerts: { rules: allAlertRules(), webhook: receiver.url, format: 'json' },
    });
    const summary = await runner.run(new AbortController().signal);
    expect(summary.captains[0]?.state).toBe('finished');
    expect(summary.captains[0]?.note).toMatch(/while parked \(parked by the watchdog/);

    // The webhook: one parked alert, in our JSON format, with the link to the captain's turn.
    const parked = receiver.bodies.filter((body) => body.rule === 'parked');
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({ type: 'alert', rule: 'parked', captain: 'looper', fleet: 'test' });
    expect(parked[0]?.text).toMatch(/^parked by the watchdog: /);
    expect(parked[0]?.link).toMatch(/^\/#captain=looper&turn=\d+$/);
    expect(new Date(String(parked[0]?.at)).getTime()).toBeGreaterThan(0);
    expect(receiver.bodies.filter((body) => body.rule === 'done')).toHaveLength(1);

    // The store: one alert event of that rule for the captain.
    const stored = (await fixture.store.fleets.events('test', { captain: 'looper' })).filter(
      (event) => event.kind === 'alert' && event.data.rule === 'parked',
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]?.data.link).toBe(parked[0]?.link);

    // The page: the event stream announces it, once, and the state lists it with its link.
    await web.hub.tick();
    expect(await waitFor(() => /event: alert\n[^\n]*"rule":"parked"/.test(stream.text()), 10_000)).toBe(true);
    stream.close();
    expect(stream.text().match(/event: alert\n[^\n]*"rule":"parked"/g)).toHaveLength(1);
    const state = (await (await fetch(new URL('/api/state', web.url))).json()) as {
      alerts: Array<{ rule: string; captain: string; link: string; turn: number | null }>;
    };
    const listed = state.alerts.filter((alert) => alert.rule === 'parked');
    expect(listed).toEqual([expect.objectContaining({ captain: 'looper', link: parked[0]?.link })]);
    expect(listed[0]?.turn).toBeGreaterThan(0);
  }, 90_000);

  it('a fleet restarted with a captain parked before does not alert parked again; the next park is alerted', async () => {
    fixture = await startFleetFixture({ tickMs: 20 });
    const receiver = await startReceiver();
    // The row an earlier fleet process left: the captain parked (and alerted) then.
    await fixture.store.fleets.startFleet({ name: 'test', file: 'fleet.yaml', pid: 1, host: 'earlier' });
    await fixture.store.fleets.upsertCaptain('test', 'steady', {
      sessionName: 'steady',
      model: 'builtin/autopilot',
      state: 'parked',
    });
    const runner = fleetRunner(fixture, [captain('steady', { maxTicks: 5000 })], {
      alerts: { rules: allAlertRules(), webhook: receiver.url, format: 'json' },
    });
    const controller = new AbortController();
    const done = runner.run(controller.signal);
    const row = () => fixture!.store.fleets.captain('test', 'steady');
    try {
      // Restored parked: the fleet looks at it a few times (the periodic looks feed the alert rules) without alerting.
      expect(await waitFor(async () => (await row())?.state === 'parked', 30_000)).toBe(true);
      await fixture.store.fleets.addOrder({ fleet: 'test', captain: 'steady', command: 'resume' });
      expect(await waitFor(async () => ((await row())?.actions ?? 0) > 2, 30_000)).toBe(true);
      await fixture.store.fleets.addOrder({ fleet: 'test', captain: 'steady', command: 'park' });
      expect(await waitFor(() => receiver.bodies.some((body) => body.rule === 'parked'), 30_000)).toBe(true);
    } finally {
      controller.abort();
      await done;
    }
    const parked = receiver.bodies.filter((body) => body.rule === 'parked');
    expect(parked).toHaveLength(1);
    expect(parked[0]?.text).toMatch(/parked by order/);
  }, 90_000);
});

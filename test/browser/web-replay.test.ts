// The replay and the plots of `skipper web` in Debian's Chromium, checked against `skipper report NAME --json`: one
// `skipper fleet` captain plays an embedded minimolt to its tick limit; the store then holds its turns, to which two
// turns that changed nothing are added (a captain that only looked around stores the same state again). The slider
// must have one step per distinct stored state — counted here from the report's points and the snapshots of their
// turns, not from the page's API — and at every step the replay card must say the report's figures for that turn. The
// plots must carry their axes with units, and hovering them must read a point's values.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { openStore, type SnapshotRecord, type Store } from '../../internal/store/index.js';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';
import { canRun, startFleet, startWeb, launchChromium } from './bridge-harness.js';

const CAPTAIN = 'ada';
const FLEET_FILE = `name: replayers
defaults: {game: embedded, tick_ms: 100, max_ticks: 120}
captains:
  - name: ${CAPTAIN}
`;
/** Turns added after the run that store the last state again. */
const IDLE_TURNS = 2;

interface ReportPoint {
  turn: number;
  tick: number;
  credits: number;
  net_worth: number;
}

/** A distinct state as this test sees it: a report point and the place, cargo, fuel, hull and docking of its turn. */
interface ExpectedStep {
  turn: number;
  toTurn: number;
  tick: number;
  toTick: number;
  credits: number;
  netWorth: number;
}

/** The report's points folded wherever the state (the tick aside) did not change from the point before. */
function distinctStates(points: readonly ReportPoint[], snapshots: readonly SnapshotRecord[]): ExpectedStep[] {
  const byTurn = new Map(snapshots.map((snapshot) => [snapshot.turn, snapshot]));
  const steps: ExpectedStep[] = [];
  let lastKey = '';
  for (const point of points) {
    const snapshot = byTurn.get(point.turn);
    const key = JSON.stringify([
      point.credits,
      point.net_worth,
      snapshot?.systemId,
      snapshot?.poiId,
      snapshot?.cargoUsed,
      snapshot?.cargoCapacity,
      snapshot?.fuel,
      snapshot?.maxFuel,
      snapshot?.hull,
      snapshot?.maxHull,
      snapshot?.docked,
    ]);
    const last = steps.at(-1);
    if (last && key === lastKey) Object.assign(last, { toTurn: point.turn, toTick: point.tick });
    else
      steps.push({
        turn: point.turn,
        toTurn: point.turn,
        tick: point.tick,
        toTick: point.tick,
        credits: point.credits,
        netWorth: point.net_worth,
      });
    lastKey = key;
  }
  return steps;
}

const cr = (value: number): string => `${value.toLocaleString('en-US')} cr`;
const span = (word: string, from: number, to: number): string =>
  from === to
    ? `${word} ${from.toLocaleString('en-US')}`
    : `${word}s ${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')}`;

describe.skipIf(!canRun)('skipper web replay and plots, against skipper report --json', () => {
  const home = makeHome();
  let web: CliRun;
  let browser: Browser;
  let page: Page;
  let store: Store;
  let sessionId: string;
  let points: ReportPoint[];
  let snapshots: SnapshotRecord[];
  let expected: ExpectedStep[];
  let divergentTurn: number;

  beforeAll(async () => {
    const fleet = startFleet(home, FLEET_FILE);
    expect((await fleet.exited).code).toBe(0);
    store = await openStore({ path: join(home, 'skipper.db') });
    const session = await store.getSession(CAPTAIN);
    sessionId = session.id;
    const played = await store.snapshots(sessionId);
    const last = played.at(-1)!;
    for (let extra = 1; extra <= IDLE_TURNS; extra++)
      await store.recordSnapshot({ ...last, turn: last.turn + extra, tick: last.tick + extra });
    // A counterfactual that chose otherwise at a turn in the middle: marked on the plot's timeline.
    divergentTurn = played[Math.floor(played.length / 2)]!.turn;
    const run = await store.counterfactuals.create({ sessionId, model: 'builtin/random' });
    const calls = (action: string) => [{ id: action, name: 'spacemolt', arguments: `{"action":"${action}"}` }];
    await store.counterfactuals.addDecision(run.id, {
      requestId: 1,
      turn: divergentTurn,
      round: 1,
      verdict: 'different',
      original: { content: '', toolCalls: calls('mine') },
      proposed: { content: '', toolCalls: calls('sell') },
      problems: [],
      usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0, costUsd: 0 },
      latencyMs: 1,
    });
    await store.counterfactuals.finish(run.id, 'done');

    const report = runCli(['report', CAPTAIN, '--json'], { home });
    expect((await report.exited).code).toBe(0);
    points = (JSON.parse(report.stdout()) as { points: ReportPoint[] }).points;
    snapshots = await store.snapshots(sessionId);
    expected = distinctStates(points, snapshots);

    let url: string;
    ({ web, url } = await startWeb(home));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await page.goto(url);
    await page.waitForSelector('body[data-ready=true]');
    await page.selectOption('#replay-session', sessionId);
    await page.waitForSelector('#replay-slider:not([disabled])');
    await page.waitForSelector('#replay-card[data-step="0"]');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    web?.kill('SIGINT');
    await web?.exited;
    await store?.close();
    removeHome(home);
  }, 60_000);

  it('has one slider step per distinct stored state, fewer than the stored snapshots', async () => {
    // Every point of the report is a stored snapshot's (the fleet stores the state it starts from at turn 0).
    expect(points.map((point) => point.turn)).toEqual(snapshots.map((snapshot) => snapshot.turn));
    expect(expected.length).toBeGreaterThan(3);
    expect(expected.length).toBeLessThanOrEqual(points.length - IDLE_TURNS);
    const max = Number(await page.getAttribute('#replay-slider', 'max'));
    expect(max + 1).toBe(expected.length);
    expect(await page.textContent('#replay-steps')).toContain(
      `${expected.length} distinct states from ${snapshots.length} stored snapshots`,
    );
  });

  it("shows at every step the report's figures for that turn, and that moment's state only", async () => {
    const byTurn = new Map(points.map((point) => [point.turn, point]));
    const ships = new Set<string>();
    for (const [index, step] of expected.entries()) {
      await page.locator('#replay-slider').fill(String(index));
      const card = page.locator(`#replay-card[data-step="${index}"]`);
      await card.waitFor();
      const point = byTurn.get(Number(await card.getAttribute('data-turn')))!;
      expect(point.turn).toBe(step.turn);
      expect(Number(await card.getAttribute('data-to-turn'))).toBe(step.toTurn);
      expect(Number(await card.getAttribute('data-tick'))).toBe(point.tick);
      expect(await card.locator('dd.credits').textContent()).toBe(cr(point.credits));
      expect(await card.locator('dd.networth').textContent()).toBe(cr(point.net_worth));
      expect(await card.locator('dd.tick').textContent()).toBe(span('tick', step.tick, step.toTick));
      const dot = page.locator('#replay-layer .replay-ship');
      ships.add(`${await dot.getAttribute('cx')},${await dot.getAttribute('cy')}`);
    }
    // The card is the step's, not today's captain: no live fields.
    for (const live of ['state', 'goal', 'cost', 'ladder', 'watchdog', 'fleet', 'host', 'last-action'])
      expect(await page.locator(`#replay-card dd.${live}`).count()).toBe(0);
    // The last step holds the turns that changed nothing, and the actions are words, not JSON.
    const last = expected.at(-1)!;
    expect(last.toTurn - last.turn).toBeGreaterThanOrEqual(IDLE_TURNS);
    for (let index = 1; index < expected.length; index += Math.max(1, Math.floor(expected.length / 4))) {
      await page.locator('#replay-slider').fill(String(index));
      const actions = await page
        .locator(`#replay-card[data-step="${index}"] .actions li`)
        .evaluateAll((items) => items.map((item) => item.textContent ?? ''));
      expect(actions.length).toBeGreaterThan(0);
      for (const action of actions) expect(action).not.toMatch(/[{}"]|\b[a-z]+_[a-z_]+\b/);
    }
    // The ship moved, and each place it was at lies on the drawn route.
    expect(ships.size).toBeGreaterThan(1);
    const route = (await page.getAttribute('#replay-layer .replay-route', 'points')) ?? '';
    for (const ship of ships) expect(route).toContain(ship);
  }, 120_000);

  it('draws the replay plot with axes in ticks and credits, cargo on its own axis, and reads a point on hover', async () => {
    const labels = await page.$$eval('#plot .axis-label', (nodes) => nodes.map((node) => node.textContent));
    expect(labels).toEqual(['game tick', 'credits (cr)', 'cargo (units)']);
    const left = await page.$$eval('#plot .y-axis.left .tick-label', (nodes) => nodes.map((node) => node.textContent));
    expect(left.length).toBeGreaterThan(1);
    for (const label of left) expect(label).toMatch(/^-?[\d,.]+k? cr$/);
    const xTicks = await page.$$eval('#plot .x-axis .tick-label', (nodes) => nodes.map((node) => node.textContent));
    expect(xTicks.length).toBeGreaterThan(1);
    expect(await page.locator('#plot polyline.series').count()).toBe(3);

    const box = (await page.locator('#plot').boundingBox())!;
    await page.locator('#plot').hover({ position: { x: box.width / 2, y: box.height / 2 } });
    const readout = page.locator('#replay-panel .chart .readout');
    await readout.waitFor({ state: 'visible' });
    const tick = Number(await readout.getAttribute('data-x'));
    const step = [...expected].reverse().find((candidate) => candidate.tick <= tick)!;
    expect(step.tick).toBe(tick);
    const text = await readout.textContent();
    expect(text).toContain(`credits ${cr(step.credits)}`);
    expect(text).toContain(`net worth ${cr(step.netWorth)}`);
    expect(text).toContain(span('tick', step.tick, step.toTick));
  });

  it("marks the counterfactual's different choice on the plot's timeline at the step of its turn", async () => {
    const index = expected.findIndex((step) => step.toTurn >= divergentTurn);
    await page.locator('#replay-slider').fill(String(index));
    await page.waitForSelector(`#replay-card[data-step="${index}"]`);
    const mark = page.locator(`#plot .mark[data-turn="${divergentTurn}"]`);
    expect(await mark.count()).toBe(1);
    expect(await mark.getAttribute('x1')).toBe(await page.getAttribute('#plot .cursor', 'x1'));
    expect(await page.textContent(`#cf-list li[data-turn="${divergentTurn}"] .verdict`)).toContain('different');
  });

  it('draws the cost plot with a clock on x and USD on y, a legend with the fleet sum, and reads it on hover', async () => {
    await page.waitForSelector('#cost-plot[data-captains="1"]');
    const labels = await page.$$eval('#cost-plot .axis-label', (nodes) => nodes.map((node) => node.textContent));
    expect(labels).toEqual(['time (your clock)', 'model cost (USD)']);
    const usd = await page.$$eval('#cost-plot .y-axis .tick-label', (nodes) => nodes.map((node) => node.textContent));
    for (const label of usd) expect(label).toMatch(/^\$\d/);
    const clock = await page.$$eval('#cost-plot .x-axis .tick-label', (nodes) => nodes.map((node) => node.textContent));
    for (const label of clock) expect(label).toMatch(/^\d\d:\d\d(:\d\d)?$/);
    expect(await page.locator('#cost-legend li').allTextContents()).toEqual([
      expect.stringContaining(CAPTAIN),
      'all captains',
    ]);
    const box = (await page.locator('#cost-plot').boundingBox())!;
    await page.locator('#cost-plot').hover({ position: { x: box.width * 0.6, y: box.height / 2 } });
    const readout = page.locator('#cost-panel .chart .readout');
    await readout.waitFor({ state: 'visible' });
    // An autopilot captain spends nothing: its line and the sum read $0 wherever the pointer is.
    expect(await readout.textContent()).toMatch(
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d · ${CAPTAIN} \\$0\\.0000 · all \\$0\\.0000$`),
    );
  });
});

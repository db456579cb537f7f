// The map's systems and trail windows in Debian's Chromium, over a real `skipper fleet` of two autopilot captains on
// an embedded minimolt (stopped before the page opens, so what the page shows and what the API says are read of the
// same store): clicking a system where a captain is opens a panel naming the system and that captain, with the
// market readings the API gives (or "no market reading yet" when it has none), its text 11 px or more and nothing
// cut off at 1024×768, closed by Esc; Enter on a focused system opens it too. A captain stored with snapshots two
// hours, half an hour and a minute old draws 1, 2 and 3 trail points in the 5-minute, 1-hour and 24-hour windows —
// the page's count for each window the API's.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { openStore, type Store } from '../../internal/store/index.js';
import { makeHome, removeHome, type CliRun } from '../fakes/cli-process.js';
import { canRun, until, untilPlayed, startFleet, startWeb, launchChromium } from './bridge-harness.js';

const FLEET = 'charts';
const FLEET_FILE = `name: ${FLEET}
defaults: {game: embedded, tick_ms: 200, max_ticks: 3000}
captains:
  - name: ada
  - name: bob
`;
const OLD_TIMER = 'old-timer';

interface SystemJson {
  id: string;
  name: string;
  markets: Array<{ station: string; bids: Array<{ name: string; bid: number }> }>;
  captains: Array<{ name: string }>;
}

describe.skipIf(!canRun)('skipper web: systems and trail windows', () => {
  const home = makeHome();
  let web: CliRun;
  let browser: Browser;
  let store: Store;
  let url: string;
  let base: string;
  let oldTimerId: string;

  async function api<T>(path: string): Promise<T> {
    const response = await fetch(new URL(path, base));
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  }

  beforeAll(async () => {
    const fleet = startFleet(home, FLEET_FILE);
    store = await openStore({ path: join(home, 'skipper.db') });
    await untilPlayed(store, { count: 2, snapshots: 3, what: 'two captains that have acted' });
    fleet.kill('SIGINT');
    await fleet.exited;
    // Three places a captain was at, stored long ago, a while ago and just now (systems the fleet surveyed).
    const places: Array<{ systemId: string; poiId: string | null }> = [];
    for (const summary of await store.listSessions())
      for (const snapshot of await store.snapshots(summary.session.id))
        if (snapshot.systemId && !places.some((place) => place.systemId === snapshot.systemId))
          places.push({ systemId: snapshot.systemId, poiId: null });
    while (places.length < 3) places.push({ ...places[0]!, poiId: `${places[0]!.systemId}_${places.length}` });
    const session = await store.createSession({ name: OLD_TIMER, game: 'embedded', model: 'builtin/autopilot' });
    oldTimerId = session.id;
    const now = Date.now();
    for (const [index, minutesAgo] of [120, 30, 1].entries())
      await store.recordSnapshot({
        sessionId: session.id,
        turn: index + 1,
        tick: index + 1,
        credits: 1000,
        netWorth: 1000,
        fuel: 100,
        maxFuel: 100,
        cargoUsed: 0,
        cargoCapacity: 50,
        hull: 100,
        maxHull: 100,
        ...places[index]!,
        docked: false,
        createdAt: now - minutesAgo * 60_000,
      });
    ({ web, url } = await startWeb(home));
    base = url.replace(/\?token=.*$/, '');
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    web?.kill('SIGINT');
    await web?.exited;
    await store?.close();
    removeHome(home);
  }, 60_000);

  async function open(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    await page.goto(url);
    await page.waitForSelector('body[data-ready=true]');
    // Every captain's marker, the old-timer's included (the map knows its systems once the fleet's turns are read).
    await until('three ships', async () => ((await page.locator('#ships .ship').count()) === 3 ? true : undefined));
    return page;
  }

  it('opens what the fleet knows of a system where a captain is, readable and consistent with the API', async () => {
    const state = await api<{ captains: Array<{ name: string; snapshot: { system_id: string | null } | null }> }>(
      '/api/state',
    );
    const ada = state.captains.find((card) => card.name === 'ada')!;
    const systemId = ada.snapshot!.system_id!;
    const known = await api<SystemJson>(`/api/systems/${encodeURIComponent(systemId)}`);
    expect(known.captains.map((captain) => captain.name)).toContain('ada');
    const page = await open();
    try {
      // Where a person clicks: the system's dot (a captain's marker may lie over it; it opens its system too).
      const dot = (await page.locator(`#systems g[data-system="${systemId}"] circle.system`).boundingBox())!;
      await page.mouse.click(dot.x + dot.width / 2, dot.y + dot.height / 2);
      await page.waitForSelector(`#system-panel[data-loaded=true][data-system="${systemId}"]`);
      expect(await page.locator('#system-title').textContent()).toBe(known.name);
      expect(known.name).not.toBe(systemId);
      const here = await page.locator('#system-panel li.here').allTextContents();
      expect(here.some((line) => line.startsWith('ada'))).toBe(true);
      const bids = await page.locator('#system-panel li.bid').allTextContents();
      const apiBids = known.markets.flatMap((market) => market.bids);
      expect(bids).toHaveLength(apiBids.length);
      if (apiBids.length === 0) await page.getByText('no market reading yet').waitFor();
      else
        apiBids.forEach((bid, index) =>
          expect(bids[index]).toMatch(new RegExp(`^${bid.name} [\\d,]+ cr, seen .+ ago$`)),
        );
      // Readable at 1024×768: every text 11 px or more, nothing cut off sideways, the panel inside the window.
      const problems = (await page.evaluate(`(() => {
        const panel = document.getElementById('system-panel');
        const box = panel.getBoundingClientRect();
        const problems = [];
        if (box.left < 0 || box.right > window.innerWidth) problems.push('panel past the window: ' + box.left + '..' + box.right);
        for (const node of [panel, ...panel.querySelectorAll('*')]) {
          const size = parseFloat(getComputedStyle(node).fontSize);
          if (node.textContent.trim() && size < 11) problems.push(node.tagName + ' at ' + size + ' px');
          if (node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).display !== 'inline')
            problems.push(node.tagName + ' cut: ' + node.scrollWidth + ' > ' + node.clientWidth);
          const rect = node.getBoundingClientRect();
          if (rect.width > 0 && (rect.left < box.left - 0.5 || rect.right > box.right + 0.5))
            problems.push(node.tagName + ' outside the panel: ' + node.textContent.slice(0, 40));
        }
        return problems;
      })()`)) as string[];
      expect(problems).toEqual([]);
      await page.keyboard.press('Escape');
      await page.waitForSelector('#system-panel[hidden]', { state: 'attached' });
      // The keyboard opens it too, and the × closes it.
      await page.locator(`#systems g[data-system="${systemId}"]`).focus();
      await page.keyboard.press('Enter');
      await page.waitForSelector(`#system-panel[data-loaded=true][data-system="${systemId}"]`);
      await page.locator('#system-close').click();
      await page.waitForSelector('#system-panel[hidden]', { state: 'attached' });
    } finally {
      await page.close();
    }
  }, 60_000);

  it('draws each trail window from the stored snapshots in it, as many points as the API says', async () => {
    const page = await open();
    try {
      const counts: Record<string, number> = {};
      for (const span of ['5m', '1h', '24h']) {
        const trails = await api<{ captains: Array<{ session_id: string; points: unknown[] }> }>(
          `/api/trails?window=${span}`,
        );
        const expected = trails.captains.find((captain) => captain.session_id === oldTimerId)!.points.length;
        await page.locator('#trail-window').selectOption(span);
        await page.waitForSelector(`#map[data-trail-window="${span}"]`);
        const drawn = await page.locator(`#trails [data-session="${oldTimerId}"]`).getAttribute('data-points');
        expect(Number(drawn), span).toBe(expected);
        counts[span] = expected;
      }
      expect(counts).toEqual({ '5m': 1, '1h': 2, '24h': 3 });
    } finally {
      await page.close();
    }
  }, 60_000);
});

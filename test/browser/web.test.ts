// `skipper web` in Debian's Chromium (headless, driven by playwright-core) while three autopilot captains play a
// `skipper serve` minimolt in one home: ships on the map, ships moving, cards updating without a reload, a stored tool
// call on the stream within 2 s, replay along the stored route, hostile text inert. Saves the README's screenshots.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openStore, type Store } from '../../internal/store/index.js';
import { makeHome, removeHome, repoRoot, runCli, type CliRun } from '../fakes/cli-process.js';

const CHROMIUM = process.env.SKIPPER_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = join(repoRoot, 'docs', 'screenshots');
// Without a Chromium the test cannot run; CI installs one (.ci/run), so there it fails instead of skipping.
const canRun = existsSync(CHROMIUM) || process.env.CI === 'true';

interface Ship {
  session: string;
  x: number;
  y: number;
}

async function ships(page: Page): Promise<Ship[]> {
  return page.$$eval('#ships .ship', (nodes) =>
    nodes.map((node) => ({
      session: node.getAttribute('data-session') ?? '',
      x: Number(node.getAttribute('data-x')),
      y: Number(node.getAttribute('data-y')),
    })),
  );
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!canRun)('skipper web in Chromium', () => {
  const home = makeHome();
  const captains: CliRun[] = [];
  let serve: CliRun;
  let web: CliRun;
  let browser: Browser;
  let page: Page;
  let store: Store;
  const dialogs: string[] = [];

  beforeAll(async () => {
    serve = runCli(['serve', '--port', '0', '--tick-ms', '150'], { home });
    const [, game, code] = await serve.waitFor(/ --game (http:\/\/\S+\/mcp\/v2) --registration-code (\S+)/);
    for (const index of [1, 2, 3]) {
      const args = ['--game', game!, '--registration-code', code!, '--username', `pilot${index}`];
      captains.push(runCli([...args, '-s', `captain-${index}`, '--autoplay', '--max-ticks', '600'], { home }));
    }
    store = openStore({ path: join(home, 'skipper.db') });
    await until('three sessions with a snapshot', async () =>
      store.listSessions().filter((summary) => store.snapshots(summary.session.id).length > 0).length === 3
        ? true
        : undefined,
    );
    web = runCli(['web', '--port', '0', '--poll-ms', '200'], { home });
    const [, url] = await web.waitFor(/Open (http:\/\/\S+\?token=\S+)/);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(url!);
    await page.waitForSelector('body[data-ready=true]');
    // Set once: still there at the end means the page was never reloaded.
    await page.evaluate(() => Object.assign(globalThis, { loadedOnce: true }));
    mkdirSync(SHOTS, { recursive: true });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    for (const captain of captains) captain.kill('SIGTERM');
    web?.kill('SIGINT');
    serve?.kill('SIGINT');
    await Promise.all([...captains, web, serve].filter(Boolean).map((run) => run.exited));
    store?.close();
    removeHome(home);
  }, 60_000);

  it('shows the three ships on the map, and one moves as it travels', async () => {
    const first = await until('3 ships', async () => ((await ships(page)).length === 3 ? ships(page) : undefined));
    expect(new Set(first.map((ship) => ship.session)).size).toBe(3);
    expect(await page.locator('#systems circle').count()).toBeGreaterThan(3);
    const moved = await until(
      'a ship to move',
      async () => {
        const now = await ships(page);
        return now.find((ship) => {
          const before = first.find((old) => old.session === ship.session)!;
          return Math.hypot(ship.x - before.x, ship.y - before.y) > 1;
        });
      },
      60_000,
    );
    expect(moved).toBeDefined();
    await page.locator('#map-panel').screenshot({ path: join(SHOTS, 'web-map.png') });
  }, 90_000);

  it("updates a card's credits without a reload", async () => {
    const credits = (): Promise<string[]> =>
      page.$$eval('#cards .card .credits', (nodes) => nodes.map((node) => node.textContent ?? ''));
    const before = await credits();
    expect(before).toHaveLength(3);
    await until(
      'credits to change',
      async () => {
        const now = await credits();
        return now.join() !== before.join() ? now : undefined;
      },
      60_000,
    );
    expect(await page.evaluate(() => (globalThis as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    await page
      .locator('#cards .card')
      .first()
      .screenshot({ path: join(SHOTS, 'web-card.png') });
  }, 90_000);

  it('shows a stored tool call on the stream within 2 s', async () => {
    const watched = await page.$eval('#stream-session', (select) => (select as unknown as { value: string }).value);
    const turn = store.lastTurn(watched);
    const marker = `probe_${Date.now()}`;
    const storedAt = Date.now();
    store.append(watched, {
      role: 'assistant',
      content: 'checking the probe',
      toolCalls: [{ id: `call_${marker}`, name: marker, arguments: '{"target":"sol"}' }],
      turn,
    });
    await page.locator('#stream .tool-call', { hasText: marker }).waitFor({ timeout: 2000 });
    expect(Date.now() - storedAt).toBeLessThan(2000);
    await page.locator('#stream-panel').screenshot({ path: join(SHOTS, 'web-stream.png') });
  });

  it('renders a hostile chat line as inert text', async () => {
    const watched = await page.$eval('#stream-session', (select) => (select as unknown as { value: string }).value);
    const turn = store.lastTurn(watched);
    const hostile = ['<img src=x onerror=alert(1)>', '<script>window.pwned = 1; alert(2)</script>'];
    for (const [index, content] of hostile.entries()) {
      store.append(watched, { role: 'tool', content, toolName: 'chat', toolCallId: `hostile_${index}`, turn });
    }
    for (const content of hostile)
      await page.locator('#stream .text', { hasText: content }).first().waitFor({ timeout: 5000 });
    expect(await page.locator('#stream img').count()).toBe(0);
    expect(await page.locator('#stream script').count()).toBe(0);
    expect(await page.locator('#stream .text', { hasText: hostile[0]! }).first().isVisible()).toBe(true);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  it('moves the replayed ship along its stored route with the slider', async () => {
    const name = 'captain-1';
    const session = store.getSession(name);
    const stored = store.snapshots(session.id);
    expect(stored.length).toBeGreaterThan(2);
    await page.selectOption('#replay-session', session.id);
    await page.waitForSelector('#replay-slider:not([disabled])');
    const max = Number(await page.getAttribute('#replay-slider', 'max'));
    expect(max).toBe(stored.length - 1);
    const seen: Array<{ index: number; x: number; y: number; turn: string }> = [];
    for (const index of [0, Math.floor(max / 3), Math.floor((2 * max) / 3), max]) {
      await page.locator('#replay-slider').fill(String(index));
      const dot = page.locator('#replay-layer .replay-ship');
      seen.push({
        index,
        x: Number(await dot.getAttribute('cx')),
        y: Number(await dot.getAttribute('cy')),
        turn: (await page.getAttribute('#replay-card', 'data-turn')) ?? '',
      });
    }
    // The card shows the moment the slider points at, and the ship is not parked in one place all along.
    expect(seen.map((frame) => frame.turn)).toEqual(seen.map((frame) => String(stored[frame.index]!.turn)));
    const places = new Set(seen.map((frame) => `${frame.x},${frame.y}`));
    expect(places.size).toBeGreaterThan(1);
    // Each frame sits on a point of the drawn route, which is the stored route's places.
    const route = await page.getAttribute('#replay-layer .replay-route', 'points');
    for (const frame of seen) expect(route).toContain(`${frame.x.toFixed(1)},${frame.y.toFixed(1)}`);
    await page.locator('#replay-panel').screenshot({ path: join(SHOTS, 'web-replay.png') });
  }, 30_000);
});

// `skipper web` read as a person reads it, in Debian's Chromium at 1024×768 and 1920×1080, while one `skipper fleet`
// plays three autopilot captains in an embedded minimolt: every map label drawn at 11 px or more on screen and no two
// overlapping, at the fitted view and zoomed in and out; the map fitted and centred in its panel; no card content
// cut off; no id the game used, and no JSON, on any card (the game's names instead, the last action in words); and
// without the token, order controls that are disabled and say why. Saves the README's whole-page screenshots.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { openStore, type Store } from '../../internal/store/index.js';
import { makeHome, removeHome, type CliRun } from '../fakes/cli-process.js';
import { canRun, SHOTS, until, untilPlayed, startFleet, startWeb, launchChromium } from './bridge-harness.js';

const FLEET = 'readers';
const CAPTAINS = ['ada', 'bob', 'cyd'];
const FLEET_FILE = `name: ${FLEET}
defaults: {game: embedded, tick_ms: 200, max_ticks: 3000}
captains:
${CAPTAINS.map((name) => `  - name: ${name}`).join('\n')}
`;
const SIZES = [
  { width: 1024, height: 768 },
  { width: 1920, height: 1080 },
];

interface Label {
  text: string;
  /** Rendered font size in screen pixels. */
  px: number;
  box: { left: number; top: number; right: number; bottom: number };
}

/** Every map label a person can see: its text, its size on screen and its box. */
async function visibleLabels(page: Page): Promise<Label[]> {
  // Runs in the page (this project compiles without the DOM's types).
  return (await page.evaluate(`(() => {
    const map = document.getElementById('map').getBoundingClientRect();
    const labels = [];
    for (const node of document.querySelectorAll('#map text')) {
      const rect = node.getBoundingClientRect();
      const style = getComputedStyle(node);
      if (rect.width === 0 || style.display === 'none' || style.visibility === 'hidden') continue;
      if (rect.right < map.left || rect.left > map.right || rect.bottom < map.top || rect.top > map.bottom) continue;
      const matrix = node.getScreenCTM();
      labels.push({
        text: node.textContent ?? '',
        px: parseFloat(style.fontSize) * Math.hypot(matrix.a, matrix.b),
        box: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom },
      });
    }
    return labels;
  })()`)) as Label[];
}

function overlapping(labels: Label[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++) {
      const [a, b] = [labels[i]!.box, labels[j]!.box];
      const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (width > 0.5 && height > 0.5) found.push(`${labels[i]!.text} × ${labels[j]!.text}`);
    }
  return found;
}

/** After a zoom the labels are placed again on the next frame. */
async function settled(page: Page): Promise<void> {
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}

async function checkLabels(page: Page, when: string): Promise<number> {
  const labels = await visibleLabels(page);
  for (const label of labels) expect(label.px, `${when}: "${label.text}"`).toBeGreaterThanOrEqual(11);
  expect(overlapping(labels), when).toEqual([]);
  return labels.length;
}

describe.skipIf(!canRun)('skipper web, read by a person', () => {
  const home = makeHome();
  let fleet: CliRun;
  let web: CliRun;
  let browser: Browser;
  let store: Store;
  let url: string;

  beforeAll(async () => {
    fleet = startFleet(home, FLEET_FILE);
    store = await openStore({ path: join(home, 'skipper.db') });
    // Each captain has acted (a snapshot) and done something worth a sentence beyond its first look around.
    await untilPlayed(store, { count: 3, snapshots: 3, what: 'three captains that have acted' });
    ({ web, url } = await startWeb(home));
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    fleet?.kill('SIGINT');
    web?.kill('SIGINT');
    await Promise.all([fleet, web].filter(Boolean).map((run) => run.exited));
    await store?.close();
    removeHome(home);
  }, 60_000);

  async function open(size: { width: number; height: number }, withToken = true): Promise<Page> {
    const page = await browser.newPage({ viewport: size });
    await page.goto(withToken ? url : url.replace(/\?token=.*$/, ''));
    await page.waitForSelector('body[data-ready=true]');
    await until('three ships and their labels', async () =>
      (await page.locator('#ships .ship').count()) === 3 && (await page.locator('#labels .ship-label').count()) > 0
        ? true
        : undefined,
    );
    return page;
  }

  for (const size of SIZES) {
    it(`draws legible map labels, none overlapping, at every zoom (${size.width}×${size.height})`, async () => {
      const page = await open(size);
      try {
        const fitted = await checkLabels(page, 'fitted');
        expect(fitted).toBeGreaterThan(3);
        // Fitted and centred: the systems' dots span most of the panel and their middle is near the panel's.
        const spread = (await page.evaluate(`(() => {
          const map = document.getElementById('map').getBoundingClientRect();
          const boxes = [...document.querySelectorAll('#systems circle.system')].map((dot) => dot.getBoundingClientRect());
          const left = Math.min(...boxes.map((box) => box.left));
          const right = Math.max(...boxes.map((box) => box.right));
          const top = Math.min(...boxes.map((box) => box.top));
          const bottom = Math.max(...boxes.map((box) => box.bottom));
          return {
            width: (right - left) / map.width,
            height: (bottom - top) / map.height,
            dx: ((left + right) / 2 - (map.left + map.right) / 2) / map.width,
            dy: ((top + bottom) / 2 - (map.top + map.bottom) / 2) / map.height,
          };
        })()`)) as { width: number; height: number; dx: number; dy: number };
        expect(Math.max(spread.width, spread.height)).toBeGreaterThan(0.6);
        expect(Math.abs(spread.dx)).toBeLessThan(0.05);
        expect(Math.abs(spread.dy)).toBeLessThan(0.05);
        const map = await page.locator('#map').boundingBox();
        await page.mouse.move(map!.x + map!.width / 2, map!.y + map!.height / 2);
        let most = fitted;
        for (const [deltaY, steps, when] of [
          [-120, 6, 'zoomed in'],
          [120, 12, 'zoomed out'],
        ] as const) {
          for (let step = 0; step < steps; step++) await page.mouse.wheel(0, deltaY);
          await settled(page);
          most = Math.max(most, await checkLabels(page, when));
        }
        // Zoomed in, there is room for more names (or all were shown already).
        const systems = await page.locator('#systems circle.system').count();
        expect(most).toBeGreaterThanOrEqual(Math.min(fitted, systems));
      } finally {
        await page.close();
      }
    }, 60_000);

    it(`shows cards in words with nothing cut off (${size.width}×${size.height})`, async () => {
      const page = await open(size);
      try {
        await until('every card worded', async () =>
          (await page.$$eval('#cards .card dd.last-action', (nodes) => nodes.map((node) => node.textContent))).every(
            (text) => text && text !== '–',
          )
            ? true
            : undefined,
        );
        const clipped = (await page.evaluate(`(() => {
          const problems = [];
          for (const card of document.querySelectorAll('#cards .card')) {
            card.scrollIntoView();
            const box = card.getBoundingClientRect();
            if (box.right > window.innerWidth + 0.5) problems.push('card ' + box.right + ' past ' + window.innerWidth);
            for (const node of [card, ...card.querySelectorAll('*')]) {
              if (node instanceof SVGElement || getComputedStyle(node).display === 'inline') continue;
              if (node.scrollWidth > node.clientWidth + 0.5)
                problems.push(node.tagName + '.' + node.className + ' "' + node.textContent + '" ' + node.scrollWidth + '>' + node.clientWidth);
            }
            for (const control of card.querySelectorAll('button, input')) {
              const at = control.getBoundingClientRect();
              if (at.left < box.left || at.right > box.right || at.top < box.top || at.bottom > box.bottom)
                problems.push(control.tagName + ' "' + control.textContent + '" outside its card');
            }
          }
          return problems;
        })()`)) as string[];
        expect(clipped).toEqual([]);

        // No id the game used, no JSON: the galaxy's ids (systems, POIs, every id the game named) never show.
        const galaxy = (await page.evaluate(`fetch('/api/galaxy').then((reply) => reply.json())`)) as {
          names: Record<string, string>;
          systems: Array<{ id: string; name: string; pois: Record<string, { name: string }> }>;
        };
        const ids = new Set<string>(Object.keys(galaxy.names));
        for (const system of galaxy.systems) {
          if (system.name !== system.id) ids.add(system.id);
          for (const [poi, said] of Object.entries(system.pois)) if (said.name !== poi) ids.add(poi);
        }
        expect([...ids].filter((id) => id.includes('_')).length).toBeGreaterThan(0);
        const texts = await page.$$eval('#cards .card', (cards) =>
          cards.map((card) => [...card.querySelectorAll('h3, p, dt, dd')].map((node) => node.textContent).join(' | ')),
        );
        expect(texts).toHaveLength(3);
        for (const text of texts) {
          expect(text).not.toMatch(/[{}]/);
          expect(text).not.toMatch(/\b[a-z0-9]+(?:_[a-z0-9]+)+\b/);
          for (const id of ids) expect(text, id).not.toMatch(new RegExp(`(^|[^\\w])${id}($|[^\\w])`));
        }
        // The last action is a sentence; the place is named; the state is the fleet's.
        const actions = await page.$$eval('#cards .card dd.last-action', (nodes) =>
          nodes.map((node) => node.textContent),
        );
        for (const action of actions)
          expect(action).toMatch(
            /^(mined|sold|bought|travelled|jumped|docked|undocked|refuelled|repaired|registered|logged in|could not|[a-z ]+ [A-Z]|[a-z ]+ \(waiting for the game\)$)/,
          );
        for (const name of CAPTAINS) {
          const session = await store.getSession(name);
          const row = await store.fleets.captain(FLEET, name);
          const card = page.locator(`#cards .card[data-session="${session.id}"]`);
          // stalled: playing, but the watchdog had to step in; else the fleet row's own word.
          const stalled = row!.state === 'playing' && ['nudged', 'replanned'].includes(row!.watchdog);
          expect(await card.locator('h3 .badge').textContent()).toBe(stalled ? 'stalled' : row!.state);
        }
        await page.evaluate('window.scrollTo(0, 0)');
        await page.screenshot({ path: join(SHOTS, `web-page-${size.width}.png`) });
      } finally {
        await page.close();
      }
    }, 60_000);
  }

  it("says who parked a captain and why, in its card's header and state", async () => {
    const page = await open(SIZES[0]!);
    try {
      const name = CAPTAINS[2]!;
      const card = page.locator(`#cards .card[data-session="${(await store.getSession(name)).id}"]`);
      await store.fleets.addOrder({ fleet: FLEET, captain: name, command: 'park' });
      await until('the card to say parked', async () =>
        (await card.locator('h3 .badge').textContent()) === 'parked' ? true : undefined,
      );
      expect(await card.locator('dd.state').textContent()).toBe('parked: parked by order');
      await store.fleets.addOrder({ fleet: FLEET, captain: name, command: 'resume' });
      await until('the card to say playing', async () =>
        (await card.locator('h3 .badge').textContent()) === 'playing' ? true : undefined,
      );
    } finally {
      await page.close();
    }
  }, 60_000);

  it('disables the order controls without the token, and says why', async () => {
    const page = await open(SIZES[0]!, false);
    try {
      const controls = await page.$$eval('#cards .card .controls button, #cards .card .controls input', (nodes) =>
        nodes.map((node) => ({
          disabled: node.hasAttribute('disabled'),
          title: node.getAttribute('title') ?? '',
        })),
      );
      expect(controls.length).toBe(3 * 4);
      for (const control of controls) {
        expect(control.disabled).toBe(true);
        expect(control.title).toMatch(/token/);
      }
      expect(await page.locator('#cards .card .controls .why').first().textContent()).toMatch(/token/);
    } finally {
      await page.close();
    }
    const tokened = await open(SIZES[0]!);
    try {
      expect(await tokened.locator('#cards .card .controls button:disabled').count()).toBe(0);
    } finally {
      await tokened.close();
    }
  }, 60_000);
});

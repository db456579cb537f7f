// The fleet overview of `skipper web` in Debian's Chromium: one `skipper fleet` played three autopilot captains in an
// embedded minimolt and was stopped, so their figures hold still; the table's rows say what `skipper report NAME --json`
// says of each (net worth gained, cost, net worth per hour of played time), the fleet row sums them, the verdict reads
// in words, a click on a heading sorts the rows (aria-sort says how), and at 1024×768 nothing in the table is cut off
// or drawn below 11 px. Saves the README's screenshot of the panel.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { openStore } from '../../internal/store/index.js';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';
import { canRun, SHOTS, until, untilPlayed, startFleet, startWeb, launchChromium } from './bridge-harness.js';

const FLEET = 'ledger';
const CAPTAINS = ['ada', 'bob', 'cyd'];
const FLEET_FILE = `name: ${FLEET}
defaults: {game: embedded, tick_ms: 100, max_ticks: 3000}
captains:
${CAPTAINS.map((name) => `  - name: ${name}`).join('\n')}
`;

interface Report {
  name: string;
  net_worth_change: number | null;
  cost_usd: number;
  duration_ms: number | null;
}

interface Row {
  session: string | null;
  cells: Record<string, { text: string; value: string | null }>;
}

async function report(home: string, name: string): Promise<Report> {
  const run = runCli(['report', name, '--json'], { home });
  expect((await run.exited).code, run.stderr()).toBe(0);
  return JSON.parse(run.stdout()) as Report;
}

async function rows(page: Page, part: 'tbody' | 'tfoot' = 'tbody'): Promise<Row[]> {
  return page.$$eval(`#overview ${part} tr`, (trs) =>
    trs.map((tr) => ({
      session: tr.getAttribute('data-session'),
      cells: Object.fromEntries(
        [...tr.querySelectorAll('td')].map((td) => [
          td.getAttribute('data-key') ?? '',
          { text: td.textContent ?? '', value: td.getAttribute('data-value') },
        ]),
      ),
    })),
  );
}

const numberOf = (cell: { value: string | null } | undefined): number | null =>
  cell?.value === null || cell?.value === undefined || cell.value === '' ? null : Number(cell.value);

describe.skipIf(!canRun)('the fleet overview in Chromium', () => {
  const home = makeHome();
  let web: CliRun;
  let browser: Browser;
  let url: string;
  const reports = new Map<string, Report>();

  beforeAll(async () => {
    const fleet = startFleet(home, FLEET_FILE);
    const store = await openStore({ path: join(home, 'skipper.db') });
    try {
      await untilPlayed(store, { count: 3, snapshots: 4, what: 'three captains with a few turns each' });
    } finally {
      await store.close();
    }
    // Stopped: the figures the page shows and the ones `report` writes are of the same stored turns.
    fleet.kill('SIGINT');
    await fleet.exited;
    for (const name of CAPTAINS) reports.set(name, await report(home, name));
    ({ web, url } = await startWeb(home));
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    web?.kill('SIGINT');
    await web?.exited;
    removeHome(home);
  }, 60_000);

  async function open(size = { width: 1400, height: 1000 }): Promise<Page> {
    const page = await browser.newPage({ viewport: size });
    await page.goto(url);
    await page.waitForSelector('body[data-ready=true]');
    // Every captain's figures read (the played time is known once they are).
    await until('three rows with figures', async () => {
      const shown = await rows(page);
      return shown.length === 3 && shown.every((row) => row.cells.played_ms?.text !== '–') ? true : undefined;
    });
    return page;
  }

  it("shows each captain's figures as `skipper report --json` writes them, and the fleet's sum", async () => {
    const page = await open();
    try {
      const shown = await rows(page);
      const byName = new Map(shown.map((row) => [row.cells.name!.text, row]));
      expect([...byName.keys()].sort()).toEqual(CAPTAINS);
      for (const name of CAPTAINS) {
        const own = reports.get(name)!;
        const row = byName.get(name)!;
        expect(numberOf(row.cells.net_worth_change), name).toBe(own.net_worth_change);
        expect(numberOf(row.cells.cost_usd), name).toBe(own.cost_usd);
        expect(row.cells.cost_usd!.text).toBe(own.cost_usd === 0 ? '$0' : `$${own.cost_usd.toFixed(4)}`);
        expect(own.duration_ms).toBeGreaterThan(0);
        expect(numberOf(row.cells.net_worth_per_hour), name).toBeCloseTo(
          own.net_worth_change! / (own.duration_ms! / 3_600_000),
          6,
        );
        // Formatted with units, never a bare number.
        expect(row.cells.net_worth_change!.text).toMatch(/^([+−]?[\d,]+ cr|–)$/);
        expect(row.cells.queries_per_min!.text).toMatch(/ of 300$/);
      }
      const [fleet] = await rows(page, 'tfoot');
      const gained = CAPTAINS.reduce((sum, name) => sum + reports.get(name)!.net_worth_change!, 0);
      expect(numberOf(fleet!.cells.net_worth_change)).toBe(gained);
      expect(fleet!.cells.name!.text).toBe('all 3');
      // The verdict, in words: autopilot captains spend nothing.
      const verdict = await page.locator('#overview-verdict').textContent();
      if (gained > 0) expect(verdict).toMatch(/^earning: \+[\d,]+ net worth\/h for \$0\.00\/h — costs nothing/);
      else expect(verdict).toMatch(/^(losing|even):/);
    } finally {
      await page.close();
    }
  });

  it('sorts the rows by the heading clicked, and says so with aria-sort', async () => {
    const page = await open();
    try {
      const names = async (): Promise<string[]> => (await rows(page)).map((row) => row.cells.name!.text);
      const heading = (key: string) => page.locator(`#overview th[data-key="${key}"]`);
      await heading('name').locator('button').click();
      expect(await heading('name').getAttribute('aria-sort')).toBe('ascending');
      expect(await names()).toEqual(['ada', 'bob', 'cyd']);
      await heading('name').locator('button').click();
      expect(await heading('name').getAttribute('aria-sort')).toBe('descending');
      expect(await names()).toEqual(['cyd', 'bob', 'ada']);
      // Another column: its figure, highest first; the name column no longer sorted.
      await heading('net_worth_change').locator('button').click();
      expect(await heading('net_worth_change').getAttribute('aria-sort')).toBe('descending');
      expect(await heading('name').getAttribute('aria-sort')).toBe('none');
      const values = (await rows(page)).map((row) => numberOf(row.cells.net_worth_change) ?? -Infinity);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      const expected = [...CAPTAINS].sort(
        (a, b) =>
          (reports.get(b)!.net_worth_change ?? -Infinity) - (reports.get(a)!.net_worth_change ?? -Infinity) ||
          a.localeCompare(b),
      );
      expect(await names()).toEqual(expected);
    } finally {
      await page.close();
    }
  });

  it('cuts nothing off and draws no text below 11 px at 1024×768', async () => {
    const page = await open({ width: 1024, height: 768 });
    try {
      await page.locator('#overview-panel').scrollIntoViewIfNeeded();
      const problems = (await page.evaluate(`(() => {
        const problems = [];
        const panel = document.getElementById('overview-panel');
        const box = panel.getBoundingClientRect();
        if (box.right > window.innerWidth + 0.5) problems.push('panel ' + box.right + ' past ' + window.innerWidth);
        for (const node of panel.querySelectorAll('th, td, p, h2, button')) {
          const size = parseFloat(getComputedStyle(node).fontSize);
          if (size < 11) problems.push(node.tagName + ' "' + node.textContent + '" at ' + size + ' px');
          if (node.scrollWidth > node.clientWidth + 0.5)
            problems.push(node.tagName + ' "' + node.textContent + '" ' + node.scrollWidth + '>' + node.clientWidth);
        }
        const scroll = panel.querySelector('.table-scroll');
        if (scroll.scrollWidth > scroll.clientWidth + 0.5) problems.push('the table scrolls sideways');
        return problems;
      })()`)) as string[];
      expect(problems).toEqual([]);
      const text = await page.locator('#overview').textContent();
      expect(text).not.toMatch(/[{}]/);
      expect(text).not.toMatch(/\bnull\b|\bundefined\b|NaN/);
      mkdirSync(SHOTS, { recursive: true });
      await page.locator('#overview-panel').screenshot({ path: join(SHOTS, 'web-overview.png') });
    } finally {
      await page.close();
    }
  });
});

// Rule: minimolt's SpaceMolt answers have the real server's structure. For each answer a capture exists for
// (test/fixtures/spacemolt/real, read through REAL), minimolt is put in the captured state, and the structure of its
// text (labels, section titles, table headers, in order) must be an in-order subsequence of the capture's: minimolt may
// leave out what it does not model, never add a label or reorder. Sentences are compared with a pattern that must
// match the capture and minimolt's text both, so the pattern itself is tied to the capture.
import { afterEach, describe, expect, test } from 'vitest';
import { REAL } from '../../fixtures/spacemolt/text-samples.js';
import { createMinimolt, type Minimolt, type Player } from '../../../internal/sim/index.js';
import { connectClient, textOf, type Call, type Result } from './mcp.js';

/**
 * The structure of an answer: `header` for the status header line (`Name [empire] | 1,234cr | System`), each label of
 * a `Label: value` line (a ` | ` line gives one per part), `Title (n)` for a section title (`Cargo (3 items):`),
 * `Title` for one without a count, `table: <header row>` for the row after a title, and `current_tick`. Data rows and
 * sentences give nothing.
 */
export function structureOf(text: string): string[] {
  const out: string[] = [];
  let afterTitle = false;
  for (const line of text.split('\n')) {
    const wasTitle = afterTitle;
    afterTitle = false;
    if (line.includes('\t')) {
      if (wasTitle) out.push(`table: ${line}`);
      continue;
    }
    const title = /^(Market summary) at .+:$/.exec(line) ?? /^([A-Z][A-Za-z ]*?) \([^)]*\):$/.exec(line);
    if (title) {
      out.push(title[1] === 'Market summary' ? 'Market summary' : `${title[1]} (n)`);
      afterTitle = true;
      continue;
    }
    const bare = /^([A-Z][A-Za-z ]*):$/.exec(line);
    if (bare) {
      out.push(bare[1] as string);
      afterTitle = true;
      continue;
    }
    if (/^.+ \[[a-z]*\] \| [\d,]+cr \| .+$/.test(line)) {
      out.push('header');
      continue;
    }
    if (line.startsWith('current_tick=')) {
      out.push('current_tick');
      continue;
    }
    for (const part of line.split(' | ')) {
      const label = /^([A-Z][A-Za-z ]*?):(?: |$)/.exec(part);
      if (label) out.push(label[1] as string);
    }
  }
  return out;
}

/** True when every element of `part` appears in `whole` in the same order. */
export function isSubsequence(part: readonly string[], whole: readonly string[]): boolean {
  let at = 0;
  for (const item of part) {
    while (at < whole.length && whole[at] !== item) at++;
    if (at === whole.length) return false;
    at++;
  }
  return true;
}

describe('the structure extractor', () => {
  test('labels, sections, table headers and the header line, in order; data rows and sentences give nothing', () => {
    const text = [
      'Ann [nebula] | 2,750cr | Market Prime',
      'Ship: Prospect (prospect) | Hull: 95/95',
      'Docked at: market_prime_exchange',
      'Empire: ',
      'Cargo (2 items):',
      'item\tqty\tsize',
      'Gold Ore\t5\t1',
      'Empire standings:',
      'empire\trep',
      'Market summary at Market Prime Exchange (482 items):',
      'category\titem_id',
      'Just a sentence. With: a colon inside',
      "current_tick=12 (pass as 'since')",
    ].join('\n');
    expect(structureOf(text)).toEqual([
      'header',
      'Ship',
      'Hull',
      'Docked at',
      'Empire',
      'Cargo (n)',
      'table: item\tqty\tsize',
      'Empire standings',
      'table: empire\trep',
      'Market summary',
      'table: category\titem_id',
      'current_tick',
    ]);
  });

  test('a data row right after a table is not a header; a line without a title before it is not a table', () => {
    expect(structureOf('Resources (1):\nresource\trichness\nIron Ore\t3')).toEqual([
      'Resources (n)',
      'table: resource\trichness',
    ]);
    expect(structureOf('a\tb\nc\td')).toEqual([]);
  });

  test('subsequence: order kept, gaps allowed, nothing extra', () => {
    expect(isSubsequence(['a', 'c'], ['a', 'b', 'c'])).toBe(true);
    expect(isSubsequence(['c', 'a'], ['a', 'b', 'c'])).toBe(false);
    expect(isSubsequence(['a', 'x'], ['a', 'b', 'c'])).toBe(false);
    expect(isSubsequence([], ['a'])).toBe(true);
  });
});

/** minimolt's answer has the capture's structure, with the labels the op must carry; none the capture lacks. */
function expectConforms(actual: string, captured: string, mustHave: readonly string[]): void {
  const ours = structureOf(actual);
  const theirs = structureOf(captured);
  expect(theirs, 'the capture carries every must-have label').toEqual(expect.arrayContaining([...mustHave]));
  expect(ours).toEqual(expect.arrayContaining([...mustHave]));
  expect(
    ours.filter((label) => !theirs.includes(label)),
    'labels the capture lacks',
  ).toEqual([]);
  expect(
    isSubsequence(ours, theirs),
    `in the capture's order:\n${ours.join('\n')}\n--- capture:\n${theirs.join('\n')}`,
  ).toBe(true);
  expect(actual).not.toMatch(/^(Location|Police):|\| Police: /m);
}

const STATUS_LABELS = ['header', 'Ship', 'Hull', 'Speed', 'Fuel', 'Cargo', 'Security', 'Connections'];
const CREDITS = /^.+ \[[a-z]+\] \| \d{1,3}(?:,\d{3})*cr \| [A-Z][^|]*$/m;

const running: Minimolt[] = [];
afterEach(async () => {
  for (const sim of running.splice(0)) await sim.close();
});

interface Game {
  sim: Minimolt;
  player: Player;
  play(action: string, args?: Record<string, unknown>): Promise<Result>;
}

async function start(): Promise<Game> {
  const sim = await createMinimolt({ tickMs: 0, npcChatChance: 0, registrationCode: 'conform' });
  running.push(sim);
  const { call } = await connectClient(sim);
  await call('spacemolt_auth', {
    action: 'register',
    username: 'Nova',
    empire: 'solarian',
    registration_code: 'conform',
  });
  const player = sim.engine.findPlayer('Nova') as Player;
  const tool = (action: string): string => (action === 'view_market' ? 'spacemolt_market' : 'spacemolt');
  const play = (action: string, args: Record<string, unknown> = {}): Promise<Result> =>
    (call as Call)(tool(action), { action, ...args });
  return { sim, player, play };
}

/** The capital's station and its first mining POI, from the world itself. */
function places(game: Game): { station: string; field: string } {
  const system = game.sim.engine.world.systems.get(game.player.systemId);
  const station = system?.pois.find((p) => p.hasBase)?.id;
  const field = system?.pois.find((p) => p.deposits.length > 0)?.id;
  if (!station || !field) throw new Error('the capital needs a station and a mining POI');
  return { station, field };
}

describe('minimolt answers in the real structure', () => {
  test('get_status docked (mcp-probe get_status): Docked at, Security words, lane ids, Cargo and Skills tables, 2,750cr', async () => {
    const game = await start();
    game.player.credits = 2750;
    game.player.cargo.set('iron_ore', 12);
    const text = textOf(await game.play('get_status'));
    expectConforms(text, REAL.STATUS_DOCKED, [...STATUS_LABELS, 'Docked at', 'Cargo (n)', 'table: item\tqty\tsize']);
    expect(text.split('\n')[0]).toMatch(/^Nova \[solarian\] \| 2,750cr \| Sol$/); // the system's name, not its id
    expect(REAL.STATUS_DOCKED).toMatch(CREDITS);
    expect(text).toMatch(/^Docked at: [a-z0-9_]+$/m);
    expect(text).toMatch(/^Security: High Security \(active police patrols\)$/m);
    expect(text).toMatch(/^Connections: [a-z0-9_]+(?:, [a-z0-9_]+)*$/m);
    expect(text).toMatch(/^Cargo \(1 item\):\nitem\tqty\tsize\nIron Ore\t12\t1$/m);
  });

  test('get_status undocked at a belt (poi-deposits-probe get_status): Resources table, no Docked at', async () => {
    const game = await start();
    const { field } = places(game);
    await game.play('travel', { id: field });
    expect(textOf(await game.play('mine'))).toMatch(/^Mined \d+ /);
    const text = textOf(await game.play('get_status'));
    expectConforms(text, REAL.STATUS_AT_BELT, [
      ...STATUS_LABELS,
      'Resources (n)',
      'table: resource\trichness\tremaining\tsupports_power',
      'Cargo (n)',
    ]);
    expect(text).not.toMatch(/^Docked at/m);
    expect(REAL.STATUS_AT_BELT).not.toMatch(/^Docked at/m);
    expect(text).toMatch(
      /^Resources \(\d+\):\nresource\trichness\tremaining\tsupports_power\n[A-Z][a-z]+ [A-Z][a-z]+\t\d+\t[\d,]+\t1$/m,
    );
  });

  test('get_system (mcp-probe get_system): POIs with class/base/online, Connections in GU', async () => {
    const game = await start();
    const text = textOf(await game.play('get_system'));
    expectConforms(text, REAL.GET_SYSTEM, [
      'System',
      'Empire',
      'Security',
      'POIs (n)',
      'table: id\tname\ttype\tclass\tbase\tonline',
      'Connections (n)',
      'table: system_id\tname\tdistance',
    ]);
    expect(text.split('\n')[0]).toBe(
      'System: Sol (sol) | Empire: solarian | Security: High Security (active police patrols)',
    );
    const gu = /^[a-z0-9_]+\t[^\t]+\t\d{1,3}(?:,\d{3})* GU$/;
    const lanes = (t: string): string[] =>
      t.slice(t.indexOf('system_id\tname\tdistance\n')).split('\n').slice(1).filter(Boolean);
    expect(lanes(REAL.GET_SYSTEM).every((row) => gu.test(row))).toBe(true);
    expect(lanes(text).length).toBeGreaterThan(0);
    for (const row of lanes(text)) expect(row).toMatch(gu);
    // The station names its base; the pilot who just registered is online there.
    expect(text).toMatch(/^sol_central\tSol Central\tstation\t\tSol Central\t1$/m);
  });

  test('get_system in a lawless system writes an empty empire, as the capture of Moonshadow does', async () => {
    const game = await start();
    const lawless = [...game.sim.engine.world.systems.values()].find((s) => s.empire === null && s.policeLevel === 0);
    if (!lawless) throw new Error('the world needs a lawless system');
    game.player.systemId = lawless.id;
    game.player.poiId = lawless.pois[0]?.id ?? null;
    game.player.docked = false;
    expect(textOf(await game.play('get_system')).split('\n')[0]).toBe(
      `System: ${lawless.name} (${lawless.id}) | Empire:  | Security: Lawless (no police protection)`,
    );
  });

  test('get_poi at a belt (poi-deposits-probe get_poi)', async () => {
    const game = await start();
    const { field } = places(game);
    await game.play('travel', { id: field });
    const text = textOf(await game.play('get_poi'));
    expectConforms(text, REAL.GET_POI, [
      'POI',
      'Type',
      'Resources (n)',
      'table: resource\trichness\tremaining\tsupports_power',
    ]);
    expect(text.split('\n')[0]).toMatch(
      /^POI: [^(]+ \([a-z0-9_]+\) \| Type: (?:asteroid_belt|ice_field|gas_cloud) \([a-z_]+\)$/,
    );
  });

  test('view_market (mcp-probe view_market): the summary table, credits with commas, Categories, current_tick', async () => {
    const game = await start();
    const text = textOf(await game.play('view_market'));
    expectConforms(text, REAL.VIEW_MARKET, [
      'Market summary',
      'table: category\titem_id\titem_name\tbest_sell\tbest_buy\tspread\tsell_qty\tbuy_qty',
      'Categories',
      'current_tick',
    ]);
    expect(text.split('\n')[0]).toMatch(/^Market summary at Sol Central \(7 items\):$/);
    const row =
      /^[a-z]+\t[a-z0-9_]+\t[A-Z][^\t]*\t(?:\d{1,3}(?:,\d{3})*cr)?\t(?:\d{1,3}(?:,\d{3})*cr)?\t(?:\d{1,3}(?:,\d{3})*cr)?\t[\d,]+\t[\d,]+$/;
    const rows = (t: string): string[] =>
      t
        .split('\n')
        .filter((line) => line.includes('\t'))
        .slice(1);
    expect(rows(REAL.VIEW_MARKET).every((r) => row.test(r))).toBe(true);
    expect(rows(text)).toHaveLength(7);
    for (const r of rows(text)) expect(r).toMatch(row);
    expect(text).toMatch(/^current_tick=[\d,]+ \(pass as 'since' to view_market for the next diff\)$/m);
    // No buyers: an empty best_buy (and spread) and buy_qty 0, as the capture's ask-only rows have.
    const station = game.sim.engine.world.pois.get(places(game).station);
    for (const entry of station?.market?.values() ?? []) {
      const cells = rows(text)
        .find((r) => r.split('\t')[1] === entry.item)
        ?.split('\t');
      expect(cells?.[4] === '', `${entry.item} best_buy`).toBe(!entry.buys);
      if (!entry.buys) expect(cells?.slice(5)).toEqual(['', '100', '0']);
    }
    expect(REAL.VIEW_MARKET).toMatch(/^ammo\tstandard_rounds_box\tStandard Rounds Box\t250cr\t\t\t27\t0$/m);
  });

  test('get_skills (mcp-probe get_skills)', async () => {
    const game = await start();
    game.player.xp.mining = 162;
    const text = textOf(await game.play('get_skills'));
    expectConforms(text, REAL.GET_SKILLS, ['Skills (n)', 'table: skill\tname\tcategory\tlevel\tprogress']);
    expect(text.split('\n')[0]).toMatch(/^Skills \(3 trained, 0-100 scale\):$/);
    expect(REAL.GET_SKILLS).toMatch(/^mining\tMining\tIndustry\t\d+\/100\t[\d,]+\/[\d,]+ XP$/m);
    expect(text).toMatch(/^mining\tMining\tIndustry\t1\/100\t162\/400 XP$/m);
  });

  test('get_notifications with none (mcp-probe get_notifications): the capture, exactly', async () => {
    const game = await start();
    expect(textOf(await game.play('get_notifications'))).toBe(REAL.NO_NOTIFICATIONS);
  });

  test("dock (market-capture): the station's name alone, nothing after", async () => {
    const game = await start();
    await game.play('undock');
    const text = textOf(await game.play('dock'));
    const shape = /^Docked at [A-Z][^\n.]*\.$/;
    expect(REAL.DOCK).toMatch(shape);
    expect(text).toMatch(shape);
    expect(text).toBe('Docked at Sol Central.');
  });

  test('sell (market-capture): `Sold N Item Name for Ncr.`, the XP and no-buyers variants, nothing after', async () => {
    const game = await start();
    const station = game.sim.engine.world.pois.get(places(game).station);
    const bought = [...(station?.market?.values() ?? [])].find((e) => e.buys)?.item;
    const refused = [...(station?.market?.values() ?? [])].find((e) => !e.buys)?.item;
    if (!bought || !refused) throw new Error('the station must buy one item and refuse another');
    const line =
      /^Sold \d[\d,]* [A-Z][a-z]+(?: [A-Z][a-z]+)* for \d[\d,]*cr\.(?: \+\d+ trading XP \(level \d+\)\.)?(?: \d+ unsold \(no buyers\)\.)?$/;
    for (const captured of [REAL.SELL, REAL.SELL_WITH_XP, REAL.SELL_NO_BUYERS])
      expect(captured.split('\n')[0]).toMatch(line);
    game.player.cargo.set(bought, 6);
    game.player.cargo.set(refused, 7);
    const sold = await game.play('sell', { id: bought, quantity: 6 });
    expect(sold.isError).toBeFalsy();
    expect(textOf(sold)).toMatch(line);
    expect(textOf(sold)).toMatch(/ \+\d+ trading XP \(level \d+\)\.$/);
    const credits = game.player.credits;
    const none = await game.play('sell', { id: refused, quantity: 7 });
    expect(none.isError).toBeFalsy(); // a success that sold nothing, as on the real server
    expect(textOf(none)).toMatch(line);
    expect(textOf(none)).toMatch(/^Sold 0 [A-Z][a-z]+(?: [A-Z][a-z]+)* for 0cr\. 7 unsold \(no buyers\)\.$/);
    expect(game.player.cargo.get(refused)).toBe(7);
    expect(game.player.credits).toBe(credits);
  });

  test('a refused mine (mcp-probe mutation): Error: no_resources: Nothing to mine here', async () => {
    const game = await start();
    await game.play('undock');
    const refused = await game.play('mine');
    expect(refused.isError).toBe(true);
    expect(textOf(refused).startsWith(REAL.ERROR_NO_RESOURCES)).toBe(true);
  });
});

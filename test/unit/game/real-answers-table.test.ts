// Every real answer in test/fixtures/spacemolt/real (verbatim, with its source) read through the game layer, in both
// encodings: the text dashboards of /mcp/v2 and HTTP v2, the JSON of the legacy /mcp face. First a sweep — every text
// in every file reads into an observation without throwing, and a failed answer always gets a code — then a table of
// what a person reads in each answer the newer files hold (worded refusals, a September get_system and its in-transit
// reply, Zoea-Nova's legacy JSON, spacemolt-news' passed-through values). Rule 17: the real server's words are the
// oracle; rule 20: what an answer does not say stays unknown.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fromCallResult, readObservation } from '../../../internal/game/index.js';
import { detailsOf, type GameObservation, type GameOp } from '../../../internal/spacemolt/index.js';

const folder = fileURLToPath(new URL('../../fixtures/spacemolt/real/', import.meta.url));
type Json = Record<string, unknown>;
const load = (name: string): Json => JSON.parse(readFileSync(`${folder}${name}`, 'utf8')) as Json;

/** Every string in a fixture that is an answer's text: keys named text, content_text, server_part, result_text, or
 * `raw.result.content[].text`, or named after the query they answer (gantry's `get_status`). */
function answerTexts(value: unknown, key = '', out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (/^(text|content_text|server_part|result_text|result|get_\w+|view_\w+|analyze_\w+)$/.test(key)) out.push(value);
    return out;
  }
  if (Array.isArray(value)) for (const item of value) answerTexts(item, key, out);
  else if (value && typeof value === 'object')
    for (const [inner, item] of Object.entries(value as Json)) if (inner !== '_meta') answerTexts(item, inner, out);
  return out;
}

describe('every real answer reads into an observation', () => {
  // spacemolt-news keeps values its collector passed through, not answers' texts: the table below reads those.
  const files = readdirSync(folder).filter((name) => name.endsWith('.json') && !name.startsWith('spacemolt-news-'));

  it('covers every fixture file', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
  });

  it.each(files)('%s: each text reads without throwing; as an error it always has a code', (name) => {
    const texts = answerTexts(load(name));
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      for (const isError of [false, true]) {
        const seen = readObservation(undefined, text, isError);
        if (isError) expect(seen.error?.code).toMatch(/^[a-z_]+$/);
      }
      expect(fromCallResult({ content: [{ type: 'text', text }] }).text).toBe(text);
    }
  });
});

interface Row {
  what: string;
  op: GameOp | undefined;
  text: string;
  isError: boolean;
  expect: (seen: GameObservation) => void;
}

const harness = load('spacemolt-harness-worded-refusals-2026-07.json').answers as Array<{ text: string }>;
const worded = (start: string): string => {
  const found = harness.find((answer) => answer.text.startsWith(start))?.text;
  if (!found) throw new Error(`no harness answer starting ${start}`);
  return found;
};
const admiral = load('admiral-fork-http-v2-get-system-text-2026-09.json').answers as Array<{ text: string }>;
const zoea = load('zoea-nova-mcp-legacy-2026-02-v0.44.json').answers as Array<Json>;
const zoeaText = (index: number, key = 'content_text'): string => zoea[index]?.[key] as string;
const news = load('spacemolt-news-mcp-json-2026-03-to-08-v0.257-v0.554.json') as Json;
const newsSystem = (news.get_system as Json)['2026-08-22 (v0.554.2)'] as Json;

const refusal =
  (code: string, more: (seen: GameObservation) => void = () => {}) =>
  (seen: GameObservation) => {
    expect(seen.error?.code).toBe(code);
    more(seen);
  };

const ROWS: Row[] = [
  {
    what: 'another action in progress (words, no code)',
    op: 'mine',
    text: worded('Another action'),
    isError: true,
    expect: refusal('action_pending'),
  },
  {
    what: 'mid-travel, with its wait',
    op: 'mine',
    text: worded('Your ship is mid-travel'),
    isError: true,
    expect: refusal('in_transit', (seen) => {
      expect(seen.error?.retry_after).toBe(10);
      expect(seen.location).toMatchObject({ in_transit: true, docked: false });
    }),
  },
  {
    what: 'mid-JUMP, with its wait',
    op: 'mine',
    text: worded('Your ship is mid-JUMP'),
    isError: true,
    expect: refusal('in_transit', (seen) => expect(seen.error?.retry_after).toBe(10)),
  },
  {
    what: 'nothing to mine (words)',
    op: 'mine',
    text: worded('nothing to mine'),
    isError: true,
    expect: refusal('no_resources'),
  },
  {
    what: 'nothing to mine (coded)',
    op: 'mine',
    text: worded('Error: no_resources'),
    isError: true,
    expect: refusal('no_resources'),
  },
  {
    what: 'too sparse',
    op: 'mine',
    text: worded('deposits too sparse'),
    isError: true,
    expect: refusal('deposit_too_sparse'),
  },
  {
    what: 'a no-buyers sale as an error (comma wording)',
    op: 'sell',
    text: worded('Sold 0 Gold Ore'),
    isError: true,
    expect: refusal('no_buyers'),
  },
  {
    what: 'a no-buyers sale as a success (period wording)',
    op: 'sell',
    text: worded('Sold 0 Palladium'),
    isError: false,
    expect: (seen) =>
      expect(detailsOf('sell', seen.details)).toMatchObject({
        item_id: 'palladium_ore',
        quantity_sold: 0,
        unsold: 10,
        no_buyers: true,
      }),
  },
  {
    what: 'not docked (coded without Error:)',
    op: 'sell',
    text: worded('not_docked'),
    isError: true,
    expect: refusal('not_docked', (seen) => expect(seen.location?.docked).toBe(false)),
  },
  { what: 'not enough fuel', op: 'jump', text: worded('not enough fuel'), isError: true, expect: refusal('no_fuel') },
  { what: 'cargo full', op: 'mine', text: worded('cargo full'), isError: true, expect: refusal('no_cargo_space') },
  {
    what: 'a mine accepted for the next tick is no refusal',
    op: 'mine',
    text: worded('Action pending'),
    isError: false,
    expect: (seen) => expect(seen.error).toBeUndefined(),
  },
  {
    what: 'get_system at Krynn (September): POIs with kinds and bases, lanes with distances, police',
    op: 'get_system',
    text: admiral[0]!.text,
    isError: false,
    expect: (seen) => {
      const system = detailsOf('get_system', seen.details)?.system;
      expect(system).toMatchObject({ id: 'krynn', name: 'Krynn', police_level: 100 });
      expect(system?.pois?.map((poi) => [poi.id, poi.type, poi.has_base])).toEqual([
        ['krynns_fury', 'sun', false],
        ['war_citadel', 'station', true],
        ['war_materials', 'asteroid_belt', false],
      ]);
      expect(system?.connections?.map((link) => [link.system_id, link.distance])).toEqual([
        ['the_anvil', 593],
        ['iron_reach', 399],
        ['blood_forge', 295],
        ['valor', 425],
      ]);
      // The lanes' far ends have no police column: unknown, not 0.
      expect(system?.connections?.every((link) => link.police_level === undefined)).toBe(true);
    },
  },
  {
    what: 'get_system while jumping: in transit to segin, 2 ticks',
    op: 'get_system',
    text: admiral[1]!.text,
    isError: false,
    expect: (seen) => {
      expect(seen.location).toMatchObject({
        in_transit: true,
        destination: { system_id: 'segin', poi_id: null },
        ticks_remaining: 2,
      });
      expect(seen.details).toBeUndefined();
    },
  },
  {
    what: 'legacy get_notifications, none (null list)',
    op: 'get_notifications',
    text: zoeaText(0),
    isError: false,
    expect: (seen) => expect(detailsOf('get_notifications', seen.details)).toEqual({ notifications: [], remaining: 0 }),
  },
  {
    what: 'legacy get_notifications, two events with hex ids and data',
    op: 'get_notifications',
    text: zoeaText(1),
    isError: false,
    expect: (seen) => {
      const list = detailsOf('get_notifications', seen.details)?.notifications ?? [];
      expect(list.map((n) => n.type)).toEqual(['system', 'system']);
      expect(list[0]?.message).toContain('poi_arrival');
      expect(list[0]?.message).toContain('Sol Central');
      expect(list[0]?.from).toBe('Iron Duke');
      expect(list[1]?.message).toContain('undock');
      // Two hex ids, two distinct numeric ids: an event is never taken for another.
      expect(new Set(list.map((n) => n.id)).size).toBe(2);
    },
  },
  {
    what: 'legacy get_notifications v0.44.4+: the tick',
    op: 'get_notifications',
    text: zoeaText(5),
    isError: false,
    expect: (seen) => expect(seen.tick).toBe(42337),
  },
  {
    what: 'legacy get_system abridged by its source ("[...]"): not JSON, nothing invented',
    op: 'get_system',
    text: zoeaText(4),
    isError: false,
    expect: (seen) => expect(detailsOf('get_system', seen.details)?.system.pois).toBeUndefined(),
  },
  {
    what: 'legacy captains_log_add refusal: a numeric code, the word in the message',
    op: 'captains_log_add',
    text: zoeaText(6),
    isError: true,
    expect: refusal('empty_entry'),
  },
  {
    what: 'legacy session_required',
    op: 'get_status',
    text: zoeaText(7, 'server_part'),
    isError: true,
    expect: refusal('session_required'),
  },
  {
    what: 'legacy session_invalid',
    op: 'get_status',
    text: zoeaText(8, 'server_part'),
    isError: true,
    expect: refusal('session_invalid'),
  },
  {
    // Assembled by us from the values spacemolt-news passed through unchanged (its own objects are left out).
    what: 'legacy get_system JSON: security words as police, lane objects',
    op: 'get_system',
    text: JSON.stringify({
      security_status: newsSystem['security_status (passed through)'],
      system: {
        name: newsSystem['system.name (passed through)'],
        connections: newsSystem['system.connections (passed through unchanged)'],
      },
    }),
    isError: false,
    expect: (seen) => {
      const system = detailsOf('get_system', seen.details)?.system;
      expect(system).toMatchObject({ name: 'Haven', police_level: 100 });
      expect(system?.connections).toEqual([
        { system_id: 'market_prime', name: 'Market Prime', distance: 407 },
        { system_id: 'traders_rest', name: "Trader's Rest", distance: 514 },
      ]);
      // The collector kept no POIs here: unknown, not "none".
      expect(system?.pois).toBeUndefined();
    },
  },
];

describe('what each newer real answer says', () => {
  it.each(ROWS.map((row) => [row.what, row] as const))('%s', (_what, row) => {
    row.expect(readObservation(row.op, row.text, row.isError));
  });
});

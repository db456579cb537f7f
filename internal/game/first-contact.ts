// First contact, as data: what Skipper READ from each answer the doctor asked (or a capture holds), fact by fact, and
// the verdict that follows from it. The tool names say what Skipper could send; only the answers say whether the
// autopilot can see its ship, its system and its market. Each answer goes through the very reader play uses
// (readObservation: text or JSON), so a fact shown here is one the autopilot gets; a fact the answer did not carry is
// unknown, never a zero or a "no" (rule 20). Pure: the CLI connects, asks and prints; `doctor --from` feeds captured
// answers through the same functions.
import { detailsOf, type GameObservation, type GameOp } from '../spacemolt/index.js';
import type { DoctorReport } from './doctor-check.js';
import { parseJsonObject } from './json/fields.js';
import { readTables } from './text/fields.js';
import { readObservation } from './text/observe.js';

/** The free queries the autopilot uses, in the order the doctor asks them. */
export const CONTACT_QUERIES = [
  'get_status',
  'get_map',
  'get_system',
  'get_poi',
  'view_market',
  'get_cargo',
  'get_skills',
  'get_notifications',
] as const satisfies readonly GameOp[];
export type ContactQuery = (typeof CONTACT_QUERIES)[number];

/** The word a report line starts with. */
export const QUERY_LABELS: Record<ContactQuery, string> = {
  get_status: 'status',
  get_map: 'map',
  get_system: 'system',
  get_poi: 'poi',
  view_market: 'market',
  get_cargo: 'cargo',
  get_skills: 'skills',
  get_notifications: 'notifications',
};

/** One answer as the game gave it (after Skipper's secret redaction). */
export interface ContactAnswer {
  text: string;
  isError: boolean;
}

export interface ReadFact {
  /** `credits`, `system`, `docked`, `fuel`, `cargo`, `pois`, `lanes`, `systems`, `items`, `deposits`, … */
  name: string;
  /** `read`: the answer said it; `unknown`: it did not, or only in part (never guessed). */
  mark: 'read' | 'unknown';
  /** What was read, in words ("credits 2,750"), or what is unknown ("fuel unknown", "4 POIs, kinds unknown"). */
  shown: string;
  /** What was read, as data (also the part read of an unknown fact). */
  value?: unknown;
}

export interface AnswerReading {
  query: ContactQuery;
  /** `read`: something was read (see each fact); `unread`: the answer came and nothing in it could be read;
   * `refused`: the game answered with an error; `not-asked`: the doctor did not ask (the reason says why). */
  state: 'read' | 'unread' | 'refused' | 'not-asked';
  facts: ReadFact[];
  /** Why a query was unread, refused or not asked. */
  reason?: string;
  /** Characters of the answer's text (0 when not asked). */
  chars: number;
}

export interface ContactVerdict {
  level: 'can-play' | 'gaps' | 'cannot';
  /** What the autopilot cannot play without (`status: fuel`, `system: POIs with their kinds`, a tool problem). */
  missing: string[];
  /** What it plays around (`map`, `market`, `deposits`, …). */
  gaps: string[];
  line: string;
}

const grouped = (value: number): string => value.toLocaleString('en-US');
const plural = (count: number, word: string, many = `${word}s`): string =>
  `${grouped(count)} ${count === 1 ? word : many}`;

const read = (name: string, shown: string, value?: unknown): ReadFact => ({
  name,
  mark: 'read',
  shown,
  ...(value !== undefined ? { value } : {}),
});
const unknown = (name: string): ReadFact => ({ name, mark: 'unknown', shown: `${name} unknown` });

/** The facts the autopilot cannot play without, per query. */
const ESSENTIAL_FACTS: Partial<Record<ContactQuery, readonly string[]>> = {
  get_status: ['credits', 'system', 'docked', 'fuel', 'cargo'],
  get_system: ['pois'],
};

/** What a status says of the ship: the five facts the autopilot steers by. */
function statusFacts(observation: GameObservation): ReadFact[] {
  const { player, ship, location, cargo } = observation;
  const facts: ReadFact[] = [];
  facts.push(
    player?.credits !== undefined
      ? read('credits', `credits ${grouped(player.credits)}`, player.credits)
      : unknown('credits'),
  );
  const system = location?.system_name || location?.system_id;
  facts.push(system ? read('system', `system ${system}`, system) : unknown('system'));
  facts.push(dockedFact(location));
  if (ship?.fuel !== undefined)
    facts.push(
      read('fuel', `fuel ${ship.max_fuel !== undefined ? `${ship.fuel}/${ship.max_fuel}` : ship.fuel}`, {
        fuel: ship.fuel,
        max_fuel: ship.max_fuel,
      }),
    );
  else facts.push(unknown('fuel'));
  facts.push(cargoFact(ship, cargo));
  return facts;
}

function dockedFact(location: GameObservation['location']): ReadFact {
  if (location?.in_transit === true) return read('docked', 'in transit', false);
  if (location?.docked === undefined) return unknown('docked');
  const where = location.poi_id || location.poi_name;
  if (location.docked) return read('docked', where ? `docked at ${where}` : 'docked', true);
  return read('docked', where ? `undocked at ${where}` : 'undocked', false);
}

function cargoFact(ship: GameObservation['ship'], cargo: GameObservation['cargo']): ReadFact {
  const items = cargo ? ` (${cargo.length === 0 ? 'empty' : plural(cargo.length, 'item')})` : '';
  if (ship?.cargo_used !== undefined && ship.cargo_capacity !== undefined)
    return read('cargo', `cargo ${ship.cargo_used}/${ship.cargo_capacity}${items}`, {
      used: ship.cargo_used,
      capacity: ship.cargo_capacity,
      ...(cargo ? { items: cargo.length } : {}),
    });
  if (cargo)
    return read('cargo', cargo.length === 0 ? 'cargo empty' : `cargo ${plural(cargo.length, 'item')}`, {
      items: cargo.length,
    });
  return unknown('cargo');
}

const KIND_WORDS: Record<string, [string, string]> = {
  station: ['station', 'stations'],
  asteroid_belt: ['belt', 'belts'],
  ice_field: ['ice field', 'ice fields'],
  gas_cloud: ['gas cloud', 'gas clouds'],
  planet: ['planet', 'planets'],
};

/** "1 station, 2 belts": the POIs counted by kind, in the order they came. */
function kindsWords(types: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const type of types) counts.set(type, (counts.get(type) ?? 0) + 1);
  return [...counts]
    .map(([type, count]) => {
      const [one, many] = KIND_WORDS[type] ?? [type.replace(/_/g, ' '), type.replace(/_/g, ' ')];
      return plural(count, one, many);
    })
    .join(', ');
}

function systemFacts(observation: GameObservation): ReadFact[] {
  const system = detailsOf('get_system', observation.details)?.system;
  const facts: ReadFact[] = [];
  const pois = system?.pois;
  if (pois && pois.length > 0) {
    const types = pois.map((poi): string => poi.type ?? '').filter((type) => type !== '');
    // The autopilot chooses where to mine and sell by kind: POIs without kinds are POIs it cannot use.
    if (types.length > 0)
      facts.push(
        read('pois', `${plural(pois.length, 'POI')} (${kindsWords(types)})`, {
          count: pois.length,
          with_kind: types.length,
        }),
      );
    else
      facts.push({
        name: 'pois',
        mark: 'unknown',
        shown: `${plural(pois.length, 'POI')}, kinds unknown`,
        value: { count: pois.length, with_kind: 0 },
      });
  } else facts.push(unknown('pois'));
  const lanes = system?.connections?.length ?? observation.connections?.length;
  facts.push(lanes !== undefined ? read('lanes', plural(lanes, 'lane'), lanes) : unknown('lanes'));
  return facts;
}

const MINING_KINDS = /belt|field|cloud|asteroid|nebula/i;

function poiFacts(observation: GameObservation): ReadFact[] {
  const poi = detailsOf('get_poi', observation.details)?.poi;
  const facts: ReadFact[] = [];
  const name = poi?.name || poi?.id;
  if (name) facts.push(read('poi', `at ${name}${poi?.type ? ` (${poi.type})` : ''}`, { id: poi?.id, type: poi?.type }));
  else facts.push(unknown('poi'));
  const deposits = poi?.resources ?? observation.resources;
  if (deposits && deposits.length > 0)
    facts.push(read('deposits', plural(deposits.length, 'deposit'), deposits.length));
  else if (poi?.type && !MINING_KINDS.test(poi.type)) facts.push(read('deposits', 'no deposits here', 0));
  else facts.push(unknown('deposits'));
  return facts;
}

function mapFacts(observation: GameObservation): ReadFact[] {
  const systems = detailsOf('get_map', observation.details)?.systems;
  if (!systems || systems.length === 0) return [unknown('systems')];
  const lanes = new Set<string>();
  for (const system of systems)
    for (const lane of system.connections ?? []) lanes.add([system.id, lane].sort().join('\u0000'));
  return [
    read('systems', plural(systems.length, 'system'), systems.length),
    read('lanes', plural(lanes.size, 'lane'), lanes.size),
  ];
}

function marketFacts(observation: GameObservation): ReadFact[] {
  const items = detailsOf('view_market', observation.details)?.items;
  if (!items || items.length === 0) return [unknown('items')];
  // A bid of 0 or none is no buyers: an item the captain cannot sell there.
  const withBid = items.filter((item) => (item.bid ?? 0) > 0).length;
  return [
    read('items', `${plural(items.length, 'item')}, ${grouped(withBid)} with a bid`, {
      count: items.length,
      with_bid: withBid,
    }),
  ];
}

function cargoAnswerFacts(observation: GameObservation): ReadFact[] {
  const { ship, cargo } = observation;
  if (!cargo && ship?.cargo_used === undefined) return [unknown('cargo')];
  return [cargoFact(ship, cargo)];
}

function skillsFacts(observation: GameObservation): ReadFact[] {
  const skills = detailsOf('get_skills', observation.details)?.skills;
  const names = skills ? Object.keys(skills) : [];
  return names.length > 0 ? [read('skills', plural(names.length, 'skill'), names.length)] : [unknown('skills')];
}

function notificationFacts(observation: GameObservation): ReadFact[] {
  const details = detailsOf('get_notifications', observation.details);
  if (!details) return [unknown('events')];
  return [
    read(
      'events',
      `${plural(details.notifications.length, 'event')}${details.remaining > 0 ? ` (${grouped(details.remaining)} more waiting)` : ''}`,
      { count: details.notifications.length, remaining: details.remaining },
    ),
  ];
}

const FACTS: Record<ContactQuery, (observation: GameObservation) => ReadFact[]> = {
  get_status: statusFacts,
  get_map: mapFacts,
  get_system: systemFacts,
  get_poi: poiFacts,
  view_market: marketFacts,
  get_cargo: cargoAnswerFacts,
  get_skills: skillsFacts,
  get_notifications: notificationFacts,
};

/** Why nothing could be read, from what the text holds: its tables' columns, or its JSON keys. */
export function unreadReason(query: ContactQuery, text: string): string {
  const size = `${grouped(text.length)} chars of ${parseJsonObject(text) ? 'JSON' : 'text'} not read`;
  const json = parseJsonObject(text);
  if (json) return `no ${QUERY_LABELS[query]} in it; keys: ${Object.keys(json).slice(0, 8).join(', ')}; ${size}`;
  const tables = readTables(text);
  if (tables.length === 0) return `no ${QUERY_LABELS[query]} in it, no tab-separated table; ${size}`;
  const columns = tables
    .slice(0, 3)
    .map((table) => table.header.join(' '))
    .join(' | ');
  return `no ${QUERY_LABELS[query]} in it; table columns: ${columns}; ${size}`;
}

/** What Skipper read from one answer, fact by fact. */
export function readAnswer(query: ContactQuery, answer: ContactAnswer): AnswerReading {
  const chars = answer.text.length;
  const observation = readObservation(query, answer.text, answer.isError);
  if (answer.isError) {
    const said = observation.error?.message || answer.text.split('\n')[0] || 'an error';
    const code = observation.error?.code;
    return {
      query,
      state: 'refused',
      facts: [],
      reason: code && !said.startsWith(code) ? `${code}: ${said}` : said,
      chars,
    };
  }
  const facts = FACTS[query](observation);
  // Unread: nothing at all came of it (a fact read in part, like POIs without kinds, is something).
  if (facts.every((fact) => fact.mark === 'unknown' && fact.value === undefined))
    return { query, state: 'unread', facts, reason: unreadReason(query, answer.text), chars };
  return { query, state: 'read', facts, chars };
}

/** A query the doctor did not ask, with why. */
export function notAsked(query: ContactQuery, reason: string): AnswerReading {
  return { query, state: 'not-asked', facts: [], reason, chars: 0 };
}

/** Whether to ask view_market after this status: only docked (a market is read at its station); else why not. */
export function marketQuestion(status: AnswerReading | undefined): { ask: true } | { ask: false; reason: string } {
  const docked = status?.facts.find((fact) => fact.name === 'docked');
  if (docked?.mark === 'read' && docked.value === true) return { ask: true };
  if (docked?.mark === 'read') return { ask: false, reason: 'not docked: not asked' };
  return { ask: false, reason: 'docked unknown: not asked' };
}

/** Readings for every query, given the answers there are (a live run's or a capture's); `missing` says why one is
 * absent. */
export function readAnswers(
  answers: Partial<Record<ContactQuery, ContactAnswer>>,
  missing: (query: ContactQuery) => string,
): AnswerReading[] {
  const readings: AnswerReading[] = [];
  for (const query of CONTACT_QUERIES) {
    const answer = answers[query];
    if (answer) readings.push(readAnswer(query, answer));
    else if (query === 'view_market') {
      const question = marketQuestion(readings.find((reading) => reading.query === 'get_status'));
      readings.push(notAsked(query, question.ask ? missing(query) : question.reason));
    } else readings.push(notAsked(query, missing(query)));
  }
  return readings;
}

/** What of one essential query is missing, as `status: fuel` phrases. */
function missingOf(reading: AnswerReading | undefined, query: ContactQuery): string[] {
  const label = QUERY_LABELS[query];
  if (!reading || reading.state !== 'read') {
    const why = reading?.reason ? ` (${reading.reason})` : '';
    return [
      `${label}: ${reading?.state === 'refused' ? 'refused' : reading?.state === 'unread' ? 'not read' : 'not asked'}${why}`,
    ];
  }
  const essential = ESSENTIAL_FACTS[query] ?? [];
  return reading.facts
    .filter((fact) => essential.includes(fact.name) && fact.mark !== 'read')
    .map((fact) => `${label}: ${fact.name === 'pois' ? 'POIs with their kinds' : fact.name}`);
}

/** What the autopilot plays around: a map, market, deposits or other answer it could not read. */
function gapsOf(readings: readonly AnswerReading[]): string[] {
  const gaps: string[] = [];
  for (const reading of readings) {
    if (reading.query === 'get_status' || reading.query === 'get_system') continue;
    // A refusal was read (it says why: not docked, not logged in yet); a gap is an answer Skipper could not read.
    if (reading.state === 'unread') gaps.push(QUERY_LABELS[reading.query]);
    else if (reading.state === 'read' && reading.query === 'get_poi') {
      if (reading.facts.some((fact) => fact.name === 'deposits' && fact.mark === 'unknown')) gaps.push('deposits');
    }
  }
  return gaps;
}

/**
 * The verdict from the answers (and the tool check, when the tool list is known): "can play" only when the status
 * gives credits, system, docked, fuel and cargo and get_system gives POIs with their kinds; "with gaps" when those
 * read but the map, market, deposits or another answer do not; else "cannot play here yet" with what is missing.
 */
export function contactVerdict(readings: readonly AnswerReading[], tools?: DoctorReport): ContactVerdict {
  const byQuery = (query: ContactQuery): AnswerReading | undefined =>
    readings.find((reading) => reading.query === query);
  const missing = [
    ...(tools?.problems ?? []),
    ...missingOf(byQuery('get_status'), 'get_status'),
    ...missingOf(byQuery('get_system'), 'get_system'),
  ];
  const gaps = gapsOf(readings);
  if (missing.length > 0)
    return { level: 'cannot', missing, gaps, line: `Skipper cannot play here yet: missing ${missing.join('; ')}` };
  if (gaps.length > 0)
    return {
      level: 'gaps',
      missing,
      gaps,
      line: `Skipper plays here with gaps: ${gaps.join(', ')} not read — the autopilot will go around them`,
    };
  return { level: 'can-play', missing, gaps, line: 'Skipper can play here' };
}

// One vocabulary for the figures: a short autoplay session (embedded minimolt, the builtin autopilot, a temp home),
// then its `autoplay-end` event, its `skipper sessions --json` row, its `skipper report NAME --json` object and the
// web API (`skipper web` on the same home: its JSON endpoints and its event stream) write the same figures under the
// same snake_case names, with equal values, field by field; no key anywhere is camelCase, and every `stop_reason` is
// an object whose code is one of the shared stop codes.
import { afterEach, describe, expect, it } from 'vitest';
import { STOP_CODES } from '../../internal/shared/index.js';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The figures every view writes (session-figures.ts names them). */
const SHARED = [
  'turns',
  'ticks',
  'credits_start',
  'credits_end',
  'credits_change',
  'net_worth_start',
  'net_worth_end',
  'net_worth_change',
  'tokens',
  'prompt_tokens',
  'completion_tokens',
  'cost_usd',
  'cached_prompt_tokens',
  'credits_per_1k_tokens',
  'usd_per_1k_credits',
] as const;

/** The session's stored figures, written by report --json and carried by the web's card (its `figures`). */
const STORED = [...SHARED, 'duration_ms', 'net_worth_pricing', 'tick_utilisation', 'tick_utilisation_source'] as const;

type Json = Record<string, unknown>;

function jsonLines(text: string): Json[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Json);
}

function start(args: string[], home: string): CliRun {
  const cli = runCli(args, { home });
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
  });
  return cli;
}

async function stdoutOf(args: string[], home: string): Promise<string> {
  const cli = start(args, home);
  const { code } = await cli.exited;
  expect(code, cli.stderr()).toBe(0);
  return cli.stdout();
}

const isSnakeCase = (key: string): boolean => /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(key);

/** Maps keyed by data, not by our names: the game's error codes, turn outcomes, wake reasons, POI ids. */
const KEYED_BY_DATA = new Set(['errors_by_code', 'outcomes', 'reasons', 'pois']);

/** Every key of `value`, nested ones too (the keys of maps keyed by data left out). */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (KEYED_BY_DATA.has(key) ? [key] : [key, ...keysOf(inner)]));
}

/** Every `stop_reason` value in `value`, at any depth. */
function stopReasonsIn(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(stopReasonsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'stop_reason' ? [inner, ...stopReasonsIn(inner)] : stopReasonsIn(inner),
  );
}

async function getJson(base: string, path: string): Promise<Json> {
  const response = await fetch(`${base}${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as Json;
}

interface StreamEvent {
  event: string;
  data: Json;
}

/** Reads the event stream until `enough` says so; the events read. */
async function readStream(url: string, enough: (events: StreamEvent[]) => boolean): Promise<StreamEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 60_000);
  const events: StreamEvent[] = [];
  try {
    const response = await fetch(url, { signal: controller.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    while (!enough(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(frame)?.[1];
        const data = /^data: (.+)$/m.exec(frame)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) as Json });
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

/** The web's card for `name`, once the bridge has read the session's figures (`until` says which ones). The bridge
 * reads them on its own cycle; on a loaded machine (two suites at once) that took over 20 s, so it is given a minute. */
async function cardOf(base: string, name: string, until: (figures: Json) => boolean): Promise<Json> {
  const deadline = Date.now() + 60_000;
  let seen: unknown;
  while (Date.now() < deadline) {
    const state = await getJson(base, '/api/state');
    const card = (state.captains as Json[]).find((captain) => captain.name === name);
    const figures = card?.figures as Json | null | undefined;
    if (card && figures && until(figures)) return card;
    seen = figures;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the web never showed ${name}'s figures (last seen: ${JSON.stringify(seen)})`);
}

describe('--json, sessions --json, report --json and the web API speak one vocabulary', () => {
  it('give equal values under equal snake_case names for every shared figure, and stop_reason as a code', async () => {
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const events = jsonLines(await stdoutOf(['--autoplay', '--max-ticks', '30', '--tick-ms', '0', '--json'], home));
    const end = events.at(-1)!;
    expect(end.type).toBe('autoplay-end');
    const name = String(end.session);
    const listed = jsonLines(await stdoutOf(['sessions', '--json'], home)).find((row) => row.name === name);
    expect(listed, `sessions --json lists ${name}`).toBeDefined();
    const report = jsonLines(await stdoutOf(['report', name, '--json'], home))[0]!;

    // The run did something: the comparison is between real figures, not between three nulls.
    expect(end.ticks).toBeGreaterThanOrEqual(30);
    expect(typeof end.credits_change).toBe('number');
    expect(end.credits_change).toBe(Number(end.credits_end) - Number(end.credits_start));
    expect(end.net_worth_change).toBe(Number(end.net_worth_end) - Number(end.net_worth_start));
    expect(end.tokens).toBe(Number(end.prompt_tokens) + Number(end.completion_tokens));
    expect(end.stop_reason).toEqual({ code: 'max_ticks', limit: 30, text: 'reached --max-ticks 30' });

    for (const field of SHARED) {
      expect(end, `autoplay-end has ${field}`).toHaveProperty(field);
      expect(listed![field], `sessions --json ${field}`).toEqual(end[field]);
      expect(report[field], `report --json ${field}`).toEqual(end[field]);
    }
    expect(report.actions).toBe(end.actions);
    expect(report.name).toBe(name);

    // The web on the same home: its card carries the session's own figures, under the same names, equal.
    const web = start(['web', '--port', '0'], home);
    const [, base] = await web.waitFor(/Skipper bridge on (http:\/\/\S+?)\/? \(/);
    const card = await cardOf(base!, name, () => true);
    const figures = card.figures as Json;
    for (const field of STORED) {
      expect(figures, `the web's figures have ${field}`).toHaveProperty(field);
      expect(figures[field], `web figures.${field}`).toEqual(report[field]);
    }
    for (const field of ['tick_utilisation', 'tick_utilisation_source'])
      expect(figures[field], `web figures.${field}`).toEqual(end[field]);
    // The card's live counts are the same figures under the same names.
    for (const field of ['turns', 'tokens', 'cost_usd'])
      expect(card[field], `web card ${field}`).toEqual(report[field]);

    const sessionId = String(card.session_id);
    const bodies: Json[] = [
      await getJson(base!, '/api/state'),
      await getJson(base!, '/api/galaxy'),
      await getJson(base!, '/api/cost'),
      await getJson(base!, `/api/sessions/${encodeURIComponent(name)}/messages?turns=3`),
      await getJson(base!, `/api/sessions/${encodeURIComponent(name)}/snapshots?limit=5`),
      await getJson(base!, `/api/sessions/${encodeURIComponent(name)}/counterfactuals`),
    ];
    expect((bodies[3]!.messages as unknown[]).length).toBeGreaterThan(0);
    expect(bodies[3]).toHaveProperty('next_before_turn');

    // The event stream while the captain plays on: a captain event (its card, figures moving) and a message event.
    const stream = readStream(
      `${base!}/api/events?session=${encodeURIComponent(sessionId)}`,
      (seen) =>
        seen.some((event) => event.event === 'message') &&
        seen.some((event) => event.event === 'captain' && (event.data.card as Json).name === name),
    );
    const more = jsonLines(
      await stdoutOf(['-s', name, '--autoplay', '--max-ticks', '10', '--tick-ms', '0', '--json'], home),
    );
    const streamed = await stream;
    const captain = streamed.find((event) => event.event === 'captain')!.data.card as Json;
    expect(Object.keys(captain).sort()).toEqual(Object.keys(card).sort());
    const message = streamed.find((event) => event.event === 'message')!.data;
    expect(message.session_id).toBe(sessionId);

    // Once the second run is stored, the web's figures are the report's again.
    const again = jsonLines(await stdoutOf(['report', name, '--json'], home))[0]!;
    expect(again.turns).toBeGreaterThan(Number(report.turns));
    const moved = (await cardOf(base!, name, (shown) => shown.turns === again.turns)).figures as Json;
    for (const field of STORED) expect(moved[field], `web figures.${field} after the second run`).toEqual(again[field]);
    web.kill('SIGINT');
    expect((await web.exited).code).toBe(0);

    const outputs: unknown[] = [events, more, listed, report, again, bodies, streamed.map((event) => event.data)];
    expect(outputs.flatMap(keysOf).filter((key) => !isSnakeCase(key))).toEqual([]);
    const stops = outputs.flatMap(stopReasonsIn);
    expect(stops.length).toBeGreaterThanOrEqual(2);
    for (const stop of stops) {
      expect(stop).toMatchObject({ code: expect.any(String), text: expect.any(String) });
      expect(STOP_CODES).toContain((stop as { code: string }).code);
    }
  }, 180_000);
});

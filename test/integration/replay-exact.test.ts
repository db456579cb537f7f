// Exact replays (issue 50): the built-in autopilot asked again, with `skipper replay S --with builtin/autopilot`,
// agrees with itself on every one of its decisions when the state each was made in is rebuilt exactly — for every kind
// of session the real program makes on embedded minimolt: played in one run, played and resumed (a new process that
// had learnt nothing yet), a fleet's captains (what their fleet-mates told them moves on as they play), and planner
// mode (the plans a model set, flown by the autopilot). On SQLite, and on PostgreSQL with --db when
// SKIPPER_TEST_DATABASE_URL is set. Each kind also checks that what it is about was recorded: two instances in the
// resumed session, fleet-mates' surveys read by a captain, plans set in the planner's.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store, type StoredRequest } from '../../internal/store/index.js';
import { startFakeOpenAI, type FakeReply, type RecordedRequest } from '../fakes/fake-openai.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason } from '../contract/pg-test-db.js';

const newHome = tempHomes();
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const pgSkip = pgSkipReason();
if (pgSkip) console.warn(pgSkip);

/** Where sessions are stored: a home's SQLite file, or a fresh schema of the test database (--db). */
interface Place {
  home: string;
  db: string[];
  path: string;
}

const stores: Array<[string, () => Place]> = [
  [
    'SQLite',
    () => {
      const home = newHome();
      return { home, db: [], path: join(home, 'skipper.db') };
    },
  ],
];
if (!pgSkip) {
  stores.push([
    'PostgreSQL',
    () => {
      const { url, schema } = freshSchemaUrl();
      schemas.push(schema);
      return { home: newHome(), db: ['--db', url], path: url };
    },
  ]);
}

async function cli(place: Place, args: string[]): Promise<string> {
  const run = runCli([...args, ...place.db], { home: place.home });
  const { code } = await run.exited;
  expect(code, run.stderr()).toBe(0);
  return run.stdout();
}

const autoplay = (name: string, ticks: number): string[] => [
  '--autoplay',
  '--max-ticks',
  String(ticks),
  '--tick-ms',
  '0',
  '-s',
  name,
];

/** `replay NAME --with builtin/autopilot --json`: its totals, after checking every decision agreed. */
async function replayed(place: Place, name: string): Promise<Record<string, any>> {
  const events = (await cli(place, ['replay', name, '--with', 'builtin/autopilot', '--json']))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>);
  const totals = events.at(-1)!;
  const disagreed = events.filter((event) => event.type === 'decision' && event.verdict !== 'same');
  expect(totals).toMatchObject({ type: 'counterfactual', session: name, status: 'done' });
  expect(disagreed, `${name}: ${JSON.stringify(disagreed.slice(0, 3))}`).toEqual([]);
  expect(totals.decisions).toBeGreaterThanOrEqual(5);
  expect(totals.same).toBe(totals.decisions);
  expect(totals.agreement).toBe(1);
  return totals;
}

/** The session's stored requests, loaded whole. */
async function storedRequests(place: Place, name: string): Promise<StoredRequest[]> {
  const store: Store = await openStore({ path: place.path, readonly: true });
  try {
    const session = await store.getSession(name);
    const loaded: StoredRequest[] = [];
    for (const record of await store.requests.list(session.id)) loaded.push(await store.requests.load(record.id));
    return loaded;
  } finally {
    await store.close();
  }
}

/** A planning model: each check-in sets the next plan of the list (mining one ore, then another, then exploring). */
function plannerScript(): (request: RecordedRequest) => FakeReply {
  const plans = [
    { strategy: 'mine', resource: 'iron_ore', intent: 'iron pays the bills' },
    { strategy: 'explore', intent: 'see what lies beyond' },
    { strategy: 'mine', resource: 'copper_ore', intent: 'copper for a change' },
  ];
  let checkIns = 0;
  return (request) => {
    type Wire = { role: string; content?: string | null; tool_calls?: Array<{ function: { name: string } }> };
    const messages = request.body.messages as Wire[];
    const lastUser = messages.map((message) => message.role).lastIndexOf('user');
    const planned = messages
      .slice(lastUser + 1)
      .some((message) => message.tool_calls?.some((call) => call.function.name === 'set_plan'));
    if (!planned && /Planner check-in/.test(String(messages[lastUser]?.content ?? ''))) {
      const plan = plans[checkIns % plans.length]!;
      checkIns += 1;
      return { toolCalls: [{ name: 'set_plan', arguments: plan }] };
    }
    return { content: 'Plan set.' };
  };
}

describe.each(stores)('replay --with builtin/autopilot agrees with itself (%s)', (_engine, makePlace) => {
  it('on a session played in one run', async () => {
    const place = makePlace();
    await cli(place, autoplay('single', 40));
    await replayed(place, 'single');
  }, 120_000);

  it('on a session played, stopped and resumed', async () => {
    const place = makePlace();
    await cli(place, autoplay('resumed', 30));
    await cli(place, autoplay('resumed', 30));
    const instances = new Set((await storedRequests(place, 'resumed')).map((request) => request.inputs?.instance));
    expect(instances.size).toBe(2);
    expect(instances.has(undefined)).toBe(false);
    await replayed(place, 'resumed');
  }, 120_000);

  it('on each captain of a fleet (what its fleet-mates told it moved on as it played)', async () => {
    const place = makePlace();
    const file = join(place.home, 'trio.yaml');
    const captains = ['ada', 'bob', 'cyd'];
    writeFileSync(
      file,
      [
        'name: trio',
        'defaults:',
        '  game: embedded',
        '  tick_ms: 20',
        '  max_ticks: 80',
        'captains:',
        ...captains.map((captain) => `  - name: ${captain}`),
        '',
      ].join('\n'),
    );
    await cli(place, ['fleet', file]);
    for (const captain of captains) {
      const requests = await storedRequests(place, captain);
      // The fleet's answers were kept with the decisions, the fleet-mates' surveys among them.
      const fleetReads = requests.map((request) => request.inputs?.given?.fleet as { systems?: unknown[] } | undefined);
      expect(fleetReads.every((reads) => reads !== undefined)).toBe(true);
      expect(fleetReads.some((reads) => (reads?.systems?.length ?? 0) > 0)).toBe(true);
      await replayed(place, captain);
    }
  }, 180_000);

  it('on a planner session (the plans the model set, flown by the autopilot)', async () => {
    const place = makePlace();
    const planner = plannerScript();
    const server = await startFakeOpenAI({ script: Array.from({ length: 60 }, () => planner) });
    cleanups.push(() => server.close());
    const args = ['--model', 'custom/planner', '--base-url', server.url, '--planner', '--planner-every', '15'];
    await cli(place, [...args, ...autoplay('planned', 90)]);
    const requests = await storedRequests(place, 'planned');
    const plans = requests.flatMap((request) =>
      request.inputs?.given && 'plan' in request.inputs.given ? [request.inputs.given.plan] : [],
    );
    expect(plans.length).toBeGreaterThan(1);
    expect(requests.some((request) => request.model === 'custom/planner')).toBe(true);
    const totals = await replayed(place, 'planned');
    // The planning model's decisions are not the autopilot's: not asked, and said so.
    expect(totals.not_asked).toBeGreaterThan(0);
  }, 120_000);
});

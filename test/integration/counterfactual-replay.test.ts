// Counterfactual replay through the built program: an autopilot session is played on embedded minimolt, then asked
// again with builtin/random and with a scripted OpenAI-compatible model (the fake server). The model must receive
// the stored contexts byte for byte, the counts must add up, the runs are listed apart by `skipper sessions`, and the
// original session's rows stay exactly as they were.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { toChatRequest } from '../../internal/provider/index.js';
import { decisionPoints, requestContexts } from '../../internal/session/index.js';
import { openStore, type Store } from '../../internal/store/index.js';
import type { ToolCall } from '../../internal/shared/index.js';
import { startFakeOpenAI, type FakeReply, type RecordedRequest } from '../fakes/fake-openai.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();
let home = '';
let sessionName = '';

async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(args, { home, env });
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

const lines = (text: string): Array<Record<string, any>> =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));

/** Every row the session owns, as text: compared before and after the counterfactuals. */
function sessionRows(): string {
  const db = new Database(join(home, 'skipper.db'), { readonly: true });
  try {
    const id = (db.prepare('SELECT id FROM sessions WHERE name = ?').get(sessionName) as { id: string }).id;
    const rows = [
      'sessions WHERE id = ?',
      'messages WHERE session_id = ? ORDER BY seq',
      'usage WHERE session_id = ? ORDER BY id',
      'snapshots WHERE session_id = ? ORDER BY turn',
      'turns WHERE session_id = ? ORDER BY turn',
      'requests WHERE session_id = ? ORDER BY id',
    ].map((from) => db.prepare(`SELECT * FROM ${from}`).all(id));
    rows.push(db.prepare('SELECT id, hex(hash), hex(body) FROM context_blobs ORDER BY id').all());
    return JSON.stringify(rows);
  } finally {
    db.close();
  }
}

async function withStore<T>(use: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  home = newHome();
  const played = await cli(['--autoplay', '--max-ticks', '40', '--tick-ms', '0']);
  expect(played.code).toBe(0);
  sessionName = /session (\S+)/.exec(played.stdout.split('Autoplay ended')[1] ?? '')?.[1] ?? '';
  expect(sessionName).not.toBe('');
}, 60_000);

describe('skipper replay --with', () => {
  let before = '';
  beforeAll(() => {
    before = sessionRows();
  });

  it('asks builtin/random at every decision point; the counts add up', async () => {
    const points = await withStore(
      async (store) => (await decisionPoints(store, await store.getSession(sessionName))).points.length,
    );
    expect(points).toBeGreaterThan(10);
    const { code, stdout, stderr } = await cli(['replay', sessionName, '--with', 'builtin/random', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const events = lines(stdout);
    const decisions = events.filter((event) => event.type === 'decision');
    const totals = events.at(-1)!;
    expect(decisions).toHaveLength(points);
    expect(totals).toMatchObject({
      type: 'counterfactual',
      session: sessionName,
      model: 'builtin/random',
      status: 'done',
      decisions: points,
      tokens: 0,
      cost_usd: 0,
    });
    expect(totals.same + totals.different + totals.invalid + totals.failed).toBe(points);
    for (const verdict of ['same', 'invalid'] as const)
      expect(totals[verdict]).toBe(decisions.filter((event) => event.verdict === verdict).length);
    expect(totals.agreement).toBeCloseTo(totals.same / points, 4);
    expect(totals.invalid).toBeGreaterThan(0); // random play tries actions the tool list does not offer
  });

  it('sends a scripted OpenAI-compatible model the stored contexts byte for byte, and judges its replies', async () => {
    // The autopilot's requests hold recipes: the context sent is the one a model would have been sent live, rebuilt
    // from the transcript (test/unit/session/context-recipe.test.ts checks that against whole contexts).
    const stored = await withStore(async (store) => {
      const session = await store.getSession(sessionName);
      const contextOf = requestContexts(store, session.id);
      const { points } = await decisionPoints(store, session);
      const contexts = [];
      for (const { request, original } of points) {
        const loaded = await store.requests.load(request.id);
        contexts.push({ request: { ...loaded, messages: await contextOf(loaded) }, original });
      }
      return contexts;
    });
    expect(stored.every(({ request }) => request.recipe !== undefined)).toBe(true);
    expect(stored.some(({ request }) => request.messages.length > 10)).toBe(true);
    // Reply 1: the captain's own calls; 2: an unknown tool; 3: an action the schema refuses; then plain text.
    const replyTo = (_request: RecordedRequest, index: number): FakeReply => {
      const original = stored[index]!.original.toolCalls;
      if (index === 0)
        return { toolCalls: original.map((call: ToolCall) => ({ name: call.name, arguments: call.arguments })) };
      if (index === 1) return { toolCalls: [{ name: 'warp_drive', arguments: {} }] };
      if (index === 2) return { toolCalls: [{ name: 'spacemolt', arguments: { action: 'dance' } }] };
      return { content: 'I would wait here.' };
    };
    const fake = await startFakeOpenAI({ script: stored.map(() => replyTo) });
    try {
      const { code, stdout } = await cli([
        'replay',
        sessionName,
        '--with',
        'custom/scripted',
        '--base-url',
        fake.url,
        '--json',
      ]);
      expect(code).toBe(0);
      expect(fake.invalid).toEqual([]);
      expect(fake.exhausted).toBe(false);
      expect(fake.chatRequests).toHaveLength(stored.length);
      for (const [index, { request }] of stored.entries()) {
        const expected = toChatRequest(request.messages, request.tools, 'scripted', { vision: false });
        const body = fake.chatRequests[index]!.body as { messages: unknown; tools: unknown };
        expect(JSON.stringify(body.messages)).toBe(JSON.stringify(expected.messages));
        expect(JSON.stringify(body.tools)).toBe(JSON.stringify(expected.tools));
      }
      const textOriginals = stored.slice(3).filter(({ original }) => original.toolCalls.length === 0).length;
      const totals = lines(stdout).at(-1)!;
      expect(totals).toMatchObject({
        model: 'custom/scripted',
        decisions: stored.length,
        same: 1 + textOriginals,
        invalid: 2,
        different: stored.length - 3 - textOriginals,
        failed: 0,
      });
      expect(totals.tokens).toBeGreaterThan(0);
    } finally {
      await fake.close();
    }
  });

  it('lists the counterfactuals apart in `skipper sessions`, and replays a range side by side for people', async () => {
    const shown = await cli(['replay', sessionName, '--with', 'builtin/autopilot', '--from', '2', '--to', '3']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/original captain\s+│ builtin\/autopilot/);
    expect(shown.stdout).toMatch(/^\s+2\.1 .*│.*= same/m);
    expect(shown.stdout).toMatch(/decisions \d+ · same \d+ \(100\.0%\)/);
    const listed = await cli(['sessions']);
    expect(listed.stdout).toMatch(/Counterfactuals/);
    for (const [number, model] of [
      [1, 'builtin/random'],
      [2, 'custom/scripted'],
      [3, 'builtin/autopilot'],
    ] as const) {
      expect(listed.stdout).toMatch(
        new RegExp(`${sessionName}\\.cf${number}\\s+${sessionName}\\s+${model.replace('/', '\\/')}`),
      );
    }
  });

  it('eval sums a home up in a Markdown table per model', async () => {
    const { code, stdout } = await cli(['eval', home, '--with', 'builtin/autopilot', 'builtin/random']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^### builtin\/autopilot$/m);
    expect(stdout).toMatch(/^### builtin\/random$/m);
    expect(stdout).toMatch(new RegExp(`^\\| ${sessionName} \\| \\d+ \\| \\d+ \\|.* \\| 100\\.0% \\|`, 'm'));
  });

  it('eval --json: a line per session and model, then one per model with the sums', async () => {
    const { code, stdout } = await cli(['eval', home, '--with', 'builtin/autopilot', 'builtin/random', '--json']);
    expect(code).toBe(0);
    const events = lines(stdout);
    for (const model of ['builtin/autopilot', 'builtin/random']) {
      const summary = events.find((event) => event.type === 'eval' && event.model === model);
      expect(summary).toBeDefined();
      const index = events.indexOf(summary!);
      const runs = events.slice(0, index).filter((event) => event.type !== 'eval' && event.model === model);
      expect(runs.length).toBe(summary!.sessions);
      expect(summary!.sessions).toBeGreaterThan(0);
      expect(summary!.decisions).toBe(runs.reduce((sum, run) => sum + run.decisions, 0));
      expect(summary!.decisions).toBeGreaterThan(0);
    }
    expect(events.at(-1)).toMatchObject({ type: 'eval', model: 'builtin/random' });
  });

  it('a session recorded before requests were kept is refused with exit 2 and what to do', async () => {
    const db = new Database(join(home, 'skipper.db'));
    db.prepare(
      `INSERT INTO sessions (id, name, game, model, created_at, updated_at) VALUES ('old-id', 'old-run', 'embedded', 'builtin/autopilot', 1, 1)`,
    ).run();
    db.close();
    const { code, stderr } = await cli(['replay', 'old-run', '--with', 'builtin/random']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/no recorded model requests.*-s old-run/s);
  });

  it('leaves every row of the original session byte-identical (runs after all the replays above)', () => {
    expect(before.length).toBeGreaterThan(1000);
    expect(sessionRows()).toBe(before);
  });
});

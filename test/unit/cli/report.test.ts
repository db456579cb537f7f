// `skipper report` data assembly from a store filled by hand: points (first dashboard + snapshots), actions per tick,
// utilisation from the ticks each action took (one, or what travel says), errors by code (structured, "code: message", loop errors), tokens, cost, USD per
// 1,000 credits; and the text report around it.
import { afterEach, describe, expect, it } from 'vitest';
import { exportOutcomeMarkdown } from '../../../internal/cli/export-outcome.js';
import { buildReport, errorCodeOf, formatReport, reportJson } from '../../../internal/cli/report.js';
import { openStore, type Store } from '../../../internal/store/index.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

const dashboard = (tick: number, credits: number, cargo: Array<{ item_id: string; quantity: number }> = []) => ({
  player: { username: 'nova', credits },
  ship: { fuel: 90, max_fuel: 100, cargo_used: 0, cargo_capacity: 70, hull: 100, max_hull: 100 },
  location: { system_id: 'sol', poi_id: 'sol_belt', docked: false },
  cargo,
  tick,
});

async function fill(): Promise<{ store: Store; name: string }> {
  const s = await openStore({ path: ':memory:' });
  const session = await s.createSession({ name: 'report-test', game: 'embedded', model: 'openai/x', goal: 'get rich' });
  let call = 0;
  const tool = async (turn: number, toolName: string, content: string, data?: unknown, isError = false) => {
    call += 1;
    await s.append(session.id, {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: `c${call}`, name: toolName, arguments: '{}' }],
      turn,
    });
    await s.append(session.id, {
      role: 'tool',
      content,
      toolCallId: `c${call}`,
      toolName,
      isError,
      ...(data ? { data } : {}),
      turn,
    });
  };
  await s.append(session.id, { role: 'user', content: 'Autoplay turn 1.', turn: 1 });
  await tool(1, 'get_status', 'status', dashboard(10, 150));
  await tool(1, 'mine', 'mined 5 iron', dashboard(11, 150, [{ item_id: 'iron_ore', quantity: 5 }])); // busy 1
  await tool(1, 'mine', 'no_cargo_space: cargo is full', { error: { code: 'no_cargo_space', message: 'full' } }, true);
  await s.recordSnapshot({
    sessionId: session.id,
    turn: 1,
    tick: 11,
    credits: 150,
    netWorth: 190,
    fuel: 90,
    maxFuel: 100,
    cargoUsed: 5,
    cargoCapacity: 70,
    hull: 100,
    maxHull: 100,
    systemId: 'sol',
    poiId: 'sol_belt',
    docked: false,
  });
  await s.append(session.id, { role: 'user', content: 'Autoplay turn 2.', turn: 2 });
  // The game layer reads "after 3 tick(s)" from the travel text into details.ticks: busy 3.
  await tool(2, 'travel', 'Arrived at Sol Station (sol_station) after 3 tick(s).', {
    ...dashboard(14, 150, [{ item_id: 'iron_ore', quantity: 5 }]),
    details: { ticks: 3 },
  });
  await tool(2, 'get_map', 'unknown tool "get_mapp"; available tools: …', undefined, true);
  await tool(
    2,
    'sell',
    'sell: arguments are not valid JSON: Unexpected token; send an object like {"name": "value"}',
    undefined,
    true,
  );
  await tool(2, 'dock', 'not_docked: you are not docked', undefined, true);
  await tool(2, 'chat', 'said hello', dashboard(14, 150)); // free action: no tick, not an action
  await tool(2, 'get_status', 'status', dashboard(20, 450)); // 6 idle ticks: a query ends them
  await tool(2, 'sell', 'sold 5 iron for 300', dashboard(21, 450)); // busy 1
  await s.recordSnapshot({
    sessionId: session.id,
    turn: 2,
    tick: 21,
    credits: 450,
    netWorth: 450,
    fuel: 90,
    maxFuel: 100,
    cargoUsed: 0,
    cargoCapacity: 70,
    hull: 100,
    maxHull: 100,
    systemId: 'sol',
    poiId: 'sol_station',
    docked: true,
  });
  await s.recordTurn({
    sessionId: session.id,
    turn: 1,
    outcome: 'answered',
    rounds: 3,
    toolCalls: 3,
    startedAt: 1,
    endedAt: 2,
    inputKind: 'autoplay',
  });
  await s.recordTurn({
    sessionId: session.id,
    turn: 2,
    outcome: 'answered',
    rounds: 7,
    toolCalls: 7,
    startedAt: 3,
    endedAt: 4,
    inputKind: 'autoplay',
  });
  await s.recordUsage({
    sessionId: session.id,
    turn: 1,
    round: 1,
    model: 'openai/x',
    usage: { promptTokens: 1000, completionTokens: 100, cachedTokens: 0, costUsd: 0.06 },
  });
  await s.recordUsage({
    sessionId: session.id,
    turn: 2,
    round: 1,
    model: 'openai/x',
    usage: { promptTokens: 2000, completionTokens: 200, cachedTokens: 500, costUsd: 0.09 },
  });
  return { store: s, name: session.name };
}

describe('buildReport', () => {
  it('assembles points, actions, utilisation, errors by code, tokens and cost from the store', async () => {
    const filled = await fill();
    store = filled.store;
    const report = await buildReport(filled.store, filled.name);
    expect(report.points).toEqual([
      { turn: 0, tick: 10, credits: 150, netWorth: 150 },
      { turn: 1, tick: 11, credits: 150, netWorth: 190 },
      { turn: 2, tick: 21, credits: 450, netWorth: 450 },
    ]);
    expect(report.turns).toBe(2);
    expect(report.ticks).toBe(11);
    expect(report.netWorthChange).toBe(300);
    expect(report.creditsChange).toBe(300);
    expect(report.toolCalls).toBe(10);
    expect(report.failedCalls).toBe(4);
    expect(report.actions).toBe(3); // mine, travel, sell (chat is free, get_* are queries)
    expect(report.actionsPerTick).toBeCloseTo(3 / 11, 10);
    expect(report.actionTicks).toBe(5); // 1 (mine) + 3 (travel) + 1 (sell); the 6 idle ticks before the sell are not busy
    expect(report.tickUtilisation).toBeCloseTo(5 / 11, 10);
    expect(report.utilisationSource).toBe('estimated');
    expect(report.errorsByCode).toEqual({ no_cargo_space: 1, unknown_tool: 1, invalid_arguments: 1, not_docked: 1 });
    expect(report.usage.promptTokens).toBe(3000);
    expect(report.usage.costUsd).toBeCloseTo(0.15, 10);
    expect(report.usdPer1000Credits).toBeCloseTo(0.5, 10);
  });

  it('prints the plots and figures within the width', async () => {
    const filled = await fill();
    store = filled.store;
    const lines = formatReport(await buildReport(filled.store, filled.name), {
      width: 60,
      color: false,
      plotHeight: 4,
    });
    const text = lines.join('\n');
    expect(text).toContain('Net worth  150 → 450 (+300) (+2,727 per 100 ticks)');
    expect(text).toContain('Credits  150 → 450 (+300)');
    expect(text).toContain('Errors       invalid_arguments 1, no_cargo_space 1, not_docked 1, unknown_tool 1');
    expect(text).toContain('USD per 1,000 credits gained: $0.50');
    expect(text).toContain('Actions      3 (0.27 per tick)');
    expect(text).toContain(
      'Utilisation  45% (estimated by Skipper: ticks its actions took ÷ ticks elapsed; the game did not report busy ticks)',
    );
    expect(text).toMatch(/[\u2801-\u28ff]/);
    for (const line of lines.filter((l) => /[┤│└]/.test(l))) expect([...line].length).toBeLessThanOrEqual(60);
  });

  it('says "price unknown" for a model without a known price, never $0', async () => {
    store = await openStore({ path: ':memory:' });
    const session = await store.createSession({ name: 'unpriced', game: 'embedded', model: 'custom/test-model' });
    const usage = { promptTokens: 900, completionTokens: 100, cachedTokens: 0, costUsd: 0 };
    await store.recordUsage({ sessionId: session.id, model: 'custom/test-model', usage });
    const text = formatReport(await buildReport(store, session.name), { width: 80, color: false }).join('\n');
    expect(text).toContain('Cost         price unknown');
    expect(text).not.toContain('$0');
    // Without a price there is no USD per 1,000 credits (null, not 0).
    expect(reportJson(await buildReport(store, session.name))).toMatchObject({
      cost_usd: 0,
      usd_per_1k_credits: null,
    });
    expect(await exportOutcomeMarkdown(store, session.name)).toContain('- cost: price unknown (1.0k tokens)');
  });

  it('clips the header to a terminal width, and nothing on a pipe (no width)', async () => {
    store = await openStore({ path: ':memory:' });
    const goal = 'mine iron in the belt, sell it at the nearest station and keep going until the hold is full';
    const session = await store.createSession({ name: 'long', game: 'embedded', model: 'builtin/autopilot', goal });
    const report = await buildReport(store, session.name);
    const terminal = formatReport(report, { width: 60, color: false });
    expect(terminal[1]).toMatch(/…$/);
    expect([...terminal[1]!].length).toBeLessThanOrEqual(60);
    const piped = formatReport(report, { width: undefined, color: false });
    // No game state: the ticks are unknown, said as in the summary (never a made-up 0).
    expect(piped[1]).toBe(
      `model builtin/autopilot · game embedded · 0 turns · ticks unknown (no game state recorded) · goal: ${goal}`,
    );
  });

  it('says so when a session has no dashboard, and n/a for USD per 1,000 credits without gain', async () => {
    store = await openStore({ path: ':memory:' });
    const session = await store.createSession({ name: 'empty', game: 'embedded', model: 'builtin/random' });
    const report = await buildReport(store, session.name);
    expect(report.points).toEqual([]);
    expect(report.usdPer1000Credits).toBeNull();
    const text = formatReport(report, { width: 80, color: false }).join('\n');
    expect(text).toContain('nothing to plot');
    expect(text).toContain('n/a (no net-worth gain)');
    // --json says null, as `sessions --json` does, where nothing was recorded to measure.
    expect(reportJson(report)).toMatchObject({ ticks: null, credits_change: null, net_worth_end: null, tokens: 0 });
  });

  it('--json writes the shared snake_case names, the figures measured between the first and the last point', async () => {
    const filled = await fill();
    store = filled.store;
    const json = reportJson(await buildReport(filled.store, filled.name));
    expect(json).toMatchObject({
      name: 'report-test',
      turns: 2,
      ticks: 11,
      credits_start: 150,
      credits_end: 450,
      credits_change: 300,
      net_worth_start: 150,
      net_worth_end: 450,
      net_worth_change: 300,
      tool_calls: 10,
      failed_calls: 4,
      actions: 3,
      errors_by_code: { no_cargo_space: 1, unknown_tool: 1, invalid_arguments: 1, not_docked: 1 },
      prompt_tokens: 3000,
      usd_per_1k_credits: 0.5,
    });
    expect(json.credits_per_1k_tokens).toBeCloseTo((300 / (json.tokens as number)) * 1000, 10);
    expect(json.points).toEqual([
      { turn: 0, tick: 10, credits: 150, net_worth: 150 },
      { turn: 1, tick: 11, credits: 150, net_worth: 190 },
      { turn: 2, tick: 21, credits: 450, net_worth: 450 },
    ]);
  });

  it('counts busy ticks over the span the ticks are measured on, not the actions before the first known tick', async () => {
    // SpaceMolt-style results carry no tick: the first point is turn 1's snapshot, so turn 1's actions happened before
    // it. Counting them too made 5 + 1 + 3 = 9 busy ticks in 8 and, capped, read 100%.
    store = await openStore({ path: ':memory:' });
    const session = await store.createSession({ name: 'span', game: 'spacemolt', model: 'openai/x' });
    const s = store;
    let id = 0;
    const tool = async (
      turn: number,
      name: string,
      args: Record<string, unknown>,
      content: string,
      data?: unknown,
    ): Promise<void> => {
      id += 1;
      await s.append(session.id, {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `c${id}`, name, arguments: JSON.stringify(args) }],
        turn,
      });
      await s.append(session.id, {
        role: 'tool',
        content,
        toolCallId: `c${id}`,
        toolName: name,
        ...(data ? { data } : {}),
        turn,
      });
    };
    const snapshot = (turn: number, tick: number): Promise<void> =>
      s.recordSnapshot({
        sessionId: session.id,
        turn,
        tick,
        credits: 100,
        netWorth: 100,
        fuel: 90,
        maxFuel: 100,
        cargoUsed: 0,
        cargoCapacity: 70,
        hull: 100,
        maxHull: 100,
        systemId: 'sol',
        poiId: 'sol_belt',
        docked: false,
      });
    await tool(1, 'spacemolt', { action: 'travel', id: 'sol_belt' }, 'Arrived at Sol Belt after 5 tick(s).', {
      details: { ticks: 5 },
    });
    await tool(1, 'spacemolt', { action: 'mine' }, 'Mined 5 iron.');
    await snapshot(1, 6);
    for (let i = 0; i < 3; i += 1) await tool(2, 'spacemolt', { action: 'mine' }, 'Mined 5 iron.');
    await snapshot(2, 10);
    await tool(3, 'spacemolt', { action: 'get_status' }, 'Sol Belt, 15 iron in the hold.'); // a query: no tick, not an action
    await snapshot(3, 14);
    const report = await buildReport(store, 'span');
    expect(report.ticks).toBe(8);
    expect(report.actions).toBe(5); // every successful mutation of the session
    expect(report.actionTicks).toBe(3); // the three mines of turn 2, inside ticks 6 → 14
    expect(report.actionsPerTick).toBeCloseTo(3 / 8, 10);
    expect(report.tickUtilisation).toBeCloseTo(3 / 8, 10);
    expect(report.utilisationSource).toBe('estimated');
  });

  it("classifies each stored call as the game layer does: the recorded tool list, the result's op, then the catalogue", async () => {
    store = await openStore({ path: ':memory:' });
    const session = await store.createSession({ name: 'kinds', game: 'other', model: 'openai/x' });
    const s = store;
    // The session's requests recorded its tool list: `survey` reads (the server said so), whatever its name suggests.
    await s.requests.record({
      sessionId: session.id,
      turn: 1,
      round: 1,
      attempt: 1,
      model: 'openai/x',
      messages: [],
      outcome: 'reply',
      tools: JSON.stringify([
        {
          name: 'survey',
          description: '',
          inputSchema: { type: 'object', properties: {} },
          readOnly: true,
          kind: 'query',
        },
      ]),
    });
    let id = 0;
    const tool = async (name: string, args: Record<string, unknown>, data?: unknown): Promise<void> => {
      id += 1;
      await s.append(session.id, {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `c${id}`, name, arguments: JSON.stringify(args) }],
        turn: 1,
      });
      await s.append(session.id, {
        role: 'tool',
        content: 'ok',
        toolCallId: `c${id}`,
        toolName: name,
        ...(data ? { data } : {}),
        turn: 1,
      });
    };
    await tool('survey', {}); // recorded list: query
    await tool('spacemolt', { action: 'get_status' }); // grouped, catalogue: query (a name rule on `spacemolt` said action)
    await tool('spacemolt', { action: 'mine' }); // grouped, catalogue: mutation
    await tool('spacemolt_social', { action: 'chat' }, { op: 'chat' }); // the op the game layer read: free
    await tool('captains_log_add', { text: 'x' }); // catalogue: free
    await tool('harvest', {}); // nobody knows it: the game layer's name rule, a mutation
    expect((await buildReport(store, 'kinds')).actions).toBe(2);
  });

  it('errorCodeOf reads structured codes, "code:" prefixes, and never mistakes a tool name for a code', () => {
    expect(errorCodeOf({ content: 'x', data: { error: { code: 'in_transit' } }, toolName: 'mine' })).toBe('in_transit');
    expect(errorCodeOf({ content: 'no_fuel: tank empty', toolName: 'jump' })).toBe('no_fuel');
    expect(errorCodeOf({ content: 'jump: something odd', toolName: 'jump' })).toBe('error');
    expect(errorCodeOf({ content: 'unknown tool "fly"; available tools: …', toolName: 'fly' })).toBe('unknown_tool');
    expect(errorCodeOf({ content: 'cancelled: the turn was interrupted', toolName: 'mine' })).toBe('cancelled');
  });
});

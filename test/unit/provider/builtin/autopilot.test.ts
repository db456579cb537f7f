import { describe, expect, it } from 'vitest';
import { createAutopilotProvider } from '../../../../internal/provider/builtin/index.js';
import type { CompletionResponse, Provider, StreamDelta } from '../../../../internal/shared/index.js';
import { Conversation, MARKET, MUTATION_NAMES, TOOLS, dashboard, errorData, surveyed } from './conversation.js';

async function ask(provider: Provider, conversation: Conversation): Promise<CompletionResponse> {
  return provider.complete({ messages: structuredClone(conversation.messages), tools: TOOLS });
}

function args(response: CompletionResponse, index = 0): Record<string, unknown> {
  return JSON.parse(response.message.toolCalls[index]?.arguments ?? 'null') as Record<string, unknown>;
}

describe('builtin/autopilot decisions', () => {
  it('asks for status when it has never seen a dashboard, and registers on not_authenticated', async () => {
    const provider = createAutopilotProvider({ seed: 7 });
    const conversation = new Conversation().user();
    const first = await ask(provider, conversation);
    expect(first.message.toolCalls.map((c) => c.name)).toEqual(['get_status']);
    conversation.reply(first).answer(first.message.toolCalls[0]!.id, 'get_status', errorData('not_authenticated'));
    const second = await ask(provider, conversation);
    expect(second.message.toolCalls.map((c) => c.name)).toEqual(['register']);
    const registered = args(second);
    expect(registered.username).toMatch(/^captain_[0-9a-f]{6}$/);
    expect(registered.empire).toBe('solarian');
    expect(JSON.stringify(second.message)).not.toContain('password');

    conversation.reply(second).answer(second.message.toolCalls[0]!.id, 'register', errorData('username_taken'));
    const third = await ask(provider, conversation);
    expect(third.message.toolCalls[0]?.name).toBe('register');
    expect(args(third).username).not.toBe(registered.username);

    conversation.reply(third).answer(third.message.toolCalls[0]!.id, 'register',
      { details: { player_id: 'p1', password: '[saved]', message: 'welcome' } });
    const fourth = await ask(provider, conversation);
    expect(fourth.message.toolCalls.map((c) => c.name)).toEqual(['get_status']);
  });

  it('uses the empire and username it is given', async () => {
    const provider = createAutopilotProvider({ seed: 1, username: 'nova', empire: 'nebula' });
    const conversation = new Conversation().user().result('get_status', errorData('not_authenticated'));
    const response = await ask(provider, conversation);
    expect(args(response)).toEqual({ username: 'nova', empire: 'nebula' });
  });

  it('surveys what it does not know with parallel queries, then stops asking', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = new Conversation().user().result('get_status', dashboard({ docked: true }));
    const response = await ask(provider, conversation);
    const names = response.message.toolCalls.map((c) => c.name);
    expect(names).toContain('get_map');
    expect(names).toContain('get_system');
    expect(names).toContain('view_market');
    expect(response.message.toolCalls.every((c) => TOOLS.find((t) => t.name === c.name)?.readOnly)).toBe(true);

    const known = surveyed();
    const next = await ask(createAutopilotProvider({ seed: 1 }), known);
    expect(next.message.toolCalls).toHaveLength(1);
    expect(MUTATION_NAMES.has(next.message.toolCalls[0]!.name)).toBe(true);
  });

  it('sells a full hold when docked at a station', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed().result('dock', dashboard({ docked: true, cargo: [{ item_id: 'iron_ore', quantity: 70 }] }));
    const response = await ask(provider, conversation);
    expect(response.message.toolCalls.map((c) => c.name)).toEqual(['sell']);
    expect(args(response)).toEqual({ item_id: 'iron_ore', quantity: 70 });
  });

  it('refuels when docked with an empty hold and a low tank', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed().result('sell', dashboard({ docked: true, fuel: 20 }));
    const response = await ask(provider, conversation);
    expect(response.message.toolCalls.map((c) => c.name)).toEqual(['refuel']);
  });

  it('repairs a damaged hull when docked and it can pay', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed().result('dock', dashboard({ docked: true, hull: 40, credits: 500 }));
    const response = await ask(provider, conversation);
    expect(response.message.toolCalls.map((c) => c.name)).toEqual(['repair']);
  });

  it('goes mining from the station, then mines the best resource at the belt, then hauls a full hold back', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed();
    const out = await ask(provider, conversation);
    expect(out.message.toolCalls[0]?.name).toBe('travel');
    expect(args(out)).toEqual({ target_poi: 'sol_belt' });
    conversation.reply(out).answer(out.message.toolCalls[0]!.id, 'travel', dashboard({ poi: 'sol_belt' }));
    const mine = await ask(provider, conversation);
    expect(mine.message.toolCalls[0]?.name).toBe('mine');
    // iron: yield 6 × bid 9 = 54 beats copper: yield 5 × bid 14 = 70? copper wins.
    expect(args(mine)).toEqual({ resource_id: 'copper_ore' });
    conversation.reply(mine).answer(mine.message.toolCalls[0]!.id, 'mine', {
      ...dashboard({ poi: 'sol_belt', cargo: [{ item_id: 'copper_ore', quantity: 70 }] }),
      details: { resource_id: 'copper_ore', quantity: 5, deposit_remaining: 400, xp_gained: 5 },
    });
    const back = await ask(provider, conversation);
    expect(back.message.toolCalls[0]?.name).toBe('travel');
    expect(args(back)).toEqual({ target_poi: 'sol_central' });
  });

  it('leaves a lawless system when the hull is low', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed().result('mine', {
      ...dashboard({ system: 'wilds', poi: 'wilds_belt', police: 25, hull: 30, cargo: [{ item_id: 'iron_ore', quantity: 10 }] }),
      details: { resource_id: 'iron_ore', quantity: 5, deposit_remaining: 100, xp_gained: 5 },
    });
    const response = await ask(provider, conversation);
    expect(response.message.toolCalls.map((c) => c.name)).toEqual(['jump']);
    expect(args(response)).toEqual({ target_system: 'sol' });
  });

  it('ends the turn with a one-line summary after a handful of mutations, with unique call ids', async () => {
    const provider = createAutopilotProvider({ seed: 3 });
    const conversation = surveyed();
    const deltas: StreamDelta[] = [];
    const ids = new Set<string>();
    let cargo = 0;
    let final: CompletionResponse | undefined;
    for (let round = 0; round < 20; round += 1) {
      const response = await provider.complete({ messages: structuredClone(conversation.messages), tools: TOOLS,
        onDelta: (d) => deltas.push(d) });
      expect(response.message.content).not.toContain('\n');
      expect(response.message.content.length).toBeGreaterThan(0);
      conversation.reply(response);
      if (response.message.toolCalls.length === 0) {
        final = response;
        break;
      }
      for (const call of response.message.toolCalls) {
        expect(call.id).toMatch(/^call_/);
        expect(ids.has(call.id)).toBe(false);
        ids.add(call.id);
        cargo = call.name === 'mine' ? cargo + 5 : cargo;
        conversation.answer(call.id, call.name, {
          ...dashboard({ poi: 'sol_belt', cargo: cargo ? [{ item_id: 'copper_ore', quantity: cargo }] : [], tick: 10 + round }),
          details: call.name === 'mine' ? { resource_id: 'copper_ore', quantity: 5, deposit_remaining: 400, xp_gained: 5 } : {},
        });
      }
    }
    expect(final?.finishReason).toBe('stop');
    expect(final?.message.content).toMatch(/^Travelled to sol_belt; mined 20 copper_ore\./);
    expect(deltas.filter((d) => d.kind === 'text')).toHaveLength(ids.size + 1);
  });

  it('ends the turn on rate_limited and action_pending instead of retrying', async () => {
    for (const code of ['rate_limited', 'action_pending']) {
      const provider = createAutopilotProvider({ seed: 1 });
      const conversation = surveyed().result('travel', errorData(code), { args: { target_poi: 'sol_belt' } });
      const response = await ask(provider, conversation);
      expect(response.message.toolCalls).toEqual([]);
      expect(response.finishReason).toBe('stop');
    }
  });

  it('keeps what it learned when older results come back as stubs without data', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed();
    await ask(provider, conversation);
    const stubbed = structuredClone(conversation.messages).map((m) =>
      m.role === 'tool' ? { ...m, content: `[${m.toolName} result omitted]`, data: undefined } : m);
    stubbed.push({ id: 'later', role: 'user', content: 'Autoplay turn 2.', createdAt: 99 });
    stubbed.push({ id: 'later-a', role: 'assistant', content: '', createdAt: 99,
      toolCalls: [{ id: 'call_x', name: 'dock', arguments: '{}' }] });
    stubbed.push({ id: 'later-t', role: 'tool', content: 'ok', toolCallId: 'call_x', toolName: 'dock', createdAt: 99,
      data: dashboard({ docked: true, cargo: [{ item_id: 'copper_ore', quantity: 30 }], tick: 50 }) });
    const response = await provider.complete({ messages: stubbed, tools: TOOLS });
    expect(response.message.toolCalls.map((c) => c.name)).toEqual(['sell']);
  });

  it('is deterministic given its seed', async () => {
    const run = async (): Promise<string> => {
      const provider = createAutopilotProvider({ seed: 42 });
      const conversation = new Conversation().user().result('get_status', errorData('not_authenticated'));
      const response = await ask(provider, conversation);
      return JSON.stringify(response.message);
    };
    expect(await run()).toBe(await run());
  });
});

describe('builtin/autopilot edge cases', () => {
  it('looks at the neighbours when its system has nothing to mine, then jumps to the work', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const barren = { details: { system: { id: 'sol', name: 'Sol', empire: 'solarian', police_level: 100,
      pois: [{ id: 'sol_central', name: 'Sol Central', type: 'station', has_base: true, position: { x: 0, y: 0 } }],
      connections: [{ system_id: 'ore', name: 'Ore', distance: 10, police_level: 75 }] } } };
    const conversation = new Conversation().user()
      .result('get_map', { ...dashboard({ docked: true }), details: { systems: [
        { id: 'sol', name: 'Sol', empire: 'solarian', police_level: 100, has_station: true, connections: ['ore'] },
        { id: 'ore', name: 'Ore', empire: null, police_level: 75, has_station: true, connections: ['sol'] }] } })
      .result('get_system', { ...dashboard({ docked: true }), ...barren }, { args: { system_id: 'sol' } })
      .result('view_market', { ...dashboard({ docked: true }), ...MARKET });
    const look = await ask(provider, conversation);
    expect(look.message.toolCalls.map((c) => [c.name, args(look).system_id])).toEqual([['get_system', 'ore']]);
    conversation.reply(look).answer(look.message.toolCalls[0]!.id, 'get_system', { ...dashboard({ docked: true }),
      details: { system: { id: 'ore', name: 'Ore', empire: null, police_level: 75, connections: [
        { system_id: 'sol', name: 'Sol', distance: 10, police_level: 100 }], pois: [
        { id: 'ore_station', name: 'Ore Station', type: 'station', has_base: true, position: { x: 0, y: 0 } },
        { id: 'ore_belt', name: 'Ore Belt', type: 'asteroid_belt', has_base: false, position: { x: 1, y: 1 } }] } } });
    const deposits = await ask(provider, conversation);
    expect(deposits.message.toolCalls.map((c) => [c.name, args(deposits).poi_id])).toEqual([['get_poi', 'ore_belt']]);
    conversation.reply(deposits).answer(deposits.message.toolCalls[0]!.id, 'get_poi', { ...dashboard({ docked: true }),
      details: { poi: { id: 'ore_belt', name: 'Ore Belt', type: 'asteroid_belt', has_base: false, position: { x: 1, y: 1 },
        system_id: 'ore', resources: [{ resource_id: 'titanium_ore', richness: 8, remaining: 900, max: 1000 }] } } });
    const go = await ask(provider, conversation);
    expect(go.message.toolCalls.map((c) => c.name)).toEqual(['jump']);
    expect(args(go)).toEqual({ target_system: 'ore' });
  });

  it('flees to the station of a lawless system when the hull is low, and docks there', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const lawless = { details: { system: { id: 'wilds', name: 'Wilds', empire: null, police_level: 0, connections: [],
      pois: [{ id: 'wilds_belt', name: 'Wilds Belt', type: 'asteroid_belt', has_base: false, position: { x: 0, y: 0 } },
        { id: 'wilds_port', name: 'Wilds Port', type: 'station', has_base: true, position: { x: 3, y: 0 } }] } } };
    const here = { system: 'wilds', poi: 'wilds_belt', police: 0, hull: 35 };
    const conversation = surveyed().result('get_system', { ...dashboard(here), ...lawless }, { args: { system_id: 'wilds' } });
    const flee = await ask(provider, conversation);
    expect(flee.message.toolCalls.map((c) => c.name)).toEqual(['travel']);
    expect(args(flee)).toEqual({ target_poi: 'wilds_port' });
    conversation.reply(flee).answer(flee.message.toolCalls[0]!.id, 'travel', dashboard({ ...here, poi: 'wilds_port' }));
    const dock = await ask(provider, conversation);
    expect(dock.message.toolCalls.map((c) => c.name)).toEqual(['dock']);
  });

  it('ends the turn when the ship is in transit', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const moving = dashboard({ poi: 'sol_belt' });
    moving.location = { ...moving.location, in_transit: true, poi_id: null, ticks_remaining: 3 };
    const response = await ask(provider, surveyed().result('get_status', moving));
    expect(response.message.toolCalls).toEqual([]);
    expect(response.message.content).toContain('3 ticks');
  });

  it('does not retry a refuel the game refused for lack of credits', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed().result('sell', dashboard({ docked: true, fuel: 20, credits: 2 }))
      .result('refuel', errorData('no_credits'));
    const response = await ask(provider, conversation);
    expect(response.message.toolCalls.map((c) => c.name)).toEqual(['travel']);
  });
});

describe('builtin/autopilot survey', () => {
  it('with work at home, still looks at lawful stations nearby once, and never at lawless ones', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed().result('get_map', { ...dashboard({ docked: true }), details: { systems: [
      { id: 'sol', name: 'Sol', empire: 'solarian', police_level: 100, has_station: true, connections: ['wilds', 'port'] },
      { id: 'wilds', name: 'Wilds', empire: null, police_level: 25, has_station: true, connections: ['sol'] },
      { id: 'port', name: 'Port', empire: null, police_level: 75, has_station: true, connections: ['sol'] }] } });
    const look = await ask(provider, conversation);
    expect(look.message.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['get_system', { system_id: 'port' }]]);
    conversation.reply(look).answer(look.message.toolCalls[0]!.id, 'get_system', { ...dashboard({ docked: true }),
      details: { system: { id: 'port', name: 'Port', empire: null, police_level: 75, connections: [], pois: [
        { id: 'port_station', name: 'Port Station', type: 'station', has_base: true, position: { x: 0, y: 0 } }] } } });
    const work = await ask(provider, conversation);
    expect(work.message.toolCalls.map((c) => c.name)).toEqual(['travel']);
  });
});

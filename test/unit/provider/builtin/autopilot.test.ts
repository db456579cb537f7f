import { describe, expect, it } from 'vitest';
import { createAutopilotProvider } from '../../../../internal/provider/builtin/index.js';
import type { CompletionResponse, Provider, StreamDelta } from '../../../../internal/shared/index.js';
import type { FaceId } from '../../../../internal/spacemolt/index.js';
import { FatalError } from '../../../../internal/shared/index.js';
import { OP_KINDS, toFaceCall } from '../../../../internal/spacemolt/index.js';
import {
  Conversation,
  MARKET,
  SOL_BELT,
  SOL_SYSTEM,
  WILDS_SYSTEM,
  argsOf,
  dashboard,
  errorData,
  opsOf,
  surveyed,
  toolsFor,
} from './conversation.js';

describe.each(['v1', 'v2'] as FaceId[])('builtin/autopilot decisions on %s', (face) => {
  const tools = toolsFor(face);
  const ask = (provider: Provider, conversation: Conversation): Promise<CompletionResponse> =>
    provider.complete({ messages: structuredClone(conversation.messages), tools });

  it('asks for status when it has never seen one, registers on not_authenticated, then asks for status again', async () => {
    const provider = createAutopilotProvider({ seed: 7 });
    const conversation = new Conversation(face).user();
    const first = await ask(provider, conversation);
    expect(opsOf(first)).toEqual(['get_status']);
    conversation.reply(first).answerCall(first.message.toolCalls[0]!, errorData('not_authenticated'));
    const second = await ask(provider, conversation);
    expect(opsOf(second)).toEqual(['register']);
    const registered = argsOf(second);
    expect(registered.username).toMatch(/^captain_[0-9a-f]{6}$/);
    expect(registered).toEqual({ username: registered.username, empire: 'solarian' });
    expect(JSON.stringify(second.message)).not.toContain('password');

    conversation.reply(second).answerCall(second.message.toolCalls[0]!, {
      details: { player_id: 'p1', password: '[saved]', message: 'welcome' },
    });
    const third = await ask(provider, conversation);
    expect(opsOf(third)).toEqual(['get_status']);
  });

  it("never registers twice: a refused register ends the run with the game's words and the flag to pass", async () => {
    const provider = createAutopilotProvider({ seed: 7 });
    const conversation = new Conversation(face).user().result('get_status', errorData('not_authenticated'));
    const first = await ask(provider, conversation);
    expect(opsOf(first)).toEqual(['register']);
    const words =
      'registration_code_missing: a registration code is required: pass --registration-code <code> (from spacemolt.com)';
    conversation.reply(first).answerCall(first.message.toolCalls[0]!, errorData('registration_code_missing', words), {
      text: `Error: ${words}`,
    });
    // Logged out for good: the run stops (a fatal error the CLI prints) instead of idling or registering again.
    for (let turn = 0; turn < 2; turn += 1) {
      const later = ask(provider, conversation);
      await expect(later).rejects.toThrow(FatalError);
      await expect(later).rejects.toThrow(/registration_code_missing.*--registration-code/);
      conversation.user(`Autoplay turn ${turn + 2}.`).result('get_status', errorData('not_authenticated'));
    }
  });

  it('waits out a rate-limited register and tries once more next turn', async () => {
    const provider = createAutopilotProvider({ seed: 7 });
    const conversation = new Conversation(face)
      .user()
      .result('get_status', errorData('not_authenticated'))
      .result('register', errorData('rate_limited', 'try again in 12 seconds'), {
        args: { username: 'x', empire: 'solarian' },
      });
    const wait = await ask(provider, conversation);
    expect(wait.message.toolCalls).toEqual([]);
    conversation.reply(wait).user('Autoplay turn 2.');
    expect(opsOf(await ask(provider, conversation))).toEqual(['register']);
  });

  it('needs no register when the game layer logged in at start', async () => {
    const provider = createAutopilotProvider({ seed: 7 });
    const conversation = new Conversation(face)
      .user()
      .result('login', dashboard({ docked: true }), { args: { username: 'nova' } });
    expect(opsOf(await ask(provider, conversation))).not.toContain('register');
  });

  it('uses the empire and username it is given', async () => {
    const provider = createAutopilotProvider({ seed: 1, username: 'nova', empire: 'nebula' });
    const conversation = new Conversation(face).user().result('get_status', errorData('not_authenticated'));
    expect(argsOf(await ask(provider, conversation))).toEqual({ username: 'nova', empire: 'nebula' });
  });

  it('surveys where it is with parallel queries (no ids: the game describes only the current place), then acts', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const response = await ask(
      provider,
      new Conversation(face).user().result('get_status', dashboard({ docked: true })),
    );
    expect(opsOf(response).sort()).toEqual(['get_map', 'get_system', 'view_market']);
    expect(opsOf(response).every((op) => OP_KINDS[op] === 'query')).toBe(true);
    expect(
      response.message.toolCalls.map((c) => argsOf({ message: { toolCalls: [c] } } as CompletionResponse)),
    ).toEqual([{}, {}, {}]);

    const next = await ask(createAutopilotProvider({ seed: 1 }), surveyed(face));
    expect(next.message.toolCalls).toHaveLength(1);
    expect(OP_KINDS[opsOf(next)[0]!]).toBe('mutation');
  });

  it('sells a full hold when docked at a station', async () => {
    const conversation = surveyed(face).result(
      'dock',
      dashboard({ docked: true, cargo: [{ item_id: 'iron_ore', quantity: 70 }] }),
    );
    const response = await ask(createAutopilotProvider({ seed: 1 }), conversation);
    expect(opsOf(response)).toEqual(['sell']);
    expect(argsOf(response)).toEqual({ item_id: 'iron_ore', quantity: 70 });
  });

  it('refuels when docked with an empty hold and a low tank; repairs a damaged hull it can pay for', async () => {
    const refuel = await ask(
      createAutopilotProvider({ seed: 1 }),
      surveyed(face).result('sell', dashboard({ docked: true, fuel: 20 })),
    );
    expect(opsOf(refuel)).toEqual(['refuel']);
    const repair = await ask(
      createAutopilotProvider({ seed: 1 }),
      surveyed(face).result('dock', dashboard({ docked: true, hull: 40, credits: 500 })),
    );
    expect(opsOf(repair)).toEqual(['repair']);
  });

  it('goes mining from the station, mines (the best resource in mind) at the belt, then hauls a full hold back', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed(face);
    const out = await ask(provider, conversation);
    expect(opsOf(out)).toEqual(['travel']);
    expect(argsOf(out)).toEqual({ target: 'sol_belt' });
    conversation.reply(out).answerCall(out.message.toolCalls[0]!, dashboard({ poi: 'sol_belt' }));
    const mine = await ask(provider, conversation);
    expect(opsOf(mine)).toEqual(['mine']);
    expect(argsOf(mine)).toEqual({});
    // iron: yield 6 × bid 9 = 54 against copper: yield 5 × bid 14 = 70: copper is what the trip is worth.
    expect(mine.message.content).toContain('copper_ore');
    conversation.reply(mine).answerCall(mine.message.toolCalls[0]!, {
      ...dashboard({ poi: 'sol_belt', cargo: [{ item_id: 'copper_ore', quantity: 70 }] }),
      details: { resource_id: 'copper_ore', quantity: 5, deposit_remaining: 400 },
    });
    const back = await ask(provider, conversation);
    expect(opsOf(back)).toEqual(['travel']);
    expect(argsOf(back)).toEqual({ target: 'sol_central' });
  });

  it('leaves a lawless system when the hull is low', async () => {
    const here = {
      system: 'wilds',
      poi: 'wilds_belt',
      police: 25,
      hull: 30,
      cargo: [{ item_id: 'iron_ore' as const, quantity: 10 }],
    };
    const conversation = surveyed(face)
      .result('mine', { ...dashboard(here), details: { resource_id: 'iron_ore', quantity: 5, deposit_remaining: 100 } })
      .result('get_system', WILDS_SYSTEM);
    const response = await ask(createAutopilotProvider({ seed: 1 }), conversation);
    expect(opsOf(response)).toEqual(['jump']);
    expect(argsOf(response)).toEqual({ target: 'sol' });
  });

  it('ends the turn with a one-line summary after a handful of actions, with unique call ids', async () => {
    const provider = createAutopilotProvider({ seed: 3 });
    const conversation = surveyed(face);
    const deltas: StreamDelta[] = [];
    const ids = new Set<string>();
    let cargo = 0;
    let final: CompletionResponse | undefined;
    for (let round = 0; round < 20; round += 1) {
      const response = await provider.complete({
        messages: structuredClone(conversation.messages),
        tools,
        onDelta: (d) => deltas.push(d),
      });
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
        const mined = opsOf({ message: { toolCalls: [call] } } as CompletionResponse)[0] === 'mine';
        cargo = mined ? cargo + 5 : cargo;
        conversation.answerCall(call, {
          ...dashboard({ poi: 'sol_belt', cargo: cargo ? [{ item_id: 'copper_ore', quantity: cargo }] : [] }),
          ...(mined ? { details: { resource_id: 'copper_ore', quantity: 5, deposit_remaining: 400 } } : {}),
        });
      }
    }
    expect(final?.finishReason).toBe('stop');
    expect(final?.message.content).toMatch(/^Travelled to sol_belt; mined 20 copper_ore\./);
    expect(deltas.filter((d) => d.type === 'text')).toHaveLength(ids.size + 1);
  });

  it('ends the turn on rate_limited and action_pending instead of retrying', async () => {
    for (const code of ['rate_limited', 'action_pending']) {
      const conversation = surveyed(face).result('travel', errorData(code), { args: { target: 'sol_belt' } });
      const response = await ask(createAutopilotProvider({ seed: 1 }), conversation);
      expect(response.message.toolCalls).toEqual([]);
      expect(response.finishReason).toBe('stop');
    }
  });

  it('reads a result by the call that asked for it when the observation names no op', async () => {
    const conversation = surveyed(face)
      .result('dock', dashboard({ docked: true, cargo: [{ item_id: 'iron_ore', quantity: 9 }] }), { withoutOp: true })
      .result(
        'view_market',
        { details: { ...MARKET.details, items: [{ item_id: 'iron_ore', base_price: 8, bid: 3, ask: 4 }] } },
        { withoutOp: true },
      );
    const response = await ask(createAutopilotProvider({ seed: 1 }), conversation);
    expect(opsOf(response)).toEqual(['sell']);
    expect(response.message.content).toContain('9 iron_ore');
  });

  it('keeps what it learned when older results come back as stubs without data', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed(face);
    await ask(provider, conversation);
    const stubbed = structuredClone(conversation.messages).map((m) =>
      m.role === 'tool' ? { ...m, content: `[${m.toolName} result omitted]`, data: undefined } : m,
    );
    const dock = toFaceCall(face, 'dock')!;
    stubbed.push({ id: 'later', role: 'user', content: 'Autoplay turn 2.', createdAt: 99 });
    stubbed.push({
      id: 'later-a',
      role: 'assistant',
      content: '',
      createdAt: 99,
      toolCalls: [{ id: 'call_x', name: dock.name, arguments: JSON.stringify(dock.args) }],
    });
    stubbed.push({
      id: 'later-t',
      role: 'tool',
      content: 'ok',
      toolCallId: 'call_x',
      toolName: dock.name,
      createdAt: 99,
      data: { op: 'dock', ...dashboard({ docked: true, cargo: [{ item_id: 'copper_ore', quantity: 30 }] }) },
    });
    expect(opsOf(await provider.complete({ messages: stubbed, tools }))).toEqual(['sell']);
  });

  it('is deterministic given its seed', async () => {
    const run = async (): Promise<string> => {
      const conversation = new Conversation(face).user().result('get_status', errorData('not_authenticated'));
      return JSON.stringify((await ask(createAutopilotProvider({ seed: 42 }), conversation)).message);
    };
    expect(await run()).toBe(await run());
  });
});

describe('builtin/autopilot edge cases', () => {
  const tools = toolsFor('v1');
  const ask = (provider: Provider, conversation: Conversation): Promise<CompletionResponse> =>
    provider.complete({ messages: structuredClone(conversation.messages), tools });

  it('with nothing to mine at home, jumps to the nearest station system to survey it there, then works it', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const barren = {
      details: {
        system: {
          id: 'sol',
          name: 'Sol',
          police_level: 100,
          pois: [{ id: 'sol_central', name: 'Sol Central', type: 'station', has_base: true, distance: 0 }],
          connections: [{ system_id: 'ore', name: 'Ore', distance: 10, police_level: 75 }],
        },
      },
    };
    const conversation = new Conversation()
      .user()
      .result('get_status', dashboard({ docked: true }))
      .result('get_map', {
        details: {
          systems: [
            { id: 'sol', name: 'Sol', police_level: 100, has_station: true, connections: ['ore'] },
            { id: 'ore', name: 'Ore', police_level: 75, has_station: true, connections: ['sol'] },
          ],
        },
      })
      .result('get_system', barren)
      .result('view_market', MARKET);
    const go = await ask(provider, conversation);
    expect(opsOf(go)).toEqual(['jump']);
    expect(argsOf(go)).toEqual({ target: 'ore' });
    conversation
      .reply(go)
      .answerCall(go.message.toolCalls[0]!, dashboard({ system: 'ore', poi: 'ore_gate', police: 75 }));
    const look = await ask(provider, conversation);
    expect(opsOf(look)).toEqual(['get_system']);
    conversation.reply(look).answerCall(look.message.toolCalls[0]!, {
      details: {
        system: {
          id: 'ore',
          name: 'Ore',
          police_level: 75,
          connections: [{ system_id: 'sol', name: 'Sol', distance: 10, police_level: 100 }],
          pois: [
            { id: 'ore_gate', name: 'Ore Gate', type: 'gate', has_base: false, distance: 0 },
            { id: 'ore_station', name: 'Ore Station', type: 'station', has_base: true, distance: 3 },
            { id: 'ore_belt', name: 'Ore Belt', type: 'asteroid_belt', has_base: false, distance: 2 },
          ],
        },
      },
    });
    const work = await ask(provider, conversation);
    expect(opsOf(work)).toEqual(['travel']);
    expect(argsOf(work)).toEqual({ target: 'ore_belt' });
    conversation
      .reply(work)
      .answerCall(work.message.toolCalls[0]!, dashboard({ system: 'ore', poi: 'ore_belt', police: 75 }));
    const deposits = await ask(provider, conversation);
    expect(opsOf(deposits)).toEqual(['get_poi']);
    expect(argsOf(deposits)).toEqual({});
  });

  it('flees to the station of a lawless system when the hull is low, and docks there', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const lawless = {
      details: {
        system: {
          id: 'wilds',
          name: 'Wilds',
          police_level: 0,
          connections: [],
          pois: [
            { id: 'wilds_belt', name: 'Wilds Belt', type: 'asteroid_belt', has_base: false, distance: 0 },
            { id: 'wilds_port', name: 'Wilds Port', type: 'station', has_base: true, distance: 3 },
          ],
        },
      },
    };
    const here = { system: 'wilds', poi: 'wilds_belt', police: 0, hull: 35 };
    const conversation = surveyed().result('get_status', dashboard(here)).result('get_system', lawless);
    const flee = await ask(provider, conversation);
    expect(opsOf(flee)).toEqual(['travel']);
    expect(argsOf(flee)).toEqual({ target: 'wilds_port' });
    conversation.reply(flee).answerCall(flee.message.toolCalls[0]!, dashboard({ ...here, poi: 'wilds_port' }));
    expect(opsOf(await ask(provider, conversation))).toEqual(['dock']);
  });

  it('ends the turn when the ship is in transit', async () => {
    const moving = dashboard({ poi: 'sol_belt' });
    moving.location = { ...moving.location!, in_transit: true, poi_id: null, ticks_remaining: 3 };
    const response = await ask(createAutopilotProvider({ seed: 1 }), surveyed().result('get_status', moving));
    expect(response.message.toolCalls).toEqual([]);
    expect(response.message.content).toContain('3 ticks');
  });

  it('does not retry a refuel the game refused for lack of credits', async () => {
    const conversation = surveyed()
      .result('sell', dashboard({ docked: true, fuel: 20, credits: 2 }))
      .result('refuel', errorData('no_credits'));
    expect(opsOf(await ask(createAutopilotProvider({ seed: 1 }), conversation))).toEqual(['travel']);
  });

  it('undocks first once the game refused a travel while docked', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = surveyed()
      .result('travel', errorData('docked', 'undock first'), { args: { target: 'sol_belt' } })
      .result('get_status', dashboard({ docked: true }));
    const undock = await ask(provider, conversation);
    expect(opsOf(undock)).toEqual(['undock']);
    conversation.reply(undock).answerCall(undock.message.toolCalls[0]!, dashboard());
    const travel = await ask(provider, conversation);
    expect(opsOf(travel)).toEqual(['travel']);
    expect(argsOf(travel)).toEqual({ target: 'sol_belt' });
  });

  it('mines where deposits were told on the spot, never asking about a POI or system it is not at', async () => {
    const provider = createAutopilotProvider({ seed: 1 });
    const conversation = new Conversation()
      .user()
      .result('get_status', dashboard({ poi: 'sol_belt' }))
      .result('get_map', {
        details: { systems: [{ id: 'sol', name: 'Sol', police_level: 100, has_station: true, connections: [] }] },
      })
      .result('get_system', SOL_SYSTEM)
      .result('view_market', MARKET);
    const look = await ask(provider, conversation);
    expect(opsOf(look)).toEqual(['get_poi']);
    conversation.reply(look).answerCall(look.message.toolCalls[0]!, SOL_BELT);
    expect(opsOf(await ask(provider, conversation))).toEqual(['mine']);
  });
});

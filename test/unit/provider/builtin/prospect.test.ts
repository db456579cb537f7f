// Prospecting: before committing to a loop the autopilot looks at nearby lawful systems with a station (low police
// first), visits their mining POIs (get_poi there) and docks at their stations (view_market), stops once a plan pays
// well or fuel runs short, and looks again later when a short look left it on a poor plan. Same decisions on v1 and v2.
import { describe, expect, it } from 'vitest';
import { createAutopilotProvider } from '../../../../internal/provider/builtin/index.js';
import { Knowledge } from '../../../../internal/provider/builtin/knowledge.js';
import { choosePlan, minedItem } from '../../../../internal/provider/builtin/plan.js';
import { prospectTarget } from '../../../../internal/provider/builtin/prospect.js';
import type { CompletionResponse, Message, Provider } from '../../../../internal/shared/index.js';
import type { FaceId } from '../../../../internal/spacemolt/index.js';
import { Conversation, MARKET, SOL_BELT, SOL_SYSTEM, argsOf, dashboard, opsOf, toolsFor } from './conversation.js';

/** Sol (home, iron belt) links to Nexus (capital, station), Vex (police 50, station) and Wilds (lawless, station). */
const MAP = {
  details: {
    systems: [
      { id: 'sol', name: 'Sol', police_level: 100, has_station: true, connections: ['nexus', 'vex', 'wilds'] },
      { id: 'nexus', name: 'Nexus', police_level: 100, has_station: true, connections: ['sol'] },
      { id: 'vex', name: 'Vex', police_level: 50, has_station: true, connections: ['sol'] },
      { id: 'wilds', name: 'Wilds', police_level: 25, has_station: true, connections: ['sol'] },
    ],
  },
};
/** get_system as seen from Vex Gate. */
const VEX_SYSTEM = {
  details: {
    system: {
      id: 'vex',
      name: 'Vex',
      police_level: 50,
      pois: [
        { id: 'vex_gate', name: 'Vex Gate', type: 'gate', has_base: false, distance: 0 },
        { id: 'vex_field', name: 'Vex Field', type: 'ice_field', has_base: false, distance: 2 },
        { id: 'vex_station', name: 'Vex Station', type: 'station', has_base: true, distance: 3 },
      ],
      connections: [{ system_id: 'sol', name: 'Sol', distance: 10, police_level: 100 }],
    },
  },
};
const VEX_FIELD = {
  details: {
    poi: {
      id: 'vex_field',
      name: 'Vex Field',
      type: 'ice_field',
      has_base: false,
      system_id: 'vex',
      resources: [
        { resource_id: 'water_ice', richness: 9, remaining: 900 },
        { resource_id: 'platinum_ore', richness: 9, remaining: 800 },
      ],
    },
  },
};
const VEX_MARKET = {
  details: {
    station: { poi_id: 'vex_station', system_id: 'vex', name: 'Vex Station' },
    items: [
      { item_id: 'platinum_ore', base_price: 45, bid: 70, ask: 88 },
      { item_id: 'water_ice', base_price: 10, bid: 30, ask: 38 },
    ],
    fuel_price: 2,
    repair_price: 3,
  },
};

/** Home known through and through (belt, market), docked at Sol Central with the map above. */
function home(face: FaceId, at: Parameters<typeof dashboard>[0] = { docked: true }): Conversation {
  return new Conversation(face)
    .user()
    .result('get_status', dashboard(at))
    .result('get_map', MAP)
    .result('get_system', SOL_SYSTEM)
    .result('get_poi', SOL_BELT)
    .result('view_market', MARKET);
}

describe.each(['v1', 'v2'] as FaceId[])('builtin/autopilot prospecting on %s', (face) => {
  const tools = toolsFor(face);
  const ask = (provider: Provider, conversation: Conversation): Promise<CompletionResponse> =>
    provider.complete({ messages: structuredClone(conversation.messages), tools });

  it('with only a poor loop at home, jumps to the low-police station system, never to lawless space', async () => {
    const jump = await ask(createAutopilotProvider({ seed: 3 }), home(face));
    expect(opsOf(jump)).toEqual(['jump']);
    expect(argsOf(jump)).toEqual({ target: 'vex' });
  });

  it('there, travels to each mining POI, reads it on the spot, docks for the market, then commits to the best loop', async () => {
    const provider = createAutopilotProvider({ seed: 3 });
    const at = { system: 'vex', poi: 'vex_gate', police: 50 };
    const conversation = home(face)
      .result('jump', dashboard(at), { args: { target: 'vex' } })
      .result('get_system', VEX_SYSTEM);
    const out = await ask(provider, conversation);
    expect(opsOf(out)).toEqual(['travel']);
    expect(argsOf(out)).toEqual({ target: 'vex_field' });
    conversation.reply(out).answerCall(out.message.toolCalls[0]!, dashboard({ ...at, poi: 'vex_field' }));
    const look = await ask(provider, conversation);
    expect(opsOf(look)).toEqual(['get_poi']);
    conversation.reply(look).answerCall(look.message.toolCalls[0]!, VEX_FIELD);
    const toStation = await ask(provider, conversation);
    expect(opsOf(toStation)).toEqual(['travel']);
    expect(argsOf(toStation)).toEqual({ target: 'vex_station' });
    conversation.reply(toStation).answerCall(toStation.message.toolCalls[0]!, dashboard({ ...at, poi: 'vex_station' }));
    const dock = await ask(provider, conversation);
    expect(opsOf(dock)).toEqual(['dock']);
    conversation
      .reply(dock)
      .answerCall(dock.message.toolCalls[0]!, dashboard({ ...at, poi: 'vex_station', docked: true }));
    const market = await ask(provider, conversation);
    expect(opsOf(market)).toEqual(['view_market']);
    conversation.reply(market).answerCall(market.message.toolCalls[0]!, VEX_MARKET);
    // Platinum at 70 pays well: no more looking (Nexus is left alone), back to the field to mine.
    const work = await ask(provider, conversation);
    expect(opsOf(work)).toEqual(['travel']);
    expect(argsOf(work)).toEqual({ target: 'vex_field' });
  });

  it('short of fuel and credits, does not prospect: it works the loop at hand', async () => {
    const conversation = home(face, { poi: 'sol_belt', fuel: 40, credits: 0 });
    expect(opsOf(await ask(createAutopilotProvider({ seed: 3 }), conversation))).toEqual(['mine']);
  });

  it('a look cut short by fuel resumes once a sale brings credits to spare', async () => {
    const provider = createAutopilotProvider({ seed: 3 });
    const conversation = home(face, { poi: 'sol_belt', fuel: 40, credits: 0 });
    const mine = await ask(provider, conversation);
    expect(opsOf(mine)).toEqual(['mine']);
    conversation
      .reply(mine)
      .answerCall(mine.message.toolCalls[0]!, dashboard({ poi: 'sol_belt', fuel: 40, credits: 0 }))
      .user('Autoplay turn 2.')
      .result('sell', dashboard({ docked: true, fuel: 100, credits: 800 }), {
        args: { item_id: 'iron_ore', quantity: 70 },
      });
    const jump = await ask(provider, conversation);
    expect(opsOf(jump)).toEqual(['jump']);
    expect(argsOf(jump)).toEqual({ target: 'vex' });
  });
});

describe('prospecting and planning maths', () => {
  function knowing(...data: Array<{ op: string; data: object }>): Knowledge {
    const knowledge = new Knowledge();
    const messages: Message[] = data.map(({ op, data: d }, i) => ({
      id: `t${i}`,
      role: 'tool',
      content: '',
      data: { op, ...d },
      isError: false,
      createdAt: i,
      toolCallId: `c${i}`,
      toolName: op,
    }));
    knowledge.ingest(messages);
    return knowledge;
  }

  it('minedItem: the game mines the highest base price left, whatever the station pays', () => {
    const knowledge = knowing(
      { op: 'get_status', data: dashboard({ system: 'vex', poi: 'vex_field', police: 50 }) },
      { op: 'get_system', data: VEX_SYSTEM },
      { op: 'get_poi', data: VEX_FIELD },
    );
    const field = knowledge.pois.get('vex_field')!;
    expect(minedItem(knowledge, field)).toBe('platinum_ore');
    field.deposits!.get('platinum_ore')!.remaining = 0;
    expect(minedItem(knowledge, field)).toBe('water_ice');
  });

  it('prospectTarget prefers low police over fewer jumps and skips lawless systems; choosePlan skips loops out of fuel reach', () => {
    const knowledge = knowing(
      { op: 'get_status', data: dashboard({ docked: true }) },
      { op: 'get_map', data: MAP },
      { op: 'get_system', data: SOL_SYSTEM },
      { op: 'get_poi', data: SOL_BELT },
      { op: 'view_market', data: MARKET },
    );
    expect(prospectTarget(knowledge, 'sol')).toEqual({ id: 'vex', path: ['sol', 'vex'] });
    knowledge.ingest([
      {
        id: 'x1',
        role: 'tool',
        content: '',
        isError: false,
        createdAt: 9,
        toolCallId: 'c9',
        toolName: 'get_system',
        data: { op: 'get_system', ...VEX_SYSTEM },
      },
      {
        id: 'x2',
        role: 'tool',
        content: '',
        isError: false,
        createdAt: 10,
        toolCallId: 'c10',
        toolName: 'get_poi',
        data: { op: 'get_poi', ...VEX_FIELD },
      },
      {
        id: 'x3',
        role: 'tool',
        content: '',
        isError: false,
        createdAt: 11,
        toolCallId: 'c11',
        toolName: 'view_market',
        data: { op: 'view_market', ...VEX_MARKET },
      },
    ]);
    const dash = knowledge.dashboard!;
    expect(choosePlan({ knowledge, dashboard: dash, avoid: new Set(), safeOnly: true })?.systemId).toBe('vex');
    const dry = { ...dash, ship: { ...dash.ship, fuel: 3 }, player: { ...dash.player, credits: 0 } };
    expect(choosePlan({ knowledge, dashboard: dry, avoid: new Set(), safeOnly: true })?.systemId).toBe('sol');
  });
});

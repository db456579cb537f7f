// The autopilot's decision inputs (issue 50, exact replays): each reply says what it depended on besides its request
// — its instance, what its fleet told it, a plan set since — and another autopilot handed the same requests with those
// inputs makes the same decisions, with no fleet and no planner of its own. Each case is asked again without the inputs
// too, so the test fails if they are not what the replay went by.
import { describe, expect, it } from 'vitest';
import { FleetKnowledge } from '../../../../internal/fleet/shared-knowledge.js';
import { PlaybackFleetPort, RecordingFleetPort } from '../../../../internal/provider/builtin/fleet-reads.js';
import { AutopilotProvider, createAutopilotProvider } from '../../../../internal/provider/builtin/index.js';
import type { CompletionRequest, CompletionResponse, Message, Provider } from '../../../../internal/shared/index.js';
import { Conversation, IRON_BELT, MAP, SOL_TWO_STATIONS, TOOLS, dashboard, ironMarket } from './conversation.js';

let time = 1_000_000;
const now = (): number => (time += 1000);

/** Docked once at `poiId` (its market read), now at the belt with a full hold of iron. */
function fullHoldAfter(poiId: string, name: string, bid: number, iron = 70): Conversation {
  return new Conversation()
    .user()
    .result('get_status', dashboard({ poi: poiId, docked: true }))
    .result('get_map', MAP)
    .result('get_system', SOL_TWO_STATIONS)
    .result('view_market', ironMarket(poiId, name, bid))
    .result('get_poi', IRON_BELT)
    .result('get_status', dashboard({ poi: 'sol_belt', cargo: [{ item_id: 'iron_ore', quantity: iron }] }));
}

const nextTurn = (conversation: Conversation): Conversation =>
  conversation
    .user('Autoplay turn 2.')
    .result('get_status', dashboard({ poi: 'sol_belt', cargo: [{ item_id: 'iron_ore', quantity: 70 }] }));

/** A request as the turn engine makes it (copies: the provider may keep what it is handed). */
const request = (messages: readonly Message[]): CompletionRequest => ({
  messages: structuredClone([...messages]),
  tools: TOOLS,
});

/** What a reply would have the game do. */
const calls = (response: CompletionResponse): string[] =>
  response.message.toolCalls.map((call) => `${call.name} ${call.arguments}`);

/** The same requests asked again by a fresh autopilot, with or without the inputs the live replies gave. */
async function replay(
  asked: ReadonlyArray<{ request: CompletionRequest; response: CompletionResponse }>,
  withInputs: boolean,
): Promise<string[][]> {
  const again: Provider = createAutopilotProvider({ seed: 99 });
  const out: string[][] = [];
  for (const { request: live, response } of asked) {
    const inputs = withInputs && response.inputs ? { inputs: structuredClone(response.inputs) } : {};
    out.push(calls(await again.complete({ ...structuredClone(live), ...inputs })));
  }
  return out;
}

describe('builtin/autopilot decision inputs', () => {
  it("a replay hands it what its fleet told it live: the fleet-mate's better bid it went for", async () => {
    const fleet = new FleetKnowledge({ fleet: 'miners', now });
    const bob = createAutopilotProvider({ seed: 2, now, fleet: fleet.port('bob') });
    const conversation = fullHoldAfter('sol_central', 'Sol Central', 9);
    const asked: Array<{ request: CompletionRequest; response: CompletionResponse }> = [];
    const ask = async (): Promise<void> => {
      const sent = request(conversation.messages);
      asked.push({ request: sent, response: await bob.complete(request(conversation.messages)) });
    };
    await ask();
    // Ann docks at Sol Port, which pays far more; Bob never did.
    const ann = createAutopilotProvider({ seed: 1, now, fleet: fleet.port('ann') });
    await ann.complete(request(fullHoldAfter('sol_port', 'Sol Port', 20, 0).messages));
    nextTurn(conversation);
    await ask();
    const live = asked.map(({ response }) => calls(response));
    expect(live[0]?.[0]).toContain('sol_central');
    expect(live[1]?.[0]).toContain('sol_port');
    expect(asked.every(({ response }) => response.inputs?.given?.fleet !== undefined)).toBe(true);

    expect(await replay(asked, true)).toEqual(live);
    // Without them the fleet's bid is unknown: the hold goes to the station it saw itself.
    expect((await replay(asked, false))[1]?.[0]).toContain('sol_central');
  });

  it('a replay starts afresh where the live instance changed, as a resumed session did', async () => {
    const conversation = fullHoldAfter('sol_central', 'Sol Central', 9);
    const first = createAutopilotProvider({ seed: 3 });
    const asked = [
      { request: request(conversation.messages), response: await first.complete(request(conversation.messages)) },
    ];
    // The session resumed in a new process: its autopilot is handed the latest turn only and has learnt nothing.
    nextTurn(conversation);
    const latest = [conversation.messages[0]!, ...conversation.messages.slice(-3)];
    const second = createAutopilotProvider({ seed: 3 });
    asked.push({ request: request(latest), response: await second.complete(request(latest)) });
    expect(asked[0]!.response.inputs?.instance).not.toBe(asked[1]!.response.inputs?.instance);
    const live = asked.map(({ response }) => calls(response));
    // Knowing nothing of the map, the new instance looks around before it acts.
    expect(live[1]?.join()).not.toContain('travel');

    expect(await replay(asked, true)).toEqual(live);
    expect(await replay(asked, false)).not.toEqual(live);
  });

  it('a replay sets the plan the live one was set before the decision', async () => {
    const conversation = fullHoldAfter('sol_central', 'Sol Central', 9);
    const flier = new AutopilotProvider({ seed: 4 });
    const asked = [
      { request: request(conversation.messages), response: await flier.complete(request(conversation.messages)) },
    ];
    flier.setFlightPlan({ strategy: 'explore', intent: 'see the wilds', systems: ['wilds'] });
    nextTurn(conversation);
    asked.push({
      request: request(conversation.messages),
      response: await flier.complete(request(conversation.messages)),
    });
    expect(asked[1]!.response.inputs?.given?.plan).toMatchObject({ strategy: 'explore' });
    expect(asked[0]!.response.inputs?.given).toBeUndefined();
    const live = asked.map(({ response }) => calls(response));

    expect(await replay(asked, true)).toEqual(live);
    expect(await replay(asked, false)).not.toEqual(live);
  });
});

describe('fleet reads', () => {
  it('are played back as they were read, a view unchanged since recorded as its key', () => {
    const fleet = new FleetKnowledge({ fleet: 'miners', now });
    const recording = new RecordingFleetPort(fleet.port('bob'), now);
    const view = { poiId: 'sol_port', systemId: 'sol', name: 'Sol Port', bids: { iron_ore: 20 }, noBuyers: [] };
    fleet.port('ann').publishMarket(view);
    const reads = [];
    for (let decision = 0; decision < 3; decision += 1) {
      if (decision === 2) fleet.port('ann').publishMarket({ ...view, bids: { iron_ore: 15 } });
      recording.markets();
      recording.claimed('sol_port', 'iron_ore');
      recording.now();
      reads.push(JSON.parse(JSON.stringify(recording.take())) as ReturnType<RecordingFleetPort['take']>);
    }
    expect(reads[1]?.markets).toEqual(['sol_port']);
    expect(reads[2]?.markets?.[0]).toMatchObject({ bids: { iron_ore: 15 } });

    const playback = new PlaybackFleetPort();
    const bids = reads.map((recorded) => {
      playback.load(recorded);
      expect(playback.claimed('sol_port', 'iron_ore')).toBe(0);
      expect(playback.now()).toBe(recorded.now?.[0]);
      return playback.markets().map((market) => market.bids.iron_ore);
    });
    expect(bids).toEqual([[20], [20], [15]]);
  });
});

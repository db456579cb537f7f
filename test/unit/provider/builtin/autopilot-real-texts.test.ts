// The autopilot on the real server's own words (test/fixtures/spacemolt/real), read by the game layer as a live call
// would be: it learns where it is from a status without a Location line, plays on partial knowledge (the POI unknown
// while undocked until get_poi), confirms an action whose answer says no state with one free status, looks at the
// market before selling, and never sells twice where nobody buys.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readObservation } from '../../../../internal/game/index.js';
import { createAutopilotProvider } from '../../../../internal/provider/builtin/index.js';
import type { CompletionResponse, Provider } from '../../../../internal/shared/index.js';
import type { FaceId, GameOp } from '../../../../internal/spacemolt/index.js';
import { Conversation, argsOf, opsOf, toolsFor } from './conversation.js';

const folder = fileURLToPath(new URL('../../../fixtures/spacemolt/real/', import.meta.url));
const load = (name: string): any => JSON.parse(readFileSync(`${folder}${name}`, 'utf8'));
const mcp = load('mcp-probe-2026-07-12.json');
const belt = load('poi-deposits-probe-2026-07-16.json');
const market = load('market-capture-2026-07-13.json');
const text = (key: string): string => mcp.read_only_calls[key].raw.result.content[0].text as string;
const STATUS_DOCKED = text('spacemolt/get_status');
const SYSTEM = text('spacemolt/get_system');
const MARKET = text('spacemolt_market/view_market');
const NO_BUYERS = (market.entries as Array<{ result_text: string }>).find((e) =>
  e.result_text.startsWith('Sold 0 Palladium'),
)!.result_text;
const REFUELED = (market.entries as Array<{ result_text: string }>).find((e) =>
  e.result_text.startsWith('Refueled '),
)!.result_text;
const BELT_STATUS = belt.queries['spacemolt/get_status'].body.result as string;
const BELT_POI = belt.queries['spacemolt/get_poi'].body.result as string;
const BELT_SYSTEM = belt.queries['spacemolt/get_system'].body.result as string;

/** A tool result as the game layer hands it on: the real text and what it read from it. */
function real(
  conversation: Conversation,
  op: GameOp,
  body: string,
  options: { args?: Record<string, unknown>; isError?: boolean } = {},
): Conversation {
  const data = readObservation(op, body, options.isError ?? false);
  return conversation.result(op, data, {
    text: body,
    ...(options.args ? { args: options.args } : {}),
    ...(options.isError ? { isError: true } : {}),
    withoutOp: false,
  });
}

function answer(conversation: Conversation, response: CompletionResponse, body: string, isError = false): void {
  const call = response.message.toolCalls[0]!;
  const op = opsOf(response)[0]!;
  conversation.reply(response).answerCall(call, readObservation(op, body, isError), { text: body, isError });
}

describe.each(['v2', 'v1'] as FaceId[])('the autopilot on real texts (%s)', (face) => {
  const tools = toolsFor(face);
  const ask = (provider: Provider, conversation: Conversation): Promise<CompletionResponse> =>
    provider.complete({ messages: structuredClone(conversation.messages), tools });

  it('knows where it is from a real status and surveys instead of asking for status again', async () => {
    const provider = createAutopilotProvider({ seed: 3 });
    const conversation = real(new Conversation(face).user(), 'get_status', STATUS_DOCKED);
    const next = await ask(provider, conversation);
    const ops = opsOf(next);
    expect(ops).not.toContain('get_status');
    expect(ops).toEqual(expect.arrayContaining(['get_system', 'view_market']));
  });

  it('docked with palladium nobody buys: sells what has a bid, never the palladium, and not twice after no buyers', async () => {
    const provider = createAutopilotProvider({ seed: 3 });
    const conversation = real(new Conversation(face).user(), 'get_status', STATUS_DOCKED);
    real(conversation, 'get_map', 'Galaxy map (0 systems):\nid\tname\tempire\tpolice\tstation\tconnections');
    real(conversation, 'get_system', SYSTEM);
    real(conversation, 'view_market', MARKET);
    const sells: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      const next = await ask(provider, conversation);
      const ops = opsOf(next);
      if (ops.length === 0) break;
      if (ops[0] === 'sell') {
        const item = String(argsOf(next).item_id);
        sells.push(item);
        // The real answer to a sale nobody takes; a sale that goes through says no state either.
        answer(
          conversation,
          next,
          item === 'palladium_ore' ? NO_BUYERS : `Sold 3 ${item === 'gold_ore' ? 'Gold' : 'Vanadium'} Ore for 12cr.`,
        );
      } else if (ops[0] === 'get_status') answer(conversation, next, STATUS_DOCKED);
      else answer(conversation, next, 'ok');
    }
    // Market Prime's summary lists no palladium_ore bid... if it does, one no-buyers answer is all it may cost.
    expect(sells.filter((item) => item === 'palladium_ore').length).toBeLessThanOrEqual(1);
    expect(sells.length).toBeGreaterThan(0);
  });

  it('after an action whose answer does not say all it changed (a refuel) it asks one free status, then acts on it', async () => {
    const provider = createAutopilotProvider({ seed: 3 });
    const conversation = real(new Conversation(face).user(), 'get_status', STATUS_DOCKED);
    real(conversation, 'get_map', 'Galaxy map (0 systems):\nid\tname\tempire\tpolice\tstation\tconnections');
    real(conversation, 'get_system', SYSTEM);
    real(conversation, 'view_market', MARKET);
    real(conversation, 'refuel', REFUELED);
    const next = await ask(provider, conversation);
    expect(opsOf(next)).toEqual(['get_status']);
    answer(conversation, next, STATUS_DOCKED);
    const after = await ask(provider, conversation);
    expect(opsOf(after)).not.toContain('get_status');
  });

  it('an answer that says all it changed (`Docked at X.`) needs no status: it acts on at once', async () => {
    const provider = createAutopilotProvider({ seed: 3 });
    const conversation = real(new Conversation(face).user(), 'get_status', STATUS_DOCKED);
    real(conversation, 'get_map', 'Galaxy map (0 systems):\nid\tname\tempire\tpolice\tstation\tconnections');
    real(conversation, 'get_system', SYSTEM);
    real(conversation, 'view_market', MARKET);
    real(conversation, 'dock', 'Docked at Market Prime Exchange.');
    const next = await ask(provider, conversation);
    expect(opsOf(next)).not.toContain('get_status');
    expect(opsOf(next)).toEqual(['sell']);
  });

  it('a new turn starts with one status (ticks went by), then plays on its reckoning', async () => {
    const provider = createAutopilotProvider({ seed: 3 });
    const conversation = real(new Conversation(face).user(), 'get_status', STATUS_DOCKED);
    real(conversation, 'get_map', 'Galaxy map (0 systems):\nid\tname\tempire\tpolice\tstation\tconnections');
    real(conversation, 'get_system', SYSTEM);
    real(conversation, 'view_market', MARKET);
    const first = await ask(provider, conversation);
    expect(opsOf(first)).not.toContain('get_status');
    // A person answering a minute later: the results came a message apart.
    conversation.reply(first).later(60_000).user('Autoplay turn 2. Goal: earn credits.');
    const second = await ask(provider, conversation);
    expect(opsOf(second)).toEqual(['get_status']);
  });

  it('a turn that goes straight on from the last one (only chat since) plays on without a status', async () => {
    const played = async (input: string): Promise<string[]> => {
      const provider = createAutopilotProvider({ seed: 3 });
      const conversation = real(new Conversation(face).user(), 'get_status', STATUS_DOCKED);
      real(conversation, 'get_map', 'Galaxy map (0 systems):\nid\tname\tempire\tpolice\tstation\tconnections');
      real(conversation, 'get_system', SYSTEM);
      real(conversation, 'view_market', MARKET);
      conversation.reply(await ask(provider, conversation)).user(input);
      return opsOf(await ask(provider, conversation));
    };
    const chat = '- chat (system): <untrusted source="chat" from="Vole">Quiet shift.</untrusted>';
    expect(await played(`Autoplay turn 2. Goal: earn credits.\nEvents since your last turn:\n${chat}`)).not.toContain(
      'get_status',
    );
    // Chat the game stamped with its tick is chat too.
    const stamped = '- [tick 9] chat (local): <untrusted source="chat" from="Vole">Anyone out there?</untrusted>';
    expect(await played(`Autoplay turn 2.\nEvents since your last turn:\n${stamped}`)).not.toContain('get_status');
    // An order filled at the market changed the hold and the credits: the picture wants a status.
    const fill = '- market: Your sell order filled: 10 iron_ore.';
    expect(
      await played(`Autoplay turn 2. Goal: earn credits.\nEvents since your last turn:\n${chat}\n${fill}`),
    ).toEqual(['get_status']);
  });

  it('undocked at a belt it cannot name: asks get_poi, then mines there', async () => {
    const provider = createAutopilotProvider({ seed: 3 });
    const conversation = real(new Conversation(face).user(), 'get_status', BELT_STATUS);
    real(conversation, 'get_map', 'Galaxy map (0 systems):\nid\tname\tempire\tpolice\tstation\tconnections');
    real(conversation, 'get_system', BELT_SYSTEM);
    const next = await ask(provider, conversation);
    expect(opsOf(next)).toContain('get_poi');
    answer(conversation, next, BELT_POI);
    const after = await ask(provider, conversation);
    expect(opsOf(after)).toEqual(['mine']);
  });
});

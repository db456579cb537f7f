// The token diet (issue 16): older action results without the stale state block they printed (history untouched),
// older turns capped in tokens with a window start that stays put across turns, a prefix that is byte-identical
// across the rounds of a turn, and lean tool descriptions that keep every way to call a tool.
import { describe, expect, it } from 'vitest';
import type { Message, ToolSpec } from '../../../internal/shared/index.js';
import { buildContext, estimateTokens } from '../../../internal/llm/index.js';
import { fitToolList } from '../../../internal/llm/tool-budget.js';
import { leanSpec } from '../../../internal/llm/tool-lean.js';
import { transcriptProblems } from './helpers.js';

const DASHBOARD =
  'nova [solarian] | 1,200cr | Sol\nShip: Theoria | Hull: 100/100 | Speed: 1\nFuel: 90/100 | Cargo: 10/70';

/** Autoplay-like turns: a user line, three mine rounds (result = what happened + the state block), an answer. */
function playTurns(count: number): Message[] {
  const messages: Message[] = [];
  const push = (message: Omit<Message, 'id' | 'createdAt'>): void => {
    messages.push({ ...message, id: `m${messages.length}`, createdAt: messages.length });
  };
  for (let turn = 1; turn <= count; turn += 1) {
    push({ role: 'user', content: `Autoplay turn ${turn}. Play on.`, turn });
    for (let round = 1; round <= 3; round += 1) {
      push({
        role: 'assistant',
        content: 'Mining.',
        toolCalls: [{ id: `c${turn}_${round}`, name: 'mine', arguments: '{}' }],
        turn,
        round,
      });
      push({
        role: 'tool',
        content: `Mined ${turn * 10 + round} Iron Ore.\n\n${DASHBOARD}`,
        toolCallId: `c${turn}_${round}`,
        toolName: 'mine',
        data: { op: 'mine', player: { username: 'nova', credits: 1200 } },
        turn,
        round,
      });
    }
    push({ role: 'assistant', content: `Turn ${turn} done.`, toolCalls: [], turn, round: 4 });
  }
  return messages;
}

const olderTurns = (context: Message[], current: number): number[] => [
  ...new Set(
    context.map((message) => message.turn).filter((turn): turn is number => turn !== undefined && turn < current),
  ),
];

describe('token diet', () => {
  it('sends older action results without the state block they printed, and leaves the history as it was', () => {
    const history = playTurns(5);
    const before = JSON.stringify(history);
    const start = history.findIndex((message) => message.turn === 5);
    const context = buildContext({ history, systemPrompt: 's', budgetTokens: 100_000, currentTurnStart: start });
    const older = context.find((message) => message.toolCallId === 'c2_1');
    expect(older?.content).toBe('Mined 21 Iron Ore.\n[state omitted: superseded]');
    const fresh = context.find((message) => message.toolCallId === 'c5_1');
    expect(fresh?.content).toBe(`Mined 51 Iron Ore.\n\n${DASHBOARD}`); // the current turn's results stay whole
    expect(JSON.stringify(history)).toBe(before); // rule 3: nothing stored is touched
  });

  it('caps older turns in tokens however large the budget, whole turns only', () => {
    const history = playTurns(400);
    const start = history.findIndex((message) => message.turn === 400);
    const context = buildContext({ history, systemPrompt: 's', budgetTokens: 1_000_000, currentTurnStart: start });
    expect(transcriptProblems(context)).toEqual([]);
    const older = context.filter((message) => message.turn !== undefined && message.turn < 400);
    expect(estimateTokens(older)).toBeLessThanOrEqual(600);
    const turns = olderTurns(context, 400);
    expect(turns.length).toBeGreaterThan(3);
    expect(turns.length).toBeLessThan(399); // without the cap all 399 older turns would fit this budget
    for (const turn of turns) expect(context.filter((message) => message.turn === turn)).toHaveLength(8);
  });

  it('starts the capped window at the same older turn for several turns in a row (a stable prefix to cache)', () => {
    const history = playTurns(60);
    const firstOlder: number[] = [];
    for (let current = 40; current <= 48; current += 1) {
      const upTo = history.findIndex((message) => message.turn === current + 1);
      const slice = history.slice(0, upTo);
      const start = slice.findIndex((message) => message.turn === current);
      const context = buildContext({
        history: slice,
        systemPrompt: 's',
        budgetTokens: 100_000,
        currentTurnStart: start,
      });
      firstOlder.push(olderTurns(context, current)[0] ?? -1);
    }
    expect(firstOlder.every((turn) => turn % 3 === 0)).toBe(true);
    expect(new Set(firstOlder).size).toBeLessThanOrEqual(4); // moves every 3 turns, not every turn
  });

  it('keeps the system message and the older turns byte-identical across the rounds of a turn', () => {
    const history = playTurns(30);
    const start = history.findIndex((message) => message.turn === 30);
    const rounds = [start + 1, start + 3, start + 5, start + 7].map((end) =>
      buildContext({
        history: history.slice(0, end),
        systemPrompt: 's',
        memoryBlock: 'Memory: iron sells at Sol.',
        budgetTokens: 16_000,
        currentTurnStart: start,
      }),
    );
    const prefix = (context: Message[]): string => JSON.stringify(context.filter((message) => message.turn !== 30));
    for (const context of rounds.slice(1)) expect(prefix(context)).toBe(prefix(rounds[0] as Message[]));
  });
});

describe('lean tool descriptions', () => {
  const grouped: ToolSpec = {
    name: 'game',
    readOnly: false,
    actions: { get_status: 'query', travel: 'mutation' },
    description:
      'The game: status and navigation.\nActions (pass one as `action`):\n' +
      '- get_status(): Your pilot and ship. Read it first. [query: free, no tick]\n' +
      '- travel(id): Fly to another POI in this system. Fuel max(1, ceil(AU × 0.7)) taken up front. [mutation: one per tick, returns when it resolves]\n' +
      '(registration_code is filled in by Skipper.)',
    inputSchema: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['get_status', 'travel'], description: 'one of the actions listed' },
        id: { type: 'string', description: 'travel: A POI id' },
        quantity: { type: 'integer', minimum: 1, description: 'sell: How many; buy: How many; refuel: Units of fuel' },
      },
      required: ['action'],
    },
  };

  it('keeps every action signature, its first sentence and its kind (one heading per run of a kind)', () => {
    const lean = leanSpec(grouped);
    expect(lean.description).toBe(
      'The game: status and navigation.\nActions (pass one as `action`):\n' +
        'query actions:\n' +
        '- get_status(): Your pilot and ship.\n' +
        'mutation actions:\n' +
        '- travel(id): Fly to another POI in this system.\n' +
        '(registration_code is filled in by Skipper.)',
    );
    expect(grouped.description).toContain('Fuel max(1'); // a copy: the listed spec is not changed
  });

  it('keeps each tag on its line when one action line has none (its kind would be lost)', () => {
    const untagged = { ...grouped, description: `${grouped.description}\n- jump(id): Jump through a lane.` };
    const lean = leanSpec(untagged).description;
    expect(lean).toContain('- get_status(): Your pilot and ship. [query]');
    expect(lean).toContain('- travel(id): Fly to another POI in this system. [mutation]');
    expect(lean).not.toContain('query actions:');
  });

  it("drops the action enum's description only when every value is listed, says a repeated text once, keeps types", () => {
    const lean = leanSpec(grouped);
    const properties = lean.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.action).toEqual({ type: 'string', enum: ['get_status', 'travel'] });
    expect(properties.quantity).toEqual({
      type: 'integer',
      minimum: 1,
      description: 'sell, buy: How many; refuel: Units of fuel',
    });
    expect(properties.id).toEqual({ type: 'string', description: 'travel: A POI id' });
    expect(lean.inputSchema.required).toEqual(['action']);
    // The listed spec is not changed.
    expect((grouped.inputSchema.properties as Record<string, { description?: string }>).action?.description).toBe(
      'one of the actions listed',
    );
    const unlisted = {
      ...grouped,
      inputSchema: {
        ...grouped.inputSchema,
        properties: {
          ...(grouped.inputSchema.properties as object),
          action: { type: 'string', enum: ['get_status', 'travel', 'scan'], description: 'scan is new' },
        },
      },
    };
    const kept = leanSpec(unlisted).inputSchema.properties as Record<string, { description?: string }>;
    expect(kept.action?.description).toBe('scan is new');
  });

  it('is what fitToolList offers, and a grouped tool compacted past the budget still lists its actions', () => {
    expect(fitToolList([grouped], 10_000).offered[0]?.description).toBe(leanSpec(grouped).description);
    const compacted = fitToolList([grouped], 1).offered[0]?.description ?? '';
    expect(compacted).toContain('- travel(id): Fly to another POI in this system.');
  });
});

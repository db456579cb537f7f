// Older turns rendered once per turn (OlderTurns): every round of a turn gets exactly the context a fresh build gives,
// as the current turn grows, when the room for older turns shrinks or grows, and across compaction levels; each
// round's older messages are its own copies (rule 3).
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../internal/shared/index.js';
import { buildContext, ESTIMATE_COUNTER, OlderTurns, type TokenCounter } from '../../../internal/llm/index.js';

function history(turns: number): Message[] {
  const messages: Message[] = [];
  const push = (message: Omit<Message, 'id' | 'createdAt'>): void => {
    messages.push({ ...message, id: `m${messages.length}`, createdAt: messages.length });
  };
  for (let turn = 1; turn <= turns; turn += 1) {
    push({ role: 'user', content: `tick ${turn}`, turn });
    push({
      role: 'assistant',
      content: `turn ${turn} plan`,
      toolCalls: [{ id: `c${turn}`, name: turn % 2 ? 'mine' : 'get_cargo', arguments: '{}' }],
      turn,
    });
    // Turns of different sizes, so where the window stops depends on the room.
    push({
      role: 'tool',
      content: `result ${turn} `.repeat(20 + (turn % 7) * 40),
      toolCallId: `c${turn}`,
      toolName: turn % 2 ? 'mine' : 'get_cargo',
      turn,
    });
    push({ role: 'assistant', content: `turn ${turn} done`, toolCalls: [], turn });
  }
  return messages;
}

const isQuery = (name: string): boolean => name.startsWith('get_');

/** The rounds of one turn: the turn's user line, then rounds that each add a call and a long result. */
function rounds(before: Message[], count: number, resultChars: number): Message[][] {
  const out: Message[][] = [];
  const turn: Message[] = [{ id: 'u', role: 'user', content: 'next tick', createdAt: 0, turn: 99 }];
  for (let round = 0; round < count; round += 1) {
    out.push([...before, ...turn]);
    turn.push(
      {
        id: `a${round}`,
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `k${round}`, name: 'mine', arguments: '{}' }],
        createdAt: 0,
        turn: 99,
      },
      {
        id: `t${round}`,
        role: 'tool',
        content: 'z'.repeat(resultChars),
        toolCallId: `k${round}`,
        toolName: 'mine',
        createdAt: 0,
        turn: 99,
      },
    );
  }
  return out;
}

describe('OlderTurns', () => {
  for (const budgetTokens of [1_500, 4_000, 16_000, 100_000]) {
    for (const compaction of [0, 1, 2] as const) {
      it(`gives each round what a fresh build gives (budget ${budgetTokens}, compaction ${compaction})`, () => {
        const before = history(40);
        const older = new OlderTurns();
        // Results big enough that the current turn eats into the older turns' room round by round.
        for (const snapshot of rounds(before, 8, 1_200)) {
          const options = {
            history: snapshot,
            systemPrompt: 'sys',
            budgetTokens,
            currentTurnStart: before.length,
            compaction,
            isQuery,
          };
          const memo = buildContext({ ...options, older });
          const fresh = buildContext(options);
          expect(memo).toEqual(fresh);
        }
      });
    }
  }

  it('renders afresh when the compaction level changes mid-turn, and when the turn start moves', () => {
    const before = history(30);
    const older = new OlderTurns();
    const base = { systemPrompt: 'sys', budgetTokens: 8_000, isQuery };
    const [first] = rounds(before, 1, 10) as [Message[]];
    for (const compaction of [0, 2, 1, 0] as const) {
      const options = { ...base, history: first, currentTurnStart: before.length, compaction };
      expect(buildContext({ ...options, older })).toEqual(buildContext(options));
    }
    const shorter = before.slice(0, 60);
    const options = { ...base, history: [...shorter, first.at(-1) as Message], currentTurnStart: shorter.length };
    expect(buildContext({ ...options, older })).toEqual(buildContext(options));
  });

  it('renders and counts older messages in the first round only, the turn that did not fit included', () => {
    const before = history(40);
    const counted: string[] = [];
    const tokenCounter: TokenCounter = {
      ...ESTIMATE_COUNTER,
      message: (message) => {
        counted.push(message.id);
        return ESTIMATE_COUNTER.message(message);
      },
    };
    const older = new OlderTurns();
    const olderCounted = (): number => counted.splice(0).filter((id) => /^m\d+$/.test(id)).length;
    const [one, two] = rounds(before, 2, 10) as [Message[], Message[]];
    const options = {
      systemPrompt: 'sys',
      budgetTokens: 16_000,
      currentTurnStart: before.length,
      isQuery,
      tokenCounter,
    };
    buildContext({ ...options, history: one, older });
    expect(olderCounted()).toBeGreaterThan(0);
    buildContext({ ...options, history: two, older });
    expect(olderCounted()).toBe(0);
  });

  it('sends more older turns when a later round has more room', () => {
    const before = history(40);
    const older = new OlderTurns();
    const [one] = rounds(before, 1, 10) as [Message[]];
    for (const budgetTokens of [1_500, 4_000, 16_000]) {
      const options = { history: one, systemPrompt: 'sys', budgetTokens, currentTurnStart: before.length, isQuery };
      expect(buildContext({ ...options, older })).toEqual(buildContext(options));
    }
  });

  it('hands every round its own copies of the older messages (rule 3)', () => {
    const before = history(12);
    const older = new OlderTurns();
    const [one, two] = rounds(before, 2, 10) as [Message[], Message[]];
    const options = { systemPrompt: 'sys', budgetTokens: 100_000, currentTurnStart: before.length, isQuery };
    const round1 = buildContext({ ...options, history: one, older });
    const expected = buildContext({ ...options, history: two });
    // A provider that edits what it was sent: contents, fields, tool calls.
    for (const message of round1) {
      message.content = 'edited';
      message.turn = -1;
      for (const call of message.toolCalls ?? []) call.arguments = '{"edited":true}';
    }
    expect(buildContext({ ...options, history: two, older })).toEqual(expected);
    expect(before[1]?.toolCalls?.[0]?.arguments).toBe('{}');
  });
});

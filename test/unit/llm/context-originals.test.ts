// originalOf: each copy a context hands out is tied to the object it copies only while it writes the same JSON, so
// the request log may take a message's JSON once per original. A short reply or turn input stays the same message
// when its turn grows old, so the request log keeps it once; a long one is shortened and is a new message.
import { describe, expect, it } from 'vitest';
import { buildContext, OlderTurns, originalOf } from '../../../internal/llm/index.js';
import { RequestSerializer } from '../../../internal/session/request-serializer.js';
import type { Message } from '../../../internal/shared/index.js';

function turn(number: number, options: { reply?: string; result?: string } = {}): Message[] {
  const at = number * 10;
  return [
    { id: `u${number}`, role: 'user', content: `Autoplay turn ${number}.`, createdAt: at, turn: number },
    {
      id: `a${number}`,
      role: 'assistant',
      content: options.reply ?? `Mining (turn ${number}).`,
      toolCalls: [{ id: `c${number}`, name: 'mine', arguments: '{}' }],
      createdAt: at + 1,
      turn: number,
      round: 1,
    },
    {
      id: `t${number}`,
      role: 'tool',
      content: options.result ?? `Mined 6 ore.\n\nCredits: ${number}`,
      toolCallId: `c${number}`,
      toolName: 'mine',
      data: { player: { credits: number }, ship: { cargo: [{ id: 'ore', n: number }] } },
      createdAt: at + 2,
      turn: number,
      round: 1,
    },
  ];
}

function build(history: Message[], currentTurnStart: number, older = new OlderTurns()): Message[] {
  return buildContext({ history, systemPrompt: 'sys', budgetTokens: 16_000, currentTurnStart, older });
}

describe('originalOf', () => {
  it('ties a copy to its original only when it writes the same JSON', () => {
    const history = [...turn(1), ...turn(2, { reply: 'x'.repeat(2_500) }), ...turn(3, { result: 'y'.repeat(9_000) })];
    const context = build(history, 6);
    let tied = 0;
    for (const message of context) {
      const original = originalOf(message);
      if (!original) continue;
      tied += 1;
      expect(message).not.toBe(original);
      expect(JSON.stringify(message)).toBe(JSON.stringify(original));
    }
    // All but the system message and the current turn's 9,000-char result, shortened to 8,000.
    expect(tied).toBe(context.length - 2);
    const long = context.find((message) => message.id === 't3');
    expect([long?.content.length, long && originalOf(long)]).toEqual([expect.any(Number), undefined]);
    expect(long!.content.length).toBeLessThan(9_000);
  });

  it('a copy made from a copy (spread, then changed) carries no original; the tie is no key of the copy', () => {
    const history = [...turn(1), ...turn(2)];
    for (const message of build(history, 3)) {
      const original = originalOf(message);
      if (!original) continue;
      expect(Object.keys(message)).toEqual(Object.keys(original));
      expect(Object.getOwnPropertySymbols(message)).toEqual([]);
      const edited = { ...message, content: `${message.content} (edited)` };
      expect(originalOf(edited)).toBeUndefined();
      expect(originalOf(structuredClone(message))).toBeUndefined();
    }
  });

  it('a short reply and turn input are the same JSON current and older; a long reply is shortened older', () => {
    const history = [...turn(1), ...turn(2, { reply: 'x'.repeat(2_500) })];
    const asCurrent = (id: string, start: number): string =>
      JSON.stringify(build(history, start).find((message) => message.id === id));
    const olderForm = (id: string): string => JSON.stringify(build(history, history.length).find((m) => m.id === id));
    expect(olderForm('a1')).toBe(asCurrent('a1', 0));
    expect(olderForm('u1')).toBe(asCurrent('u1', 0));
    expect(olderForm('a2')).not.toBe(asCurrent('a2', 3));
    expect(olderForm('a2').length).toBeLessThan(asCurrent('a2', 3).length);
    // A result is always shorter older (its data and state block go).
    expect(olderForm('t1')).not.toBe(asCurrent('t1', 0));
  });

  it('the serializer writes each message as JSON.stringify does, round after round, whatever a provider edits', () => {
    const history = [...turn(1), ...turn(2), ...turn(3)];
    const serializer = new RequestSerializer();
    const older = new OlderTurns();
    const first = build(history.slice(0, 3), 0, older);
    const firstJson = serializer.serialize(first, []).messages;
    expect(firstJson).toEqual(first.map((message) => JSON.stringify(message)));
    // A provider that edits what it was sent reaches neither history nor the next round's JSON (rule 3).
    (first[2] as Message).content = 'edited';
    ((first[2] as Message).toolCalls as Array<{ name: string }>)[0]!.name = 'edited';
    for (const start of [3, 6]) {
      const context = build(history, start, new OlderTurns());
      expect(serializer.serialize(context, []).messages).toEqual(context.map((message) => JSON.stringify(message)));
    }
    // Turn 1's reply sent as current and later as older is one and the same text: the request log stores it once.
    const later = build(history, 6);
    const reply = later.findIndex((message) => message.id === 'a1');
    expect(serializer.serialize(later, []).messages[reply]).toBe(firstJson[2]);
  });
});

describe('current-turn tool data in the context', () => {
  const withData = (data: unknown): Message[] => {
    const [user, assistant, tool] = turn(1);
    return [user!, assistant!, { ...tool!, data }];
  };
  const sentData = (data: unknown): { message: Message; data: unknown } => {
    const message = build(withData(data), 0).find((m) => m.role === 'tool')!;
    return { message, data: message.data };
  };

  it('is a deep copy that writes the same JSON, keys in order, an own "__proto__" key kept', () => {
    const data = JSON.parse(
      '{"z":1,"a":{"list":[1,{"b":[true,null,"x"]}],"n":-0.5},"__proto__":{"polluted":true},"empty":{},"e":[]}',
    ) as Record<string, unknown>;
    const { message, data: copy } = sentData(data);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(data));
    expect(copy).not.toBe(data);
    expect((copy as { a: unknown }).a).not.toBe(data.a);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy as object)).toEqual(['z', 'a', '__proto__', 'empty', 'e']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(originalOf(message)).toBeDefined();
  });

  it('copies what is not plain JSON as structuredClone does, and drops data it cannot copy', () => {
    const at = new Date(5);
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const { data } = sentData({ at, sparse, map: new Map([['k', 1]]) });
    const copy = data as { at: Date; sparse: unknown[]; map: Map<string, number> };
    expect(copy.at).toBeInstanceOf(Date);
    expect(copy.at).not.toBe(at);
    expect(copy.at.getTime()).toBe(5);
    expect(1 in copy.sparse).toBe(false);
    expect(copy.sparse).toHaveLength(3);
    expect(copy.map.get('k')).toBe(1);
    const { message } = sentData({ run: () => 1 });
    expect(message.data).toBeUndefined();
    expect(originalOf(message)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { messagesOfTurn } from '../../../../internal/llm/memory/session.js';
import type { Message } from '../../../../internal/shared/index.js';

const message = (id: string, turn: number | undefined): Message => ({
  id,
  role: 'user',
  content: id,
  createdAt: 0,
  ...(turn !== undefined ? { turn } : {}),
});

describe('messagesOfTurn', () => {
  it('returns the messages of that turn in order, as a filter over the whole history would', () => {
    const history = [
      message('a', 1),
      message('b', 2),
      message('c', 2),
      message('d', 3),
      message('e', undefined),
      message('f', 3),
    ];
    expect(messagesOfTurn(history, 3).map((m) => m.id)).toEqual(['d', 'f']);
    expect(messagesOfTurn(history, 3)).toEqual(history.filter((m) => m.turn === 3));
  });

  it('finds nothing for a turn that wrote nothing, and nothing in an empty history', () => {
    expect(messagesOfTurn([message('a', 1), message('b', 2)], 3)).toEqual([]);
    expect(messagesOfTurn([], 1)).toEqual([]);
  });
});

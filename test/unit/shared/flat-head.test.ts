// flatHead reads only a head of a long text, and must give exactly what flattening the whole text would.
import { describe, expect, it } from 'vitest';
import { flatHead } from '../../../internal/shared/index.js';

const whole = (text: string, max: number): string => text.replace(/\s+/g, ' ').trim().slice(0, max);

/** Texts made of words and whitespace runs of every kind, seeded so a failure can be replayed. */
function texts(seed: number, count: number): string[] {
  let state = seed;
  const next = (below: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % below;
  };
  const spaces = [' ', '  ', '\n', '\t \t', '\r\n', '\u00a0', ' '.repeat(300), '\n'.repeat(900)];
  const out: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const parts: string[] = [];
    const length = next(400);
    for (let part = 0; part < length; part += 1)
      parts.push(next(3) === 0 ? (spaces[next(spaces.length)] as string) : 'word'.slice(0, 1 + next(4)) + next(100));
    out.push(parts.join(''));
  }
  return out;
}

describe('flatHead', () => {
  it('equals flattening the whole text, for short, long and space-padded texts and every limit', () => {
    const cases = [
      ...texts(7, 300),
      '',
      '   ',
      ' a ',
      `${' '.repeat(5000)}x`,
      `x${' '.repeat(5000)}`,
      'a b'.repeat(2000),
    ];
    for (const text of cases)
      for (const max of [0, 1, 2, 10, 63, 64, 400, 2000])
        expect(flatHead(text, max), JSON.stringify([text.slice(0, 40), max])).toBe(whole(text, max));
  });
});

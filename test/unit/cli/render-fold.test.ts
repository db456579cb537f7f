// Repeated identical actions fold into one line on a terminal that can erase what it drew last.
import { describe, expect, it } from 'vitest';
import { TranscriptRenderer, type FoldTarget } from '../../../internal/cli/render.js';
import type { Message } from '../../../internal/shared/index.js';
import { displayWidth } from '../../../internal/cli/text.js';

/** A screen of whole lines: rewinding drops the last rows. */
function screen(canFold: boolean, width = 120) {
  const lines: string[] = [];
  const fold: FoldTarget = {
    get rowsWritten() {
      return lines.length;
    },
    rows: 40,
    rewind: (rows) => {
      lines.splice(lines.length - rows, rows);
      return true;
    },
  };
  const renderer = new TranscriptRenderer({
    sink: { line: (text) => lines.push(text), write: (text) => lines.push(text) },
    color: false,
    width: () => width,
    ...(canFold ? { fold } : {}),
  });
  let id = 0;
  const act = (name: string, args: object, result: string, options: { say?: string; isError?: boolean } = {}): void => {
    id += 1;
    const call = { id: `c${id}`, name, arguments: JSON.stringify(args) };
    renderer.assistantMessage({
      id: `a${id}`,
      role: 'assistant',
      content: options.say ?? '',
      toolCalls: [call],
      createdAt: id * 1000,
    });
    const message: Message = {
      id: `t${id}`,
      role: 'tool',
      content: result,
      toolCallId: call.id,
      toolName: name,
      createdAt: id * 1000 + 90,
      isError: options.isError ?? false,
    };
    renderer.toolResult(message);
  };
  return { lines, renderer, act };
}

const mined = (n: number): string =>
  `Mined ${n} Platinum Ore (platinum_ore). Deposit remaining: ${1200 - n}. +${n} mining xp.`;

describe('the compact fold of repeated actions', () => {
  it('draws mine ×4 with the ore summed, narration between repeats folded away', () => {
    const { lines, act, renderer } = screen(true);
    renderer.turnStart(3, { kind: 'autoplay', text: 'Play.' });
    for (const n of [6, 6, 6, 4]) act('spacemolt', { action: 'mine' }, mined(n), { say: `Mining (cargo ${n}/70).` });
    act('spacemolt', { action: 'travel', id: 'station' }, 'Arrived at the station.', { say: 'Cargo full.' });
    const tools = lines.filter((line) => line.startsWith('  ✓'));
    expect(tools).toHaveLength(2);
    expect(tools[0]).toMatch(
      /^ {2}✓ spacemolt action=mine ×4 → Mined 22 Platinum Ore \(platinum_ore\) in all 90ms each$/,
    );
    expect(tools[1]).toContain('action=travel');
    expect(lines.filter((line) => line.startsWith('captain › '))).toEqual([
      'captain › Mining (cargo 6/70).',
      'captain › Cargo full.',
    ]);
  });

  it('does not fold different arguments, an error, or across a turn', () => {
    const { lines, act, renderer } = screen(true);
    act('spacemolt', { action: 'mine' }, mined(6));
    act('spacemolt', { action: 'mine', id: 'other_belt' }, mined(6));
    act('spacemolt', { action: 'mine', id: 'other_belt' }, 'Error: cargo full', { isError: true });
    act('spacemolt', { action: 'mine', id: 'other_belt' }, mined(5));
    renderer.turnStart(2, { kind: 'autoplay', text: 'Play.' });
    act('spacemolt', { action: 'mine', id: 'other_belt' }, mined(5));
    const tools = lines.filter((line) => /^ {2}[✓✗]/.test(line));
    expect(tools).toHaveLength(5);
    expect(tools.some((line) => line.includes('×'))).toBe(false);
  });

  it('does not fold a result of another kind, nor when much was drawn between', () => {
    const { lines, act, renderer } = screen(true);
    act('spacemolt', { action: 'mine' }, mined(6));
    act('spacemolt', { action: 'mine' }, 'Nothing left to mine here.');
    act('spacemolt', { action: 'mine' }, mined(6));
    for (let i = 0; i < 5; i++) renderer.notice(`event ${i}`);
    act('spacemolt', { action: 'mine' }, mined(6));
    expect(lines.filter((line) => line.startsWith('  ✓'))).toHaveLength(4);
  });

  it('keeps the count and the time in view on a narrow terminal (the text is shortened)', () => {
    const { lines, act } = screen(true, 70);
    for (const n of [6, 6, 6]) act('spacemolt', { action: 'mine' }, mined(n));
    const folded = lines.filter((line) => line.startsWith('  ✓')).at(-1) ?? '';
    expect(folded).toMatch(/^ {2}✓ spacemolt action=mine ×3 → Mined 18 Platinum Ore.*… 90ms each$/);
    expect(displayWidth(folded)).toBeLessThanOrEqual(69);
  });

  it('draws every line where nothing can be erased (pipes, replay)', () => {
    const { lines, act } = screen(false);
    for (const n of [6, 6, 6]) act('spacemolt', { action: 'mine' }, mined(n));
    expect(lines.filter((line) => line.startsWith('  ✓'))).toHaveLength(3);
  });
});

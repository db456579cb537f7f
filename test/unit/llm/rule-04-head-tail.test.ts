// Rule 4: long results keep head and tail with a marker; a 50 KB result reaches the model with its tail.
import { describe, expect, it } from 'vitest';
import { runTurn, truncateHeadTail } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { newHistory } from './helpers.js';

describe('rule 4: truncation keeps head and tail', () => {
  it('keeps about 1/3 head and 2/3 tail within the limit, with a marker naming the omitted count', () => {
    const text = 'H'.repeat(5000) + 'M'.repeat(10_000) + 'T'.repeat(5000);
    const out = truncateHeadTail(text, 3000);
    expect(out.length).toBeLessThanOrEqual(3000);
    const marker = /\n\[… ([\d,]+) chars omitted …\]\n/.exec(out);
    expect(marker).not.toBeNull();
    const [head, tail] = out.split(marker?.[0] ?? '');
    expect(head?.length).toBeGreaterThan(900);
    expect(tail?.length).toBeGreaterThan(1900);
    expect(Number(marker?.[1]?.replaceAll(',', ''))).toBe(text.length - (head?.length ?? 0) - (tail?.length ?? 0));
    expect(out.startsWith('HHH')).toBe(true);
    expect(out.endsWith('TTT')).toBe(true);
  });

  it('returns short text untouched and never splits a surrogate pair', () => {
    expect(truncateHeadTail('short', 100)).toBe('short');
    const emoji = '🚀'.repeat(2000);
    const out = truncateHeadTail(emoji, 500);
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(out).not.toMatch(/(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it('sends a 50 KB tool result to the model with its tail, and stores it whole', async () => {
    const big =
      'start of a long market listing\n' + 'row of data\n'.repeat(4400) + 'TOTAL: 12,345 credits; WARNING: hull at 3%';
    expect(big.length).toBeGreaterThan(50_000);
    const game = new FakeGame([{ name: 'view_market', readOnly: true, result: big }]);
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'c1', name: 'view_market' }] },
      (request) => {
        const result = request.messages.find((message) => message.toolCallId === 'c1');
        expect(result?.content.endsWith('TOTAL: 12,345 credits; WARNING: hull at 3%')).toBe(true);
        expect(result?.content.startsWith('start of a long market listing')).toBe(true);
        expect(result?.content).toContain('chars omitted');
        expect(result?.content.length).toBeLessThanOrEqual(8000);
        return { content: 'noted' };
      },
    ]);
    const history = newHistory();
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: { kind: 'user', text: 'prices?' },
      systemPrompt: 's',
    });
    expect(result.outcome).toBe('answered');
    expect(history.snapshot().find((message) => message.toolCallId === 'c1')?.content).toBe(big);
  });
});

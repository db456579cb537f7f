// Older results of a grouped tool (SpaceMolt v2: `spacemolt` holds queries and actions) are stubbed by what each call
// was: an old status (a query) becomes a one-line stub, an old mine (an action) keeps its head and tail.
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import type { Message, ToolSpec } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { newHistory } from './helpers.js';

const grouped: ToolSpec = {
  name: 'spacemolt',
  description: 'core',
  readOnly: false,
  inputSchema: {
    type: 'object',
    properties: { action: { type: 'string', enum: ['get_status', 'mine'] } },
    required: ['action'],
  },
  actions: { get_status: 'query', mine: 'mutation' },
};

function earlierTurn(): Message[] {
  const long = (label: string): string => `${label} ${'x'.repeat(2000)} end of ${label}`;
  let n = 0;
  const at = (): number => (n += 1);
  return [
    { id: 'u1', role: 'user', content: 'turn one', turn: 1, createdAt: at() },
    {
      id: 'a1',
      role: 'assistant',
      content: '',
      turn: 1,
      createdAt: at(),
      toolCalls: [
        { id: 's', name: 'spacemolt', arguments: '{"action":"get_status"}' },
        { id: 'm', name: 'spacemolt', arguments: '{"action":"mine"}' },
      ],
    },
    {
      id: 't1',
      role: 'tool',
      toolCallId: 's',
      toolName: 'spacemolt',
      content: long('status'),
      data: { op: 'get_status' },
      turn: 1,
      createdAt: at(),
    },
    {
      id: 't2',
      role: 'tool',
      toolCallId: 'm',
      toolName: 'spacemolt',
      content: long('mined'),
      data: { op: 'mine' },
      turn: 1,
      createdAt: at(),
    },
    { id: 'a2', role: 'assistant', content: 'done', toolCalls: [], turn: 1, createdAt: at() },
  ];
}

describe('older results of a grouped tool', () => {
  it('stubs the old queries and keeps head and tail of the old actions', async () => {
    const game = new FakeGame([{ name: 'spacemolt', result: 'ok' }]);
    const provider = new ScriptedProvider([{ content: 'fine' }]);
    const history = newHistory(earlierTurn());
    await runTurn({
      provider,
      game,
      tools: [grouped],
      history,
      input: { kind: 'user', text: 'turn two' },
      systemPrompt: 's',
      turn: 2,
    });
    const sent = provider.requests[0]!.messages;
    expect(sent.find((m) => m.toolCallId === 's')?.content).toMatch(/^\[spacemolt result omitted: /);
    const mined = sent.find((m) => m.toolCallId === 'm')?.content ?? '';
    expect(mined).toMatch(/^mined /);
    expect(mined).toMatch(/end of mined$/);
  });
});

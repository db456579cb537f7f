// The runner measures each turn's context with its model's tokenizer: chosen from the provider's id (OpenAI-family ids
// get the real encoding, others chars/4) and chosen again when the provider is swapped between turns.
import { describe, expect, it } from 'vitest';
import { createHistory, createTokenCounter, toolTokens } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import type { Message } from '../../../internal/shared/index.js';
import { silentLogger } from '../../../internal/shared/index.js';
import { SessionRunner, type RunnerStore } from '../../../internal/session/index.js';
import { FakeGame } from '../../fakes/fake-game.js';

/** JSON-heavy game text: the real tokenizer counts ~1.7× what chars/4 guesses. */
function report(seed: number, entries: number): string {
  const pois = Array.from({ length: entries }, (_, index) => ({
    id: `poi_${seed}_${index}`,
    x: index * 137 - 500 + seed,
    y: 42 - index * 91,
    ore: { fe: index * 7, cu: 13 * index + seed },
  }));
  return JSON.stringify({ tick: 1000 + seed, pois });
}

function playedTurns(count: number): Message[] {
  const messages: Message[] = [];
  for (let turn = 1; turn <= count; turn += 1) {
    const at = messages.length;
    messages.push(
      { id: `u${turn}`, role: 'user', content: `tick ${turn}: ${report(turn, 6)}`, createdAt: at, turn },
      {
        id: `a${turn}`,
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `c${turn}`, name: 'scan', arguments: '{"r":5}' }],
        createdAt: at + 1,
        turn,
      },
      {
        id: `t${turn}`,
        role: 'tool',
        content: report(turn, 6),
        toolCallId: `c${turn}`,
        toolName: 'scan',
        createdAt: at + 2,
        turn,
      },
    );
  }
  return messages;
}

const CONTEXT_TOKENS = 1200;
const o200k = createTokenCounter('o200k_base');

function newRunner(modelId: string): { runner: SessionRunner; requests: () => ScriptedProvider['requests'] } {
  const game = new FakeGame([{ name: 'scan', readOnly: true, result: 'nothing new' }]);
  const store: RunnerStore = {
    recordUsage: async () => {},
    recordSnapshot: async () => {},
    recordTurn: async () => {},
  };
  let next = 0;
  const history = createHistory({ initial: playedTurns(60), newId: () => `h${++next}`, now: () => 10_000 + next });
  const provider = new ScriptedProvider([{ content: 'done' }], { id: modelId });
  const runner = new SessionRunner({
    sessionId: 's',
    sessionName: 't',
    store,
    history,
    provider,
    game,
    tools: game.specs(),
    systemPrompt: () => 'You are a captain.',
    maxRounds: 3,
    logger: silentLogger,
    contextTokens: CONTEXT_TOKENS,
  });
  return { runner, requests: () => provider.requests };
}

async function sentTokens(modelId: string): Promise<number> {
  const { runner, requests } = newRunner(modelId);
  const summary = await runner.run({ kind: 'user', text: `scan here: ${report(99, 12)}` });
  expect(summary.outcome).toBe('answered');
  const request = requests()[0];
  if (!request) throw new Error('no request sent');
  return o200k.messages(request.messages) + toolTokens(request.tools, o200k);
}

describe('the runner picks the token counter from the model id', () => {
  it('fits an OpenAI model context to the real tokenizer; another model gets chars/4 (which overfills this text)', async () => {
    expect(await sentTokens('openai/gpt-4o-mini')).toBeLessThanOrEqual(CONTEXT_TOKENS);
    expect(await sentTokens('scripted/test')).toBeGreaterThan(CONTEXT_TOKENS);
  });

  it('chooses again when the provider is swapped between turns', async () => {
    const { runner, requests } = newRunner('scripted/test');
    await runner.run({ kind: 'user', text: `scan here: ${report(98, 12)}` });
    runner.useModel(new ScriptedProvider([{ content: 'done' }], { id: 'openai/gpt-4o' }));
    const swapped = runner.provider as ScriptedProvider;
    await runner.run({ kind: 'user', text: `scan here: ${report(99, 12)}` });
    const before = requests()[0];
    const after = swapped.requests[0];
    if (!before || !after) throw new Error('no request sent');
    expect(o200k.messages(before.messages)).toBeGreaterThan(CONTEXT_TOKENS);
    expect(o200k.messages(after.messages) + toolTokens(after.tools, o200k)).toBeLessThanOrEqual(CONTEXT_TOKENS);
  });
});

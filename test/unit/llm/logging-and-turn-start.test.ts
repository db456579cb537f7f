// Logs carry turn and round ids but never tool arguments (login/register carry passwords, rule 14); a user line
// appended by the caller just before a turn without `input` still counts as the current turn.
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import type { Logger } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { newHistory } from './helpers.js';

function recordingLogger(lines: string[], bindings: Record<string, unknown> = {}): Logger {
  const write = (object: object, message?: string): void => {
    lines.push(JSON.stringify({ ...bindings, ...object, message }));
  };
  return {
    debug: write,
    info: write,
    warn: write,
    error: write,
    child: (more) => recordingLogger(lines, { ...bindings, ...more }),
  };
}

describe('logging', () => {
  it('logs rounds and tools with ids, never the arguments', async () => {
    const secret = 'f'.repeat(64);
    const game = new FakeGame([{ name: 'login', result: 'Logged in as nova' }]);
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'login', arguments: { username: 'nova', password: secret } }] },
      { content: 'in' },
    ]);
    const lines: string[] = [];
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history: newHistory(),
      systemPrompt: 's',
      input: { kind: 'user', text: 'log in' },
      logger: recordingLogger(lines),
      turn: 4,
    });
    expect(result.outcome).toBe('answered');
    const all = lines.join('\n');
    expect(all).not.toContain(secret);
    const toolLine = lines.find((line) => line.includes('"tool":"login"'));
    expect(toolLine).toBeDefined();
    expect(JSON.parse(toolLine ?? '{}')).toMatchObject({ turn: 4, round: 1 });
  });
});

describe('turn start without input', () => {
  it('keeps a user line appended just before the turn inside the current turn, even with a tiny budget', async () => {
    const history = newHistory();
    for (let i = 0; i < 50; i += 1) {
      await history.append({ role: 'user', content: `old question ${i} `.repeat(50) });
      await history.append({ role: 'assistant', content: `old answer ${i} `.repeat(50) });
    }
    await history.append({ role: 'user', content: 'the question that matters now' });
    const provider = new ScriptedProvider([
      (request) => {
        expect(request.messages.at(-1)?.content).toBe('the question that matters now');
        return { content: 'answer' };
      },
    ]);
    const result = await runTurn({
      provider,
      game: new FakeGame([]),
      tools: [],
      history,
      systemPrompt: 's',
      contextTokens: 300,
    });
    expect(result.outcome).toBe('answered');
  });
});

describe('event listeners', () => {
  it('a listener that throws does not end the turn or leave calls unanswered', async () => {
    const game = new FakeGame([{ name: 'get_status', readOnly: true }]);
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'get_status' }] }, { content: 'fine' }]);
    const lines: string[] = [];
    const history = newHistory();
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      systemPrompt: 's',
      logger: recordingLogger(lines),
      onEvent: () => {
        throw new Error('render bug');
      },
    });
    expect(result.outcome).toBe('answered');
    expect(history.snapshot().filter((message) => message.role === 'tool')).toHaveLength(1);
    expect(lines.some((line) => line.includes('render bug'))).toBe(true);
  });
});

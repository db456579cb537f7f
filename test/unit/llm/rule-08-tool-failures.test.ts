// Rule 8: tool failures become results the model reads; they never end the turn.
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { AbortedError, SkipperError, type Message } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { expectValidTranscript, newHistory } from './helpers.js';

const resultFor = (messages: Message[], id: string): Message | undefined =>
  messages.find((message) => message.toolCallId === id);

describe('rule 8: tool failures become tool results', () => {
  it('answers unknown tools, bad JSON, non-object JSON, empty names and game exceptions with readable errors', async () => {
    const game = new FakeGame([
      { name: 'get_status', readOnly: true, result: 'fine' },
      { name: 'explode', throws: new SkipperError('server_error', 'the game server broke') },
      { name: 'slow', throws: new AbortedError('per-call timeout') },
      { name: 'mine', result: { text: 'no_resources: nothing to mine here', isError: true, code: 'no_resources' } },
    ]);
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { id: 'u', name: 'warp_drive', arguments: {} },
          { id: 'j', name: 'get_status', arguments: '{"broken": ' },
          { id: 'a', name: 'get_status', arguments: '[1,2]' },
          { id: 'e', name: '', arguments: '{}' },
          { id: 'x', name: 'explode', arguments: {} },
          { id: 't', name: 'slow', arguments: {} },
          { id: 'g', name: 'mine', arguments: {} },
          { id: 'ok', name: 'get_status', arguments: '' },
        ],
      },
      (request) => {
        const sent = request.messages;
        expect(resultFor(sent, 'u')?.content).toMatch(/unknown tool "warp_drive".*get_status/);
        expect(resultFor(sent, 'j')?.content).toMatch(/not valid JSON.*send an object/);
        expect(resultFor(sent, 'a')?.content).toMatch(/must be a JSON object, got an array/);
        expect(resultFor(sent, 'e')?.content).toMatch(/no name/);
        expect(resultFor(sent, 'x')?.content).toMatch(/explode failed: the game server broke/);
        expect(resultFor(sent, 't')?.content).toMatch(/timed out/);
        expect(resultFor(sent, 'g')?.content).toBe('no_resources: nothing to mine here');
        expect(resultFor(sent, 'ok')?.content).toBe('fine');
        return { content: 'I will fix my calls.' };
      },
    ]);
    const history = newHistory();
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: { kind: 'user', text: 'go' },
      systemPrompt: 's',
    });
    expect(result.outcome).toBe('answered');
    expect(result.toolCalls).toBe(8);
    expect(result.failedToolCalls).toBe(7);
    expect(result.errorsByCode).toEqual({
      unknown_tool: 2,
      invalid_arguments: 2,
      server_error: 1,
      timeout: 1,
      no_resources: 1,
    });
    // Invalid calls never reach the game.
    expect(game.calls.map((call) => call.name).sort()).toEqual(['explode', 'get_status', 'mine', 'slow']);
    const stored = history.snapshot();
    for (const id of ['u', 'j', 'a', 'e', 'x', 't', 'g']) expect(resultFor(stored, id)?.isError).toBe(true);
    expect(resultFor(stored, 'ok')?.isError).toBe(false);
    expectValidTranscript(stored);
  });

  it('dispatches local tools (memory) like queries, with the game untouched', async () => {
    const game = new FakeGame([{ name: 'get_status', readOnly: true }]);
    const remembered: unknown[] = [];
    const provider = new ScriptedProvider([
      (request) => {
        expect(request.tools.map((tool) => tool.name)).toEqual(['get_status', 'remember']);
        return { toolCalls: [{ id: 'r', name: 'remember', arguments: { note: 'iron sells at Sol' } }] };
      },
      { content: 'noted' },
    ]);
    const history = newHistory();
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      systemPrompt: 's',
      input: { kind: 'user', text: 'remember this' },
      localTools: [
        {
          spec: { name: 'remember', description: 'save a note', inputSchema: { type: 'object' }, readOnly: false },
          run: async (args) => {
            remembered.push(args);
            return { text: 'saved', isError: false };
          },
        },
      ],
    });
    expect(result.outcome).toBe('answered');
    expect(remembered).toEqual([{ note: 'iron sells at Sol' }]);
    expect(game.calls).toHaveLength(0);
    expect(resultFor(history.snapshot(), 'r')?.content).toBe('saved');
  });
});

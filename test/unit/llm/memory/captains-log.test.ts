// The handoff mirror into the game's captain's log, and the turn-facts collector that feeds recordTurn.
import { describe, expect, it } from 'vitest';
import { clipBytes, collectTurnFacts, errorCode, mirrorHandoff } from '../../../../internal/llm/memory/index.js';
import type { ToolSpec } from '../../../../internal/shared/index.js';
import { FakeGame } from '../../../fakes/fake-game.js';

const spec = (name: string, readOnly: boolean): ToolSpec => ({
  name,
  description: name,
  inputSchema: { type: 'object' },
  readOnly,
});

describe('mirrorHandoff', () => {
  it('calls captains_log_add with the entry when the game has it', async () => {
    const game = new FakeGame([{ name: 'captains_log_add', result: 'logged' }]);
    const result = await mirrorHandoff(game, game.specs(), '  Last session: 3 turns.  ');
    expect(result).toEqual({ mirrored: true });
    expect(game.calls.map((call) => [call.name, call.args])).toEqual([
      ['captains_log_add', { entry: 'Last session: 3 turns.' }],
    ]);
  });

  it("goes through the game connection's writeLog when it has one (the connection knows the game's spelling)", async () => {
    const written: string[] = [];
    const game = {
      call: async () => ({ text: 'wrong path', isError: true }),
      writeLog: async (entry: string) => {
        written.push(entry);
        return { text: 'Log entry #3 saved.', isError: false };
      },
    };
    expect(await mirrorHandoff(game, [], ' Sold iron. ')).toEqual({ mirrored: true });
    expect(written).toEqual(['Sold iron.']);
    const noLog = { call: game.call, writeLog: async () => undefined };
    expect(await mirrorHandoff(noLog, [], 'x')).toEqual({ mirrored: false, reason: 'the game has no captain’s log' });
  });

  it('does nothing without the tool, for empty text, or when the text holds a secret', async () => {
    const game = new FakeGame([{ name: 'captains_log_add', result: 'logged' }]);
    expect((await mirrorHandoff(game, [spec('get_status', true)], 'hello')).mirrored).toBe(false);
    expect((await mirrorHandoff(game, game.specs(), '   ')).mirrored).toBe(false);
    expect((await mirrorHandoff(game, game.specs(), 'pw is Orbit-9x', { secrets: ['orbit-9X'] })).mirrored).toBe(false);
    expect((await mirrorHandoff(game, game.specs(), `token ${'f'.repeat(64)}`)).mirrored).toBe(false);
    expect(game.calls).toHaveLength(0);
  });

  it('reports a game error and keeps entries within 30000 bytes', async () => {
    const failing = new FakeGame([
      { name: 'captains_log_add', result: { text: 'invalid_params: entry', isError: true, code: 'invalid_params' } },
    ]);
    expect(await mirrorHandoff(failing, failing.specs(), 'x')).toEqual({
      mirrored: false,
      reason: expect.stringContaining('invalid_params'),
    });
    const game = new FakeGame([{ name: 'captains_log_add', result: 'ok' }]);
    await mirrorHandoff(game, game.specs(), 'é'.repeat(20_000));
    const entry = String(game.calls[0]?.args.entry);
    expect(Buffer.byteLength(entry, 'utf8')).toBeLessThanOrEqual(30_000);
    expect(entry.length).toBeGreaterThan(14_000);
    expect(clipBytes('short', 30_000)).toBe('short');
  });
});

describe('collectTurnFacts', () => {
  it('keeps successful mutations and failed calls with their codes, skipping queries, memory tools and cancels', () => {
    const collector = collectTurnFacts([spec('jump', false), spec('get_status', true), spec('mine', false)]);
    const call = (name: string, args = '{}') => ({ id: name, name, arguments: args });
    const result = (text: string, isError: boolean, code?: string) => ({ text, isError, ...(code ? { code } : {}) });
    const event = (name: string, res: ReturnType<typeof result>, args?: string) =>
      ({
        type: 'tool-result',
        call: call(name, args),
        message: { id: 'x', role: 'tool', content: res.text, createdAt: 0 },
        result: res,
        ms: 1,
      }) as const;
    collector.onEvent(event('get_status', result('ok', false)));
    collector.onEvent(event('mine', result('mined 3', false)));
    collector.onEvent(event('jump', result('no_fuel: need 5', true), '{"target_system":"crimson"}'));
    collector.onEvent(event('jump', result('x', true, 'cancelled')));
    collector.onEvent(event('remember', result('refused', true, 'refused')));
    collector.onEvent({ type: 'round-start', round: 1 });
    expect(collector.facts()).toEqual({
      actions: ['mine'],
      errors: [{ tool: 'jump', code: 'no_fuel', args: '{"target_system":"crimson"}' }],
    });
    collector.reset();
    expect(collector.facts()).toEqual({ actions: [], errors: [] });
    expect(errorCode({ text: 'Something odd happened' })).toBe('error');
  });
});

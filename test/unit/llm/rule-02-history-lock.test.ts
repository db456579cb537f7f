// Rule 2: every history write goes through one mutex-guarded path that persists first, then publishes.
import { describe, expect, it, vi } from 'vitest';
import type { Message } from '../../../internal/shared/index.js';
import { SkipperError } from '../../../internal/shared/index.js';
import { createHistory, runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { FakeGame } from '../../fakes/fake-game.js';

describe('rule 2: every history write holds the lock', () => {
  it('serialises concurrent appends in call order, with ids and timestamps made by code', async () => {
    const persisted: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const history = createHistory({
      persist: async (message) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        // Later appends finish their I/O sooner: without the lock the order would flip.
        await new Promise((resolve) => setTimeout(resolve, message.content === 'a' ? 15 : 1));
        persisted.push(message.content);
        inFlight -= 1;
      },
    });
    // The I/O times run on a fake clock: the order they would produce is the same, without waiting for them.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let stored: Message[];
    try {
      const appends = Promise.all(['a', 'b', 'c'].map((content) => history.append({ role: 'user', content })));
      await vi.runAllTimersAsync();
      stored = await appends;
    } finally {
      vi.useRealTimers();
    }
    expect(maxInFlight).toBe(1);
    expect(persisted).toEqual(['a', 'b', 'c']);
    expect(history.snapshot().map((message) => message.content)).toEqual(['a', 'b', 'c']);
    expect(new Set(stored.map((message) => message.id)).size).toBe(3);
    for (const message of stored) expect(message.createdAt).toBeGreaterThan(0);
  });

  it('adds nothing when persisting fails, and the storage error ends the turn', async () => {
    let fail = false;
    const history = createHistory({
      persist: () => {
        if (fail) throw new SkipperError('store_write', 'disk full');
      },
    });
    await history.append({ role: 'user', content: 'kept' });
    fail = true;
    await expect(history.append({ role: 'user', content: 'lost' })).rejects.toThrow('disk full');
    expect(history.length).toBe(1);

    const game = new FakeGame([{ name: 'get_status', readOnly: true }]);
    const provider = new ScriptedProvider([{ content: 'hello' }]);
    await expect(
      runTurn({ provider, game, tools: game.specs(), history, input: { kind: 'user', text: 'hi' }, systemPrompt: 's' }),
    ).rejects.toThrow('disk full');
    expect(history.length).toBe(1);
  });

  it('hands out snapshots that are copies, with frozen messages', async () => {
    const history = createHistory({});
    await history.append({ role: 'assistant', content: 'x', toolCalls: [{ id: 'c', name: 'n', arguments: '{}' }] });
    const snapshot = history.snapshot();
    snapshot.push({ id: 'x', role: 'user', content: 'sneaky', createdAt: 1 });
    expect(history.length).toBe(1);
    const message = history.snapshot()[0] as Message;
    expect(Object.isFrozen(message)).toBe(true);
    expect(Object.isFrozen(message.toolCalls)).toBe(true);
    expect(() => {
      (message as { content: string }).content = 'edited';
    }).toThrow();
  });

  it('gives text-only assistant messages an empty tool-call list (rule 5)', async () => {
    const history = createHistory({});
    const message = await history.append({ role: 'assistant', content: 'just text' });
    expect(message.toolCalls).toEqual([]);
  });
});

describe('history window', () => {
  it('keeps recent whole turns in memory, trims only when a turn starts, and persists everything', async () => {
    const persisted: string[] = [];
    const history = createHistory({ window: 20, persist: (message) => void persisted.push(message.id) });
    for (let turn = 1; turn <= 30; turn += 1) {
      await history.append({ role: 'user', content: `turn ${turn}`, turn });
      await history.append({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `c${turn}`, name: 'mine', arguments: '{}' }],
        turn,
      });
      await history.append({ role: 'tool', content: 'ok', toolCallId: `c${turn}`, toolName: 'mine', turn });
      // Within a turn nothing is dropped: the turn's own messages are all there.
      const inMemory = history.snapshot();
      expect(inMemory.slice(-3).map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
      expect(inMemory.length).toBeLessThanOrEqual(20 + 5 + 3);
      expect(inMemory[0]?.role).toBe('user');
    }
    expect(persisted).toHaveLength(90);
    const kept = history.snapshot();
    expect(kept.at(-1)?.turn).toBe(30);
    // Every tool result in memory still has its call in memory.
    const calls = new Set(kept.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id)));
    for (const m of kept) if (m.role === 'tool') expect(calls.has(m.toolCallId ?? '')).toBe(true);
  });
});

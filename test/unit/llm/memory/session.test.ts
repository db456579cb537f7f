// sessionMemory: the hooks the CLI wires — block from goal + recent history, an episode per turn from the turn's
// stored messages, lessons when failures repeat, and the end-of-session handoff (model's or factual).
import { describe, expect, it } from 'vitest';
import { createMemory, sessionMemory } from '../../../../internal/llm/memory/index.js';
import type { Message, ToolSpec } from '../../../../internal/shared/index.js';
import { SPACEMOLT_LESSONS } from '../../../../internal/spacemolt/index.js';
import { FakeMemoryPort } from './fake-port.js';

const spec = (name: string, readOnly: boolean): ToolSpec => ({
  name,
  description: name,
  inputSchema: { type: 'object' },
  readOnly,
});
const tools = [spec('get_status', true), spec('jump', false), spec('mine', false)];
let next = 0;
const message = (fields: Partial<Message> & Pick<Message, 'role'>): Message => ({
  id: `m${++next}`,
  content: '',
  createdAt: 0,
  ...fields,
});

function failedJump(turn: number): Message[] {
  return [
    message({ role: 'user', content: 'jump to crimson', turn }),
    message({
      role: 'assistant',
      turn,
      toolCalls: [{ id: `j${turn}`, name: 'jump', arguments: '{"target_system":"crimson"}' }],
    }),
    message({
      role: 'tool',
      turn,
      toolCallId: `j${turn}`,
      toolName: 'jump',
      isError: true,
      content: 'no_fuel: need 5',
      data: { error: { code: 'no_fuel' } },
    }),
    message({ role: 'assistant', turn, content: 'no fuel', toolCalls: [] }),
  ];
}

describe('sessionMemory', () => {
  it('records each turn from its messages, learns from repeats, and leaves a factual handoff', async () => {
    const port = new FakeMemoryPort();
    const memory = createMemory({
      port,
      captain: 'embedded#nova',
      secrets: () => [],
      lessons: () => SPACEMOLT_LESSONS,
    });
    const messages: Message[] = [];
    const hooks = sessionMemory({ memory, messages: () => messages, tools, goal: () => 'reach crimson' });
    expect(await hooks.memoryBlock()).toBeUndefined();
    // The block loaded the captain's memory first.
    expect(port.listCalls).toBe(1);

    messages.push(...failedJump(1));
    expect(
      (await hooks.turnEnded({ turn: 1, outcome: 'answered', before: { credits: 100 }, after: { credits: 100 } }))
        .lessons,
    ).toEqual([]);
    messages.push(...failedJump(2));
    const second = await hooks.turnEnded({ turn: 2, outcome: 'answered', after: { credits: 90 } });
    expect(second.lessons.map((lesson) => lesson.key)).toEqual(['no_fuel:jump']);
    // Only turn 2's messages went into turn 2's episode.
    expect((await port.get(second.episodeId ?? -1))?.text).toBe(
      'Goal "reach crimson": answered; errors: no_fuel on jump.',
    );

    const end = await hooks.endSession({
      state: {
        credits: 90,
        location: 'Sol / Sol Central',
        docked: true,
        fuel: 2,
        maxFuel: 100,
        cargoUsed: 0,
        cargoCapacity: 70,
      },
    });
    expect(end.text).toBe(
      'Last session: 2 turns, credits 100→90, at Sol / Sol Central (docked), fuel 2/100, cargo 0/70, watch out for no_fuel on jump (2×).',
    );
    expect(end.result.ok).toBe(true);
    const block = (await hooks.memoryBlock()) ?? '';
    expect(block).toContain(end.text);
    expect(block).toContain('Avoid jumping on a low tank');
  });

  it("keeps the model's handoff when it is clean, and falls back to the factual one when it holds a secret", async () => {
    const port = new FakeMemoryPort();
    const memory = createMemory({ port, captain: 'embedded#nova', secrets: () => ['Pass-Word-1'] });
    const hooks = sessionMemory({ memory, messages: () => [], tools });
    expect((await hooks.endSession({ text: 'Docked at Sol; next: sell iron.' })).text).toBe(
      'Docked at Sol; next: sell iron.',
    );
    const fallback = await hooks.endSession({ text: 'login with pass-word-1', state: { credits: 5 } });
    expect(fallback.text).toBe('Last session: 0 turns, credits 5.');
    expect(JSON.stringify([...port.rows.values()]).toLowerCase()).not.toContain('pass-word-1');
  });
});

describe('sessionMemory, memory not loaded yet', () => {
  it('memoryBlock loads the memory before it builds the block', async () => {
    const port = new FakeMemoryPort();
    port.addNow({ captain: 'embedded#nova', kind: 'note', text: 'Crimson needs a full tank' });
    const memory = createMemory({ port, captain: 'embedded#nova', secrets: () => [] });
    const hooks = sessionMemory({ memory, messages: () => [], tools, goal: () => 'reach crimson' });
    expect(memory.block({ goal: 'reach crimson' })).toBe('');
    expect(await hooks.memoryBlock()).toContain('Crimson needs a full tank');
    await memory.settled();
    expect((await port.get(1))?.uses).toBe(1);
  });
});

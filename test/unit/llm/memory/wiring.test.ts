// wireCaptainMemory: memory follows whoever is logged in, loads that captain's memory before the block or /memory
// shows it, writes turns and handoffs through the asynchronous port, and reports failed background writes.
import { describe, expect, it } from 'vitest';
import { wireCaptainMemory } from '../../../../internal/session/memory-session.js';
import type { Game, Message, ToolSpec } from '../../../../internal/shared/index.js';
import { FakeMemoryPort } from './fake-port.js';

const tools: ToolSpec[] = [{ name: 'jump', description: 'jump', inputSchema: { type: 'object' }, readOnly: false }];
const game: Pick<Game, 'call' | 'writeLog'> = { call: async () => ({ text: 'ok', isError: false }) };

function wire(port: FakeMemoryPort, onWriteError?: (error: unknown) => void) {
  const login = { username: undefined as string | undefined };
  const messages: Message[] = [];
  const wiring = wireCaptainMemory({
    port,
    gameLabel: 'embedded',
    username: () => login.username,
    secrets: () => ['Pass-Word-1'],
    messages: () => messages,
    tools,
    goal: () => 'reach crimson',
    ...(onWriteError ? { onWriteError } : {}),
  });
  return { wiring, login, messages };
}

describe('wireCaptainMemory', () => {
  it('has nothing before a login, then loads the captain and builds the block', async () => {
    const port = new FakeMemoryPort();
    port.addNow({ captain: 'embedded#nova', kind: 'note', text: 'Crimson needs a full tank' });
    port.addNow({ captain: 'embedded#vega', kind: 'note', text: 'VEGA-ONLY crimson route' });
    const { wiring, login } = wire(port);
    expect(await wiring.memoryBlock()).toBeUndefined();
    expect(await wiring.show()).toMatch(/^No captain logged in yet/);
    expect(port.listCalls).toBe(0);
    const remember = wiring.localTools().find((tool) => tool.spec.name === 'remember');
    expect(await remember?.run({ text: 'x' })).toMatchObject({ isError: true, code: 'not_authenticated' });

    login.username = 'nova';
    const block = (await wiring.memoryBlock()) ?? '';
    expect(block).toContain('Crimson needs a full tank');
    expect(block).not.toContain('VEGA-ONLY');
    expect(await wiring.show()).toContain('Crimson needs a full tank');
    expect(port.listCalls).toBe(1);
    await wiring.settled();
    expect((await port.get(1))?.uses).toBe(1);
    expect(await remember?.run({ text: 'Sol sells iron' })).toMatchObject({ isError: false });
    expect(port.texts('embedded#nova')).toContain('Sol sells iron');
  });

  it('writes the turn and the handoff for the captain logged in', async () => {
    const port = new FakeMemoryPort();
    const { wiring, login, messages } = wire(port);
    login.username = 'nova';
    messages.push(
      {
        id: 'a',
        role: 'assistant',
        content: '',
        createdAt: 0,
        turn: 1,
        toolCalls: [{ id: 'j', name: 'jump', arguments: '{}' }],
      },
      { id: 't', role: 'tool', content: 'ok', createdAt: 0, turn: 1, toolCallId: 'j', toolName: 'jump' },
    );
    await wiring.turnEnded({ turn: 1, outcome: 'answered', before: { credits: 10 }, after: { credits: 12 } });
    expect(port.rowsOf('embedded#nova', { kind: 'episode' })).toHaveLength(1);
    const text = await wiring.endSession({ mirror: false, game, state: { credits: 12 } });
    expect(text).toBe('Last session: 1 turn, credits 10→12.');
    expect(port.rowsOf('embedded#nova', { kind: 'handoff' }).map((row) => row.text)).toEqual([text]);
    login.username = undefined;
    expect(await wiring.endSession({ mirror: false, game })).toBeUndefined();
  });

  it('reports failed background writes through onWriteError, once each', async () => {
    const port = new FakeMemoryPort();
    port.addNow({ captain: 'embedded#nova', kind: 'note', text: 'Crimson needs a full tank' });
    const errors: unknown[] = [];
    const { wiring, login } = wire(port, (error) => errors.push(error));
    login.username = 'nova';
    port.touchError = new Error('store_unavailable');
    expect(await wiring.memoryBlock()).toContain('Crimson');
    await wiring.settled();
    expect(errors).toEqual([port.touchError]);
  });
});

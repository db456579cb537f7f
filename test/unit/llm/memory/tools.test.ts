// The memory tools as the model meets them: remember refuses secrets, recall finds by keyword, forget is final,
// and two captains never see each other's entries.
import { describe, expect, it } from 'vitest';
import { createMemory, type CaptainMemory } from '../../../../internal/llm/memory/index.js';
import type { ToolResult } from '../../../../internal/shared/index.js';
import { FakeMemoryPort } from './fake-port.js';

const PASSWORD = 'Hunter2-Orbit';
const HEX = 'ab'.repeat(32);

function setup(
  port = new FakeMemoryPort(),
  captain = 'embedded#nova',
): {
  port: FakeMemoryPort;
  memory: CaptainMemory;
  call: (name: string, args: Record<string, unknown>) => Promise<ToolResult>;
} {
  const memory = createMemory({ port, captain, secrets: () => [PASSWORD, 'sk-test-key-123'], now: () => 10_000 });
  const tools = new Map(memory.localTools().map((tool) => [tool.spec.name, tool]));
  const call = (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const tool = tools.get(name);
    if (!tool) throw new Error(`no tool ${name}`);
    return tool.run(args);
  };
  return { port, memory, call };
}

describe('memory tools', () => {
  it('offers remember, recall and forget with schemas', () => {
    const { memory } = setup();
    const specs = memory.localTools().map((tool) => tool.spec);
    expect(specs.map((spec) => spec.name)).toEqual(['remember', 'recall', 'forget']);
    for (const spec of specs) expect(spec.inputSchema.required?.length).toBe(1);
  });

  it('remember stores a note with tags and recall finds it by keyword', async () => {
    const { port, memory, call } = setup();
    const stored = await call('remember', { text: 'Iron ore sells best at Crimson Forge', tags: ['trade', 'iron'] });
    expect(stored.isError).toBe(false);
    expect(stored.text).toMatch(/#1/);
    await call('remember', { text: 'Pirates ambush near the Outer Rim gate' });
    expect((await call('remember', { text: 'pirates ambush near the outer rim gate ' })).text).toBe(
      'Already remembered as #2.',
    );
    expect(await port.list('embedded#nova', { kind: 'note' })).toHaveLength(2);
    const found = await call('recall', { query: 'where to sell iron?' });
    expect(found.isError).toBe(false);
    expect(found.text).toContain('Crimson Forge');
    expect(found.text).not.toContain('Pirates');
    // recall marks what it found used: in the store once the background write settled.
    await memory.settled();
    expect((await port.get(1))?.uses).toBe(1);
    expect(memory.entries()[0]?.uses).toBe(1);
    const none = await call('recall', { query: 'quantum' });
    expect(none.text).toMatch(/Nothing in memory/);
  });

  it('remember refuses the game password (any case), API keys and 64-hex tokens, and stores nothing', async () => {
    const { port, call } = setup();
    for (const text of [
      `my password is ${PASSWORD}`,
      `pw ${PASSWORD.toUpperCase()}`,
      'key sk-TEST-key-123',
      `token ${HEX}`,
    ]) {
      const result = await call('remember', { text });
      expect(result).toMatchObject({ isError: true, code: 'refused' });
    }
    const tagged = await call('remember', { text: 'harmless', tags: [PASSWORD] });
    expect(tagged.code).toBe('refused');
    expect(port.rows.size).toBe(0);
  });

  it('rejects bad arguments as results the model can read', async () => {
    const { call } = setup();
    expect(await call('remember', {})).toMatchObject({ isError: true, code: 'invalid_params' });
    expect(await call('remember', { text: 'x'.repeat(1001) })).toMatchObject({ isError: true, code: 'invalid_params' });
    expect(await call('forget', { id: 'abc' })).toMatchObject({ isError: true, code: 'invalid_params' });
  });

  it('forget removes an entry for good: gone from the store, recall and the block, even in a new memory', async () => {
    const { port, memory, call } = setup();
    await call('remember', { text: 'Sell copper at Sol Central' });
    await call('remember', { text: 'Copper price drops after noon' });
    expect(memory.block({ goal: 'copper' })).toContain('Sol Central');
    const result = await call('forget', { id: 1 });
    expect(result).toMatchObject({ isError: false });
    expect(await port.get(1)).toBeUndefined();
    expect((await call('recall', { query: 'copper' })).text).not.toContain('Sol Central');
    expect(memory.block({ goal: 'copper' })).not.toContain('Sol Central');
    const fresh = setup(port).memory;
    await fresh.load();
    expect(fresh.block({ goal: 'copper' })).not.toContain('Sol Central');
    expect(await call('forget', { id: 1 })).toMatchObject({ isError: true, code: 'not_found' });
  });

  it('keeps captains apart: no recall, no block, no forget across captains', async () => {
    const port = new FakeMemoryPort();
    const nova = setup(port, 'embedded#nova');
    const vega = setup(port, 'embedded#vega');
    await nova.call('remember', { text: 'Nova secret route via crimson lane' });
    await vega.call('remember', { text: 'Vega likes the nebula market' });
    expect((await nova.memory.writeHandoff('Nova handoff: docked at Sol')).ok).toBe(true);
    expect((await vega.call('recall', { query: 'crimson route lane' })).text).toMatch(/Nothing/);
    const vegaBlock = vega.memory.block({ goal: 'crimson route nova handoff' });
    expect(vegaBlock).not.toContain('Nova');
    expect(vegaBlock).toContain('nebula');
    expect(await vega.call('forget', { id: 1 })).toMatchObject({ isError: true, code: 'not_found' });
    expect((await port.get(1))?.text).toContain('Nova');
    // Same username on another game is another captain.
    const other = setup(port, 'https://game.spacemolt.com/mcp#nova');
    await other.memory.load();
    expect(other.memory.block({ goal: 'crimson route' })).toBe('');
  });
});

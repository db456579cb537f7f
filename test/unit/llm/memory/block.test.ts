// The memory block: ranked by overlap with the goal, filled in priority order (latest handoff, lessons, notes,
// episodes), never over budget, never carrying a secret, and marking what it used.
import { describe, expect, it } from 'vitest';
import { BLOCK_HEADING, createMemory, EntryIndex, topK } from '../../../../internal/llm/memory/index.js';
import { FakeMemoryPort, loadedMemory, seeded } from './fake-port.js';
import type { MemoryKind } from '../../../../internal/llm/memory/index.js';

const CAPTAIN = 'embedded#nova';
/** The budget's definition (chars/4), written out here independently of the code under test. */
const estimateTokensForTest = (text: string): number => Math.ceil(text.length / 4);
const HOUR = 3_600_000;

describe('memory block', () => {
  it('is empty when there is nothing to remember', async () => {
    const memory = await loadedMemory({ port: new FakeMemoryPort(), captain: CAPTAIN, secrets: () => [] });
    expect(memory.block({ goal: 'mine' })).toBe('');
  });

  it('sees nothing before load() resolved, and everything after', async () => {
    const port = new FakeMemoryPort();
    port.addNow({ captain: CAPTAIN, kind: 'note', text: 'iron at belt 2' });
    let release = (): void => undefined;
    port.listGate = new Promise<void>((resolve) => (release = resolve));
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [] });
    expect(memory.block({ goal: 'iron' })).toBe('');
    expect(memory.entries()).toEqual([]);
    const loading = memory.load();
    expect(memory.preview({ goal: 'iron' }).text).toBe('');
    release();
    await loading;
    expect(memory.preview({ goal: 'iron' }).text).toContain('iron at belt 2');
    expect(memory.entries().map((entry) => entry.id)).toEqual([1]);
    // Nothing was marked used before the cache was there.
    expect(port.touchCalls).toEqual([]);
  });

  it('shares one read between concurrent loads, and load() after it reads nothing again', async () => {
    const port = new FakeMemoryPort();
    port.addNow({ captain: CAPTAIN, kind: 'note', text: 'iron at belt 2' });
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [] });
    await Promise.all([memory.load(), memory.load(), memory.load()]);
    expect(port.listCalls).toBe(1);
    await memory.load();
    expect(port.listCalls).toBe(1);
    expect(memory.entries()).toHaveLength(1);
  });

  it('retries a load that failed', async () => {
    const port = new FakeMemoryPort();
    port.addNow({ captain: CAPTAIN, kind: 'note', text: 'iron at belt 2' });
    port.listGate = Promise.reject(new Error('store_unavailable'));
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [] });
    await expect(memory.load()).rejects.toThrow('store_unavailable');
    expect(memory.entries()).toEqual([]);
    port.listGate = undefined;
    await memory.load();
    expect(port.listCalls).toBe(2);
    expect(memory.entries()).toHaveLength(1);
  });

  it('ranks notes by keyword overlap with the goal and recent text', async () => {
    const port = new FakeMemoryPort();
    const now = 100 * HOUR;
    for (let index = 0; index < 30; index += 1) {
      port.addNow({
        captain: CAPTAIN,
        kind: 'note',
        text: `Filler note number ${index} about weather and songs`,
        createdAt: now,
      });
    }
    port.addNow({
      captain: CAPTAIN,
      kind: 'note',
      text: 'Titanium sells for 40 at Nebula Prospect market',
      createdAt: now - 50 * HOUR,
    });
    port.addNow({
      captain: CAPTAIN,
      kind: 'note',
      text: 'The crimson lane needs a full tank',
      createdAt: now - 50 * HOUR,
    });
    // A budget that fits the header and a handful of lines only.
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [], budgetTokens: 150, now: () => now });
    const block = memory.preview({ goal: 'sell titanium', recentText: 'docked at Nebula' }).text;
    expect(block).toContain('Titanium sells for 40');
    const lines = block.split('\n').filter((line) => line.startsWith('- #'));
    expect(lines[0]).toContain('Titanium');
    const other = memory
      .preview({ goal: 'jump to crimson' })
      .text.split('\n')
      .filter((line) => line.startsWith('- #'));
    expect(other[0]).toContain('crimson lane');
  });

  it('prefers recent and failure-derived entries when relevance ties', async () => {
    const port = new FakeMemoryPort();
    const now = 1000 * HOUR;
    port.addNow({
      captain: CAPTAIN,
      kind: 'episode',
      text: 'Mined iron, sold ten',
      outcome: 'success',
      createdAt: now - 200 * HOUR,
    });
    port.addNow({
      captain: CAPTAIN,
      kind: 'episode',
      text: 'Mined iron, sold twelve',
      outcome: 'success',
      createdAt: now - HOUR,
    });
    port.addNow({
      captain: CAPTAIN,
      kind: 'episode',
      text: 'Mined iron, hold full',
      outcome: 'failure',
      createdAt: now - 200 * HOUR,
    });
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [], now: () => now });
    const lines = memory
      .preview({ goal: 'iron' })
      .text.split('\n')
      .filter((line) => line.startsWith('- #'));
    expect(lines.map((line) => line.match(/#(\d+)/)?.[1])).toEqual(['2', '3', '1']);
  });

  it('shows entries that differ only in their numbers once, leaving room for others', async () => {
    const port = new FakeMemoryPort();
    for (let index = 0; index < 50; index += 1)
      port.addNow({ captain: CAPTAIN, kind: 'episode', text: `Mined iron ×${index}, sold ${index * 3}` });
    port.addNow({ captain: CAPTAIN, kind: 'episode', text: 'Jumped to crimson, no_fuel twice', outcome: 'failure' });
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [] });
    const lines = memory
      .preview({ goal: 'mined iron sold' })
      .text.split('\n')
      .filter((line) => line.startsWith('- #'));
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).toContain('crimson');
  });

  it('fills in priority order: latest handoff only, then lessons, notes, episodes', async () => {
    const port = new FakeMemoryPort();
    port.addNow({ captain: CAPTAIN, kind: 'episode', text: 'Episode: mined ore at belt' });
    port.addNow({ captain: CAPTAIN, kind: 'note', text: 'Note: ore sells at Sol' });
    port.addNow({ captain: CAPTAIN, kind: 'handoff', text: 'OLD handoff from two sessions ago' });
    port.addNow({ captain: CAPTAIN, kind: 'lesson', text: 'Avoid mining with a full hold', outcome: 'failure' });
    port.addNow({ captain: CAPTAIN, kind: 'handoff', text: 'NEW handoff: docked at Sol Central, 300 credits' });
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [] });
    const block = memory.preview({ goal: 'ore' }).text;
    expect(block.startsWith(BLOCK_HEADING)).toBe(true);
    expect(block).not.toContain('OLD handoff');
    const order = ['NEW handoff', 'Avoid mining', 'Note: ore', 'Episode: mined'].map((text) => block.indexOf(text));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Under a tight budget the lower priorities are the ones dropped.
    const tight = (await loadedMemory({ port, captain: CAPTAIN, secrets: () => [], budgetTokens: 110 })).preview({
      goal: 'ore',
    }).text;
    expect(tight).toContain('NEW handoff');
    expect(tight).not.toContain('Episode: mined');
  });

  it('never exceeds its budget, over many random memories and budgets', async () => {
    const random = seeded(42);
    const words = [
      'iron',
      'fuel',
      'jump',
      'sell',
      'crimson',
      'nebula',
      'pirates',
      'dock',
      'market',
      'ore',
      'cargo',
      'travel',
    ];
    const kinds: MemoryKind[] = ['note', 'episode', 'lesson', 'handoff'];
    for (let trial = 0; trial < 60; trial += 1) {
      const port = new FakeMemoryPort();
      const count = Math.floor(random() * 300);
      for (let index = 0; index < count; index += 1) {
        const length = 1 + Math.floor(random() * (random() < 0.1 ? 2000 : 40));
        const text = Array.from({ length }, () => words[Math.floor(random() * words.length)]).join(' ');
        const kind = kinds[Math.floor(random() * kinds.length)] as MemoryKind;
        port.addNow({
          captain: CAPTAIN,
          kind,
          text,
          tags: random() < 0.3 ? ['x'.repeat(Math.floor(random() * 30) + 1)] : [],
          createdAt: Math.floor(random() * 1e9),
          outcome: random() < 0.5 ? 'failure' : null,
        });
      }
      const budgetTokens = 20 + Math.floor(random() * 2000);
      const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [], budgetTokens, now: () => 1e9 });
      const report = memory.preview({ goal: words.slice(0, Math.floor(random() * 6)).join(' ') });
      expect(estimateTokensForTest(report.text)).toBeLessThanOrEqual(budgetTokens);
      expect(report.tokens).toBe(estimateTokensForTest(report.text));
      if (count > 0 && budgetTokens > 300) expect(report.ids.length).toBeGreaterThan(0);
    }
  });

  it('never injects a secret, even one learned after the entry was written', async () => {
    const port = new FakeMemoryPort();
    const secrets: string[] = [];
    port.addNow({ captain: CAPTAIN, kind: 'note', text: 'login with pw Orbit-Tango-9 at the gate' });
    port.addNow({ captain: CAPTAIN, kind: 'note', text: `token ${'c0ffee'.repeat(10)}abcd at the gate` });
    port.addNow({ captain: CAPTAIN, kind: 'handoff', text: 'handoff: the password is orbit-tango-9, at the gate' });
    port.addNow({ captain: CAPTAIN, kind: 'note', text: 'the gate is guarded by pirates' });
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => secrets });
    secrets.push('Orbit-Tango-9');
    const block = memory.block({ goal: 'gate password' });
    expect(block).toContain('guarded by pirates');
    expect(block.toLowerCase()).not.toContain('orbit-tango-9');
    expect(block).not.toMatch(/[0-9a-f]{64}/i);
  });

  it('touches the entries it carries (block), not when previewed', async () => {
    const port = new FakeMemoryPort();
    port.addNow({ captain: CAPTAIN, kind: 'note', text: 'iron at belt 2' });
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [] });
    memory.preview({ goal: 'iron' });
    await memory.settled();
    expect((await port.get(1))?.uses).toBe(0);
    memory.block({ goal: 'iron' });
    memory.block({ goal: 'iron' });
    // The cache counts at once; the store once the background writes settled.
    expect(memory.entries()[0]?.uses).toBe(2);
    await memory.settled();
    expect((await port.get(1))?.uses).toBe(2);
    expect(memory.entries()[0]?.uses).toBe(2);
  });

  it('settled() waits for the background touches handed in so far', async () => {
    const port = new FakeMemoryPort();
    port.addNow({ captain: CAPTAIN, kind: 'note', text: 'iron at belt 2' });
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [] });
    let release = (): void => undefined;
    port.touchGate = new Promise<void>((resolve) => (release = resolve));
    memory.block({ goal: 'iron' });
    expect(port.touchCalls).toEqual([[1]]);
    let settled = false;
    const waiting = memory.settled().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    expect((await port.get(1))?.uses).toBe(0);
    release();
    await waiting;
    expect(settled).toBe(true);
    expect((await port.get(1))?.uses).toBe(1);
    // Nothing pending: settled resolves at once.
    await memory.settled();
  });

  it('reports each failed background write once to onWriteError, never as an unhandled rejection', async () => {
    const port = new FakeMemoryPort();
    port.addNow({ captain: CAPTAIN, kind: 'note', text: 'iron at belt 2' });
    const errors: unknown[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const memory = await loadedMemory({
        port,
        captain: CAPTAIN,
        secrets: () => [],
        onWriteError: (error) => errors.push(error),
      });
      port.touchError = new Error('store_unavailable');
      memory.block({ goal: 'iron' });
      memory.block({ goal: 'iron' });
      await memory.settled();
      expect(errors).toEqual([port.touchError, port.touchError]);
      // Without a reporter, and with one that throws, failures are still swallowed.
      const quiet = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [] });
      quiet.block({ goal: 'iron' });
      await quiet.settled();
      const throwing = await loadedMemory({
        port,
        captain: CAPTAIN,
        secrets: () => [],
        onWriteError: () => {
          throw new Error('reporter failed');
        },
      });
      throwing.block({ goal: 'iron' });
      await throwing.settled();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
      expect(errors).toHaveLength(2);
      expect(port.touchCalls).toHaveLength(4);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reads the store once per captain and keeps the cache current on its own writes', async () => {
    const port = new FakeMemoryPort();
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [] });
    memory.block({ goal: 'x' });
    await memory.writeHandoff('docked at Sol with 12 iron');
    await memory.recordTurn({ outcome: 'answered', actions: ['mine'], errors: [] });
    expect(memory.block({ goal: 'iron' })).toContain('12 iron');
    expect(port.listCalls).toBe(1);
    // A write made elsewhere shows after refresh(), which reads the store again.
    port.addNow({ captain: CAPTAIN, kind: 'note', text: 'iron also at belt 7' });
    expect(memory.block({ goal: 'iron' })).not.toContain('belt 7');
    await memory.refresh();
    expect(memory.block({ goal: 'iron' })).toContain('belt 7');
    expect(port.listCalls).toBe(2);
  });

  it('keeps its own writes made while a refresh reads', async () => {
    const port = new FakeMemoryPort();
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [] });
    let release = (): void => undefined;
    // The read answers with the rows as they were when it started: before the handoff was written.
    port.listGate = new Promise<void>((resolve) => (release = resolve));
    const stale = port.rowsOf(CAPTAIN);
    const list = port.list.bind(port);
    port.list = async (captain, options) => {
      await list(captain, options);
      return stale;
    };
    const refreshing = memory.refresh();
    expect((await memory.writeHandoff('docked at Sol with 12 iron')).ok).toBe(true);
    release();
    await refreshing;
    expect(memory.block({ goal: 'iron' })).toContain('12 iron');
  });

  it('top-K agrees with a full sort, ties included', () => {
    const random = seeded(7);
    for (let trial = 0; trial < 40; trial += 1) {
      const size = 1 + Math.floor(random() * 400);
      const index = new EntryIndex(
        Array.from({ length: size }, (_, id) => ({
          id: id + 1,
          captain: CAPTAIN,
          kind: 'note' as const,
          text: 'x',
          tags: [],
          outcome: null,
          evidence: null,
          uses: 0,
          createdAt: 0,
          lastUsedAt: null,
        })),
        0,
      );
      const list = [...index.ofKind('note')];
      for (const entry of list) entry.score = Math.floor(random() * 20) / 4;
      const k = 1 + Math.floor(random() * 60);
      const full = [...list].sort((a, b) => b.score - a.score || b.record.id - a.record.id).slice(0, k);
      expect(topK(list, k).map((entry) => entry.record.id)).toEqual(full.map((entry) => entry.record.id));
    }
  });

  it('goes past the first ranked candidates when short entries leave room', async () => {
    const port = new FakeMemoryPort();
    for (let index = 0; index < 600; index += 1)
      port.addNow({
        captain: CAPTAIN,
        kind: 'note',
        text: `n${'abcdefghij'[index % 10]}${'klmnopqrst'[Math.floor(index / 10) % 10]}${'uvwxyz'[Math.floor(index / 100)]}`,
      });
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [], budgetTokens: 8000 });
    const report = memory.preview({});
    expect(report.ids.length).toBe(600);
    expect(report.tokens).toBeLessThanOrEqual(8000);
  });

  it('shows at most four past turns, and notes past them as the budget allows', async () => {
    const port = new FakeMemoryPort();
    const places = ['Sol', 'Vega', 'Rigel', 'Deneb', 'Altair', 'Mira', 'Castor', 'Pollux'];
    for (const place of places)
      port.addNow({ captain: CAPTAIN, kind: 'episode', text: `mined iron at ${place}, sold it at the station` });
    for (const place of places) port.addNow({ captain: CAPTAIN, kind: 'note', text: `iron sells well at ${place}` });
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [] });
    const text = memory.block({ goal: 'mine iron' });
    expect(text.match(/mined iron at/g)).toHaveLength(4);
    expect(text.match(/iron sells well at/g)).toHaveLength(places.length);
  });
});

describe('past turns in the block', () => {
  it("leave out the goal of now, keep another goal's name", async () => {
    const port = new FakeMemoryPort();
    const goal = 'mine iron and sell it at Sol';
    port.addNow({
      captain: CAPTAIN,
      kind: 'episode',
      text: `Goal "${goal}": answered; credits 10→30 (+20); did mine×3.`,
    });
    port.addNow({ captain: CAPTAIN, kind: 'episode', text: 'Goal "explore the lanes": answered; did jump×2.' });
    const memory = await loadedMemory({ port, captain: CAPTAIN, secrets: () => [] });
    const block = memory.block({ goal });
    expect(block).toContain('answered; credits 10→30 (+20); did mine×3.');
    expect(block).not.toContain(`Goal "${goal}"`);
    expect(block).toContain('Goal "explore the lanes": answered; did jump×2.');
    // Under another goal, the first one is named again.
    expect(memory.block({ goal: 'explore the lanes' })).toContain(`Goal "${goal}": answered`);
  });
});

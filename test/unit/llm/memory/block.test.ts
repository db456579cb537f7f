// The memory block: ranked by overlap with the goal, filled in priority order (latest handoff, lessons, notes,
// episodes), never over budget, never carrying a secret, and marking what it used.
import { describe, expect, it } from 'vitest';
import { BLOCK_HEADING, createMemory, EntryIndex, topK } from '../../../../internal/llm/memory/index.js';
import { FakeMemoryPort, seeded } from './fake-port.js';
import type { MemoryKind } from '../../../../internal/llm/memory/index.js';

const CAPTAIN = 'embedded#nova';
/** The budget's definition (chars/4), written out here independently of the code under test. */
const estimateTokensForTest = (text: string): number => Math.ceil(text.length / 4);
const HOUR = 3_600_000;

describe('memory block', () => {
  it('is empty when there is nothing to remember', () => {
    const memory = createMemory({ port: new FakeMemoryPort(), captain: CAPTAIN, secrets: () => [] });
    expect(memory.block({ goal: 'mine' })).toBe('');
  });

  it('ranks notes by keyword overlap with the goal and recent text', () => {
    const port = new FakeMemoryPort();
    const now = 100 * HOUR;
    for (let index = 0; index < 30; index += 1) {
      port.add({
        captain: CAPTAIN,
        kind: 'note',
        text: `Filler note number ${index} about weather and songs`,
        createdAt: now,
      });
    }
    port.add({
      captain: CAPTAIN,
      kind: 'note',
      text: 'Titanium sells for 40 at Nebula Prospect market',
      createdAt: now - 50 * HOUR,
    });
    port.add({
      captain: CAPTAIN,
      kind: 'note',
      text: 'The crimson lane needs a full tank',
      createdAt: now - 50 * HOUR,
    });
    // A budget that fits the header and a handful of lines only.
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [], budgetTokens: 150, now: () => now });
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

  it('prefers recent and failure-derived entries when relevance ties', () => {
    const port = new FakeMemoryPort();
    const now = 1000 * HOUR;
    port.add({
      captain: CAPTAIN,
      kind: 'episode',
      text: 'Mined iron, sold ten',
      outcome: 'success',
      createdAt: now - 200 * HOUR,
    });
    port.add({
      captain: CAPTAIN,
      kind: 'episode',
      text: 'Mined iron, sold twelve',
      outcome: 'success',
      createdAt: now - HOUR,
    });
    port.add({
      captain: CAPTAIN,
      kind: 'episode',
      text: 'Mined iron, hold full',
      outcome: 'failure',
      createdAt: now - 200 * HOUR,
    });
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [], now: () => now });
    const lines = memory
      .preview({ goal: 'iron' })
      .text.split('\n')
      .filter((line) => line.startsWith('- #'));
    expect(lines.map((line) => line.match(/#(\d+)/)?.[1])).toEqual(['2', '3', '1']);
  });

  it('shows entries that differ only in their numbers once, leaving room for others', () => {
    const port = new FakeMemoryPort();
    for (let index = 0; index < 50; index += 1)
      port.add({ captain: CAPTAIN, kind: 'episode', text: `Mined iron ×${index}, sold ${index * 3}` });
    port.add({ captain: CAPTAIN, kind: 'episode', text: 'Jumped to crimson, no_fuel twice', outcome: 'failure' });
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [] });
    const lines = memory
      .preview({ goal: 'mined iron sold' })
      .text.split('\n')
      .filter((line) => line.startsWith('- #'));
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).toContain('crimson');
  });

  it('fills in priority order: latest handoff only, then lessons, notes, episodes', () => {
    const port = new FakeMemoryPort();
    port.add({ captain: CAPTAIN, kind: 'episode', text: 'Episode: mined ore at belt' });
    port.add({ captain: CAPTAIN, kind: 'note', text: 'Note: ore sells at Sol' });
    port.add({ captain: CAPTAIN, kind: 'handoff', text: 'OLD handoff from two sessions ago' });
    port.add({ captain: CAPTAIN, kind: 'lesson', text: 'Avoid mining with a full hold', outcome: 'failure' });
    port.add({ captain: CAPTAIN, kind: 'handoff', text: 'NEW handoff: docked at Sol Central, 300 credits' });
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [] });
    const block = memory.preview({ goal: 'ore' }).text;
    expect(block.startsWith(BLOCK_HEADING)).toBe(true);
    expect(block).not.toContain('OLD handoff');
    const order = ['NEW handoff', 'Avoid mining', 'Note: ore', 'Episode: mined'].map((text) => block.indexOf(text));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Under a tight budget the lower priorities are the ones dropped.
    const tight = createMemory({ port, captain: CAPTAIN, secrets: () => [], budgetTokens: 110 }).preview({
      goal: 'ore',
    }).text;
    expect(tight).toContain('NEW handoff');
    expect(tight).not.toContain('Episode: mined');
  });

  it('never exceeds its budget, over many random memories and budgets', () => {
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
        port.add({
          captain: CAPTAIN,
          kind,
          text,
          tags: random() < 0.3 ? ['x'.repeat(Math.floor(random() * 30) + 1)] : [],
          createdAt: Math.floor(random() * 1e9),
          outcome: random() < 0.5 ? 'failure' : null,
        });
      }
      const budgetTokens = 20 + Math.floor(random() * 2000);
      const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [], budgetTokens, now: () => 1e9 });
      const report = memory.preview({ goal: words.slice(0, Math.floor(random() * 6)).join(' ') });
      expect(estimateTokensForTest(report.text)).toBeLessThanOrEqual(budgetTokens);
      expect(report.tokens).toBe(estimateTokensForTest(report.text));
      if (count > 0 && budgetTokens > 300) expect(report.ids.length).toBeGreaterThan(0);
    }
  });

  it('never injects a secret, even one learned after the entry was written', () => {
    const port = new FakeMemoryPort();
    const secrets: string[] = [];
    port.add({ captain: CAPTAIN, kind: 'note', text: 'login with pw Orbit-Tango-9 at the gate' });
    port.add({ captain: CAPTAIN, kind: 'note', text: `token ${'c0ffee'.repeat(10)}abcd at the gate` });
    port.add({ captain: CAPTAIN, kind: 'handoff', text: 'handoff: the password is orbit-tango-9, at the gate' });
    port.add({ captain: CAPTAIN, kind: 'note', text: 'the gate is guarded by pirates' });
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => secrets });
    secrets.push('Orbit-Tango-9');
    const block = memory.block({ goal: 'gate password' });
    expect(block).toContain('guarded by pirates');
    expect(block.toLowerCase()).not.toContain('orbit-tango-9');
    expect(block).not.toMatch(/[0-9a-f]{64}/i);
  });

  it('touches the entries it carries (block), not when previewed', () => {
    const port = new FakeMemoryPort();
    port.add({ captain: CAPTAIN, kind: 'note', text: 'iron at belt 2' });
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [] });
    memory.preview({ goal: 'iron' });
    expect(port.get(1)?.uses).toBe(0);
    memory.block({ goal: 'iron' });
    memory.block({ goal: 'iron' });
    expect(port.get(1)?.uses).toBe(2);
    expect(memory.entries()[0]?.uses).toBe(2);
  });

  it('reads the store once per captain and keeps the cache current on its own writes', () => {
    const port = new FakeMemoryPort();
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [] });
    memory.block({ goal: 'x' });
    memory.writeHandoff('docked at Sol with 12 iron');
    memory.recordTurn({ outcome: 'answered', actions: ['mine'], errors: [] });
    expect(memory.block({ goal: 'iron' })).toContain('12 iron');
    expect(port.listCalls).toBe(1);
    memory.refresh();
    memory.block({ goal: 'iron' });
    expect(port.listCalls).toBe(2);
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

  it('goes past the first ranked candidates when short entries leave room', () => {
    const port = new FakeMemoryPort();
    for (let index = 0; index < 600; index += 1)
      port.add({
        captain: CAPTAIN,
        kind: 'note',
        text: `n${'abcdefghij'[index % 10]}${'klmnopqrst'[Math.floor(index / 10) % 10]}${'uvwxyz'[Math.floor(index / 100)]}`,
      });
    const memory = createMemory({ port, captain: CAPTAIN, secrets: () => [], budgetTokens: 8000 });
    const report = memory.preview({});
    expect(report.ids.length).toBe(600);
    expect(report.tokens).toBeLessThanOrEqual(8000);
  });
});

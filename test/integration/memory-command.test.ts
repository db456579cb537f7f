// `skipper memory` against a real SQLite file: list grouped per captain, rm by id, clear with and without
// confirmation, captain names resolved from the sessions; and formatMemoryBlock, what /memory prints.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerMemoryCommand } from '../../internal/cli/memory-command.js';
import { formatMemoryBlock } from '../../internal/llm/memory/index.js';
import { createMemory } from '../../internal/llm/memory/index.js';
import { captainId, openStore, type Store } from '../../internal/store/index.js';

const NOVA = captainId({ game: 'embedded', username: 'nova' });
const VEGA = captainId({ game: 'https://game.spacemolt.com/mcp', username: 'vega' });

describe('skipper memory', () => {
  let dir: string;
  let file: string;
  let out: string[];
  let answers: Array<boolean | undefined>;

  const open = (): Promise<Store> => openStore({ path: file });
  const run = async (...args: string[]): Promise<void> => {
    const program = new Command().exitOverride();
    registerMemoryCommand(program, {
      openStore: () => open(),
      write: (line) => out.push(line),
      confirm: async () => (answers.length > 0 ? answers.shift() : false),
      width: () => 80,
      now: () => Date.UTC(2026, 10, 22),
    });
    await program.parseAsync(['memory', ...args], { from: 'user' });
  };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-memory-cli-'));
    file = path.join(dir, 'skipper.db');
    out = [];
    answers = [];
    // A ticking clock, so "the latest captain" (nova, the later session) is not decided by a same-millisecond tie.
    let clock = Date.UTC(2026, 10, 21, 22);
    const store = await openStore({ path: file, now: () => (clock += 1000) });
    await store.createSession({ game: 'https://game.spacemolt.com/mcp', model: 'x/y', username: 'vega' });
    await store.createSession({ game: 'embedded', model: 'x/y', username: 'nova' });
    const at = Date.UTC(2026, 10, 21, 21);
    await store.memory.add({
      captain: NOVA,
      kind: 'note',
      text: 'Iron sells best at Sol Central '.repeat(6),
      createdAt: at,
    });
    await store.memory.add({ captain: NOVA, kind: 'lesson', text: 'Avoid jumping on a low tank', createdAt: at });
    await store.memory.add({ captain: VEGA, kind: 'handoff', text: 'Last session: 3 turns', createdAt: at });
    await store.credentials.put('embedded', 'nova', 'Secret-Pass-99');
    await store.memory.add({ captain: NOVA, kind: 'note', text: 'old note with secret-pass-99 inside', createdAt: at });
    await store.close();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('lists every captain grouped, with id, kind, age, uses and clipped text, secrets redacted', async () => {
    await run();
    expect(out[0]).toBe(`${NOVA}  (3 entries)`);
    expect(out[1]).toMatch(/^ {2}ID +KIND +AGE +USES +TEXT$/);
    expect(out[2]).toMatch(/^ {2}1 +note +3h +0 +Iron sells best at Sol Central/);
    expect(out[2]?.endsWith('…')).toBe(true);
    expect(out[2]?.length).toBeLessThanOrEqual(80);
    expect(out.join('\n')).not.toMatch(/secret-pass-99/i);
    expect(out).toContain(`${VEGA}  (1 entry)`);
    out = [];
    await run('list', '--captain', 'vega');
    expect(out.join('\n')).toContain('Last session: 3 turns');
    expect(out.join('\n')).not.toContain('Iron sells');
  });

  it('rm deletes one entry for good, and only for the named captain', async () => {
    await expect(run('rm', '3', '--captain', 'nova')).rejects.toThrow(/no memory entry #3 for embedded#nova/);
    await run('rm', '2');
    expect(out).toEqual([`deleted memory #2 (lesson) of ${NOVA} from ${file}`]);
    const store = await open();
    expect(await store.memory.get(2)).toBeUndefined();
    expect(await store.memory.list(NOVA)).toHaveLength(2);
    await store.close();
    await expect(run('rm', '2')).rejects.toThrow(/no memory entry #2/);
    await expect(run('rm', 'abc')).rejects.toThrow(/not an entry id/);
  });

  it('clear asks first (latest captain by default) and keeps everything when refused', async () => {
    answers = [undefined];
    await expect(run('clear')).rejects.toThrow(/kept the memory of embedded#nova: confirm on a terminal/);
    answers = [false];
    await run('clear');
    expect(out).toEqual([`nothing cleared: the memory of ${NOVA} is kept`]);
    const kept = await open();
    expect(await kept.memory.list(NOVA)).toHaveLength(3);
    await kept.close();
    out = [];
    answers = [true];
    await run('clear');
    expect(out).toEqual([`cleared 3 memory entries of ${NOVA} from ${file}`]);
    await run('clear', '--captain', VEGA, '--yes');
    const store = await open();
    expect(await store.memory.list(NOVA)).toHaveLength(0);
    expect(await store.memory.list(VEGA)).toHaveLength(0);
    await store.close();
  });

  it('lists notes and lessons first, then handoffs and episodes, at most --limit (default 20) with the rest counted', async () => {
    const store = await open();
    const at = Date.UTC(2026, 10, 21, 21);
    // 24 episodes and a handoff, added after the notes and the lesson; listed after them by kind, not by id.
    for (let turn = 1; turn <= 24; turn++)
      await store.memory.add({ captain: NOVA, kind: 'episode', text: `Turn ${turn} answered`, createdAt: at });
    await store.memory.add({ captain: NOVA, kind: 'handoff', text: 'Last session: 24 turns', createdAt: at });
    await store.close();
    await run('list', '--captain', 'nova');
    expect(out[0]).toBe(`${NOVA}  (28 entries)`);
    const kinds = out
      .slice(2)
      .filter((line) => /^ {2}\d/.test(line))
      .map((line) => line.trim().split(/ +/)[1]);
    expect(kinds).toHaveLength(20);
    expect(kinds.slice(0, 4)).toEqual(['note', 'note', 'lesson', 'handoff']);
    expect(kinds.slice(4).every((kind) => kind === 'episode')).toBe(true);
    expect(out.at(-1)).toBe('  … 8 more, use --limit 28 or --kind note|lesson|handoff|episode');
    out = [];
    await run('list', '--captain', 'nova', '--limit', '2');
    expect(out.filter((line) => /^ {2}\d/.test(line))).toHaveLength(2);
    expect(out.at(-1)).toBe('  … 26 more, use --limit 28 or --kind note|lesson|handoff|episode');
    out = [];
    // --kind one kind only (flags before the subcommand work too).
    await run('--kind', 'lesson');
    expect(out).toContain(`${NOVA}  (1 lesson entry)`);
    expect(out.join('\n')).toContain('Avoid jumping on a low tank');
    expect(out.join('\n')).not.toMatch(/Iron sells|Turn 1 answered/);
    expect(out).toContain(`${VEGA}  (0 lesson entries)`);
    out = [];
    await run('list', '--captain', 'nova', '--kind', 'episode', '--limit', '3');
    expect(out[0]).toBe(`${NOVA}  (24 episode entries)`);
    expect(out.at(-1)).toBe('  … 21 more, use --limit 24');
  });

  it('refuses a bad --limit or --kind (usage errors)', async () => {
    await expect(run('list', '--limit', '0')).rejects.toThrow(/must be at least 1/);
    await expect(run('list', '--limit', 'lots')).rejects.toThrow(/not a whole number/);
    await expect(run('list', '--kind', 'diary')).rejects.toThrow(/Allowed choices are note, lesson, handoff, episode/);
  });

  it('rejects unknown captains with the known ones named', async () => {
    await expect(run('list', '--captain', 'zed')).rejects.toThrow(/no captain named "zed".*embedded#nova/);
  });

  it('formatMemoryBlock prints what the next turn carries, with its size', async () => {
    const store = await open();
    const memory = createMemory({
      port: store.memory,
      captain: NOVA,
      secrets: () => [...store.credentials.passwordList()],
    });
    await memory.load();
    const lines = formatMemoryBlock(memory, { goal: 'sell iron' });
    expect(lines[0]).toBe("## Captain's memory (from earlier sessions)");
    expect(lines.join('\n')).toContain('Avoid jumping on a low tank');
    expect(lines.join('\n')).not.toMatch(/secret-pass-99/i);
    expect(lines.at(-1)).toMatch(/^\(\d+ of 1500 tokens; 2 entries of 3\)$/);
    // Printing does not count as using.
    await memory.settled();
    expect((await store.memory.get(2))?.uses).toBe(0);
    const empty = createMemory({ port: store.memory, captain: 'embedded#nobody', secrets: () => [] });
    await empty.load();
    expect(formatMemoryBlock(empty)[0]).toMatch(/^Nothing in memory yet for embedded#nobody/);
    await store.close();
  });
});

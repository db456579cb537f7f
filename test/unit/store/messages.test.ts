import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../internal/store/index.js';
import { FatalError, UsageError, type Message } from '../../../internal/shared/index.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tempDbPath } from './helpers.js';

/** A full garbage collection, so a heap figure counts what is held, not garbage a collection had not reached yet. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function transcript(): Message[] {
  return [
    { id: 'm1', role: 'system', content: 'You are a captain.', createdAt: 1000 },
    { id: 'm2', role: 'user', content: 'mine some ore', createdAt: 1001, turn: 1 },
    {
      id: 'm3',
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'call_1', name: 'get_status', arguments: '{}' },
        { id: 'call_2', name: 'mine', arguments: '{"bad json' },
      ],
      reasoning: 'status first, then mine',
      createdAt: 1002,
      turn: 1,
      round: 1,
    },
    {
      id: 'm4',
      role: 'tool',
      content: 'Credits: 1000',
      toolCallId: 'call_1',
      toolName: 'get_status',
      data: { player: { credits: 1000 }, list: [1, 'two', null], nested: { deep: true } },
      isError: false,
      createdAt: 1003,
      turn: 1,
      round: 1,
    },
    {
      id: 'm5',
      role: 'tool',
      content: 'invalid_params: arguments are not JSON',
      toolCallId: 'call_2',
      toolName: 'mine',
      isError: true,
      createdAt: 1004,
      turn: 1,
      round: 1,
    },
    { id: 'm6', role: 'assistant', content: 'Done: 1000 credits.', toolCalls: [], createdAt: 1005, turn: 1, round: 2 },
    { id: 'm7', role: 'user', content: 'again', createdAt: 1006, turn: 2 },
    {
      id: 'm8',
      role: 'tool',
      content: 'null data kept',
      toolCallId: 'c',
      toolName: 'x',
      data: null,
      createdAt: 1007,
      turn: 2,
    },
  ];
}

async function freshStore(): Promise<{ store: Store; sessionId: string }> {
  const store = await openStore({ path: ':memory:' });
  const session = await store.createSession({ name: 'test', game: 'embedded', model: 'scripted' });
  return { store, sessionId: session.id };
}

describe('messages', async () => {
  it('round-trips every field: tool calls, empty lists, data JSON, errors, reasoning (on a real file)', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file });
    const session = await store.createSession({ name: 'test', game: 'embedded', model: 'scripted' });
    for (const message of transcript()) await store.append(session.id, message);
    await store.close();
    const reopened = await openStore({ path: file });
    expect(await reopened.messages(session.id)).toStrictEqual(transcript());
    await reopened.close();
  });

  it('stores an empty tool-call list for a text-only assistant message given none (rule 5)', async () => {
    const { store, sessionId } = await freshStore();
    await store.append(sessionId, { role: 'assistant', content: 'just text' });
    const [message] = await store.messages(sessionId);
    expect(message?.toolCalls).toEqual([]);
    await store.close();
  });

  it('makes ids and timestamps when absent, and keeps given ones', async () => {
    const { store, sessionId } = await freshStore();
    const made = await store.append(sessionId, { role: 'user', content: 'a' });
    expect(made.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof made.createdAt).toBe('number');
    expect(await store.messages(sessionId)).toEqual([made]);
    await store.close();
  });

  it('does not let later edits of the passed object change what is stored', async () => {
    const { store, sessionId } = await freshStore();
    const message: Message = {
      id: 'x',
      role: 'assistant',
      content: 'c',
      toolCalls: [{ id: 't', name: 'n', arguments: '{}' }],
      createdAt: 1,
    };
    await store.append(sessionId, message);
    message.toolCalls![0]!.arguments = '{"changed":1}';
    expect((await store.messages(sessionId))[0]?.toolCalls?.[0]?.arguments).toBe('{}');
    await store.close();
  });

  it('appendMany is all or nothing', async () => {
    const { store, sessionId } = await freshStore();
    await store.append(sessionId, { id: 'dup', role: 'user', content: 'first' });
    await expect(
      store.appendMany(sessionId, [
        { id: 'new-1', role: 'user', content: 'x' },
        { id: 'dup', role: 'user', content: 'clash' },
      ]),
    ).rejects.toThrow(/already stored/);
    expect((await store.messages(sessionId)).map((m) => m.id)).toEqual(['dup']);
    await store.close();
  });

  it('refuses to append to a session that does not exist', async () => {
    const { store } = await freshStore();
    await expect(store.append('nope', { role: 'user', content: 'x' })).rejects.toThrow(UsageError);
    await store.close();
  });

  it('reads turn ranges in order, and knows the last turn', async () => {
    const { store, sessionId } = await freshStore();
    expect(await store.lastTurn(sessionId)).toBe(0);
    for (const message of transcript()) await store.append(sessionId, message);
    expect((await store.messages(sessionId, { fromTurn: 2 })).map((m) => m.id)).toEqual(['m7', 'm8']);
    expect((await store.messages(sessionId, { toTurn: 1 })).map((m) => m.id)).toEqual(['m2', 'm3', 'm4', 'm5', 'm6']);
    expect(await store.messages(sessionId, { fromTurn: 1, toTurn: 1 })).toHaveLength(5);
    const iterated: string[] = [];
    for await (const message of store.iterateMessages(sessionId, { fromTurn: 2 })) iterated.push(message.id);
    expect(iterated).toEqual(['m7', 'm8']);
    expect(await store.lastTurn(sessionId)).toBe(2);
    expect(await store.messageCount(sessionId)).toBe(8);
    await store.close();
  });

  it('iterates across page boundaries with a turn range, and lets the store be used meanwhile', async () => {
    const { store, sessionId } = await freshStore();
    await store.appendMany(
      sessionId,
      Array.from({ length: 2500 }, (_, i) => ({ id: `m${i}`, role: 'user' as const, content: String(i), turn: i + 1 })),
    );
    const seen: string[] = [];
    for await (const message of store.iterateMessages(sessionId, { fromTurn: 2, toTurn: 2001 })) {
      seen.push(message.id);
      if (seen.length === 1500) {
        expect(await store.lastTurn(sessionId)).toBe(2500); // no "connection is busy"
        await store.append(sessionId, { id: 'late', role: 'user', content: 'late', turn: 2001 });
      }
    }
    expect(seen).toEqual([...Array.from({ length: 2000 }, (_, i) => `m${i + 1}`), 'late']);
    await store.close();
  });

  it('keeps sessions apart', async () => {
    const { store, sessionId } = await freshStore();
    const other = await store.createSession({ game: 'embedded', model: 'm' });
    await store.append(sessionId, { role: 'user', content: 'mine' });
    await store.append(other.id, { role: 'user', content: 'theirs' });
    expect((await store.messages(sessionId)).map((m) => m.content)).toEqual(['mine']);
    expect((await store.messages(other.id)).map((m) => m.content)).toEqual(['theirs']);
    await store.close();
  });

  it('reports a malformed row clearly instead of returning garbage', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file });
    const session = await store.createSession({ game: 'embedded', model: 'm' });
    await store.append(session.id, { id: 'broken', role: 'assistant', content: 'x', toolCalls: [] });
    await store.close();
    const raw = new Database(file);
    raw.prepare(`UPDATE messages SET tool_calls = '[{"id": 1}]' WHERE id = 'broken'`).run();
    raw.close();
    const reopened = await openStore({ path: file });
    await expect(reopened.messages(session.id)).rejects.toThrow(FatalError);
    await expect(reopened.messages(session.id)).rejects.toThrow(/malformed tool_calls of message broken/);
    await reopened.close();
    const again = new Database(file);
    again.prepare(`UPDATE messages SET tool_calls = '[]', turn = 'soon' WHERE id = 'broken'`).run();
    again.close();
    const third = await openStore({ path: file });
    await expect(third.messages(session.id)).rejects.toThrow(
      /malformed message row .*\(id broken\): turn is not an integer/,
    );
    await third.close();
  });

  it('iterates 100,000 messages without holding them in memory', async () => {
    const { store, sessionId } = await freshStore();
    const body = 'y'.repeat(1000);
    const batch: Array<{ role: 'user'; content: string; turn: number }> = [];
    for (let i = 0; i < 100_000; i++) {
      batch.push({ role: 'user', content: `${i} ${body}`, turn: Math.floor(i / 10) + 1 });
      if (batch.length === 10_000) await store.appendMany(sessionId, batch.splice(0));
    }
    // Held memory, measured after full collections: the appends' garbage (and other files' in this worker) left
    // uncollected once made this figure swing past the limit with nothing held.
    collectGarbage();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let count = 0;
    let last = -1;
    for await (const message of store.iterateMessages(sessionId)) {
      const index = Number(message.content.slice(0, message.content.indexOf(' ')));
      if (index !== last + 1) throw new Error(`out of order at ${index}`);
      last = index;
      count++;
      if (count % 5000 === 0) {
        collectGarbage();
        peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
    }
    expect(count).toBe(100_000);
    // Loading them all holds ~78 MB; streaming holds about one page of 1,000 messages.
    expect(peak).toBeLessThan(32 * 1024 * 1024);
    await store.close();
  });
});

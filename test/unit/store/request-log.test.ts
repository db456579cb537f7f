import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { inflateRawSync } from 'node:zlib';
import { openStore } from '../../../internal/store/index.js';
import { encodePiece } from '../../../internal/store/request-log.js';
import type { Message, ToolSpec } from '../../../internal/shared/index.js';
import { tempDbPath } from './helpers.js';

const tools: ToolSpec[] = [
  {
    name: 'spacemolt',
    description: 'the game',
    inputSchema: { type: 'object', properties: { action: { type: 'string' } } },
    readOnly: false,
  },
];
const system: Message = { id: 'context-system', role: 'system', content: 'You are Skipper.', createdAt: 0 };
const user: Message = { id: 'u1', role: 'user', content: 'play', createdAt: 1, turn: 1 };
const assistant: Message = {
  id: 'a1',
  role: 'assistant',
  content: '',
  createdAt: 2,
  turn: 1,
  round: 1,
  toolCalls: [{ id: 'c1', name: 'spacemolt', arguments: '{"action":"mine"}' }],
};
const result: Message = {
  id: 't1',
  role: 'tool',
  content: 'Mined 6 ore. ünïcode ✓',
  toolCallId: 'c1',
  toolName: 'spacemolt',
  createdAt: 3,
  turn: 1,
  round: 1,
  data: { op: 'mine', nested: [1, null, 'x'] },
};

const texts = (messages: Message[]): string[] => messages.map((message) => JSON.stringify(message));

describe('request log', () => {
  it('stores each distinct piece once and gives every request back exactly as it was sent', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file, now: () => 100 });
    const session = await store.createSession({ game: 'embedded', model: 'builtin/autopilot' });
    const first = [system, user];
    const second = [system, user, assistant, result];
    const one = await store.requests.record({
      sessionId: session.id,
      turn: 1,
      round: 1,
      attempt: 1,
      model: 'm',
      messages: texts(first),
      tools: JSON.stringify(tools),
      outcome: 'reply',
    });
    const two = await store.requests.record({
      sessionId: session.id,
      turn: 1,
      round: 2,
      attempt: 1,
      model: 'm',
      messages: texts(second),
      tools: JSON.stringify(tools),
      outcome: 'reply',
    });
    expect(two).toBeGreaterThan(one);

    const loaded = await store.requests.load(two);
    expect(JSON.stringify(loaded.messages)).toBe(JSON.stringify(second));
    expect(JSON.stringify(loaded.tools)).toBe(JSON.stringify(tools));
    expect(loaded).toMatchObject({
      sessionId: session.id,
      turn: 1,
      round: 2,
      attempt: 1,
      model: 'm',
      outcome: 'reply',
      createdAt: 100,
    });
    expect(JSON.stringify((await store.requests.load(one)).messages)).toBe(JSON.stringify(first));
    expect(await store.requests.count(session.id)).toBe(2);
    expect(await store.requests.list(session.id, { fromTurn: 2 })).toEqual([]);
    expect((await store.requests.list(session.id)).map((row) => row.round)).toEqual([1, 2]);
    await store.close();

    const raw = new Database(file, { readonly: true });
    // 4 distinct messages + 1 tool list, although 6 messages and 2 tool lists were sent.
    expect(raw.prepare('SELECT COUNT(*) AS n FROM context_blobs').get()).toEqual({ n: 5 });
    raw.close();
  });

  it('keeps short pieces as a stored deflate block and compresses long ones; both inflate to the text', () => {
    const short = JSON.stringify(result);
    const long = JSON.stringify({ ...result, content: 'Mined 6 ore. '.repeat(400) });
    const shortBody = encodePiece(short);
    const longBody = encodePiece(long);
    expect(shortBody[0]).toBe(1); // a final stored block
    expect(shortBody.length).toBe(Buffer.byteLength(short) + 5);
    expect(longBody.length).toBeLessThan(Buffer.byteLength(long) / 4);
    expect(inflateRawSync(shortBody).toString('utf8')).toBe(short);
    expect(inflateRawSync(longBody).toString('utf8')).toBe(long);
    // Just under the limit, in multi-byte characters: the block's length counts bytes.
    const edge = 'é'.repeat(511); // 1,022 bytes
    expect(inflateRawSync(encodePiece(edge)).toString('utf8')).toBe(edge);
  });

  it('requests recorded soon are written together once the event loop turns, or at once when read or closed', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file, now: () => 100 });
    const one = await store.createSession({ game: 'embedded', model: 'builtin/autopilot' });
    const two = await store.createSession({ game: 'embedded', model: 'builtin/autopilot' });
    const request = (sessionId: string, round: number) => ({
      sessionId,
      turn: 1,
      round,
      attempt: 1,
      model: 'm',
      messages: texts([system, user]),
      tools: JSON.stringify(tools),
      outcome: 'reply' as const,
    });
    store.requests.recordSoon(request(one.id, 1));
    store.requests.recordSoon(request(two.id, 1));
    const other = new Database(file, { readonly: true });
    const rows = (): number => (other.prepare('SELECT COUNT(*) AS n FROM requests').get() as { n: number }).n;
    expect(rows()).toBe(0);
    await new Promise((done) => setImmediate(done));
    expect(rows()).toBe(2);
    // A reader in this process sees what is pending; so does the file once the store closes.
    store.requests.recordSoon(request(one.id, 2));
    expect(await store.requests.count(one.id)).toBe(2);
    store.requests.recordSoon(request(two.id, 2));
    await store.close();
    expect(rows()).toBe(4);
    other.close();
  });

  it('a fresh connection finds the pieces already stored instead of writing them again', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file });
    const session = await store.createSession({ game: 'embedded', model: 'm' });
    await store.requests.record({
      sessionId: session.id,
      turn: 1,
      round: 1,
      attempt: 1,
      model: 'm',
      messages: texts([system, user]),
      tools: '[]',
      outcome: 'reply',
    });
    await store.close();
    const again = await openStore({ path: file });
    const id = await again.requests.record({
      sessionId: session.id,
      turn: 2,
      round: 1,
      attempt: 1,
      model: 'm',
      messages: texts([system, user]),
      tools: '[]',
      outcome: 'empty',
    });
    expect((await again.requests.load(id)).messages).toEqual([system, user]);
    await again.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT COUNT(*) AS n FROM context_blobs').get()).toEqual({ n: 3 });
    raw.close();
  });

  it('a request for a session that does not exist is refused and leaves no piece behind in the cache', async () => {
    const store = await openStore({ path: ':memory:' });
    await expect(
      store.requests.record({
        sessionId: 'nope',
        turn: 1,
        round: 1,
        attempt: 1,
        model: 'm',
        messages: texts([system]),
        tools: '[]',
        outcome: 'reply',
      }),
    ).rejects.toThrow(/no session/);
    const session = await store.createSession({ game: 'embedded', model: 'm' });
    const id = await store.requests.record({
      sessionId: session.id,
      turn: 1,
      round: 1,
      attempt: 1,
      model: 'm',
      messages: texts([system]),
      tools: '[]',
      outcome: 'reply',
    });
    expect((await store.requests.load(id)).messages).toEqual([system]);
    await store.close();
  });

  it('deleting a session removes its requests and the pieces no other session uses', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file });
    const kept = await store.createSession({ game: 'embedded', model: 'm' });
    const gone = await store.createSession({ game: 'embedded', model: 'm' });
    await store.requests.record({
      sessionId: kept.id,
      turn: 1,
      round: 1,
      attempt: 1,
      model: 'm',
      messages: texts([system, user]),
      tools: '[]',
      outcome: 'reply',
    });
    await store.requests.record({
      sessionId: gone.id,
      turn: 1,
      round: 1,
      attempt: 1,
      model: 'm',
      messages: texts([system, assistant, result]),
      tools: '[]',
      outcome: 'reply',
    });
    const run = await store.counterfactuals.create({ sessionId: gone.id, model: 'builtin/random' });
    expect(await store.deleteSession(gone.id)).toBe(true);
    expect(await store.requests.count(gone.id)).toBe(0);
    expect(await store.counterfactuals.get(run.id)).toBeUndefined();
    const [request] = await store.requests.list(kept.id);
    expect((await store.requests.load(request!.id)).messages).toEqual([system, user]);
    await store.close();
    const raw = new Database(file, { readonly: true });
    // system, user and the shared tool list stay; the deleted session's own assistant and tool messages go.
    expect(raw.prepare('SELECT COUNT(*) AS n FROM context_blobs').get()).toEqual({ n: 3 });
    raw.close();
  });
});

// Rule 14 at write: a store opened with `redact` stores no known secret — in messages (text, reasoning, tool-call
// arguments, data), logged requests or the session row — and no credentials in URLs.
import { describe, expect, it } from 'vitest';
import { createRedactor, openStore, stripUrlCredentials, urlCredentials } from '../../../internal/store/index.js';

const secret = 'sk-live-secret-123456';

describe('store redact option', () => {
  it('messages, logged requests and the session row are redacted before they are stored', async () => {
    const store = await openStore({ path: ':memory:', redact: createRedactor([secret, 'pa:ss']) });
    const session = await store.createSession({
      name: 'clean',
      game: 'https://ace:pa:ss@game.example/mcp',
      model: 'custom/m',
      extra: { baseUrl: 'http://u:pw-9999@127.0.0.1:1/v1', note: `key ${secret}` },
    });
    expect(session.game).toBe('https://game.example/mcp');
    expect(session.extra).toEqual({ baseUrl: 'http://127.0.0.1:1/v1', note: 'key [redacted]' });
    const stored = await store.append(session.id, {
      role: 'assistant',
      content: `the key is ${secret}`,
      reasoning: secret,
      toolCalls: [{ id: 'c1', name: 'chat', arguments: JSON.stringify({ text: secret }) }],
      turn: 1,
      round: 1,
    });
    expect(JSON.stringify(stored)).not.toContain(secret);
    await store.appendMany(session.id, [{ role: 'user', content: secret, turn: 2 }]);
    const id = await store.requests.record({
      sessionId: session.id,
      turn: 1,
      round: 1,
      attempt: 1,
      model: 'custom/m',
      messages: [JSON.stringify({ role: 'user', content: secret })],
      tools: JSON.stringify([{ description: secret }]),
      outcome: 'reply',
    });
    // A `__proto__` key in a result's data stays data, redacted like any other field.
    await store.append(session.id, {
      role: 'tool',
      content: 'ok',
      toolCallId: 'c1',
      toolName: 'chat',
      data: JSON.parse(`{"__proto__": {"echo": "${secret}"}}`),
      turn: 2,
    });
    expect(JSON.stringify((await store.messages(session.id)).at(-1)?.data)).toBe('{"__proto__":{"echo":"[redacted]"}}');
    const everything = JSON.stringify([
      await store.messages(session.id),
      await store.requests.load(id),
      await store.listSessions(),
    ]);
    expect(everything).not.toContain(secret);
    expect(everything).toContain('[redacted]');
    await store.close();
  });

  it('URL credentials: stripped, and listed as secrets (password, user:password, Basic form) but not the user', () => {
    expect(stripUrlCredentials('http://user:secretpw@127.0.0.1:8/v1')).toBe('http://127.0.0.1:8/v1');
    expect(stripUrlCredentials('embedded')).toBe('embedded');
    const listed = urlCredentials('http://user:secret%40pw@h/v1');
    expect(listed).toEqual(
      expect.arrayContaining([
        'user:secret%40pw',
        'secret%40pw',
        'secret@pw',
        Buffer.from('user:secret@pw').toString('base64'),
      ]),
    );
    expect(listed).not.toContain('user');
    expect(urlCredentials('http://h/v1')).toEqual([]);
    expect(urlCredentials(undefined)).toEqual([]);
  });
});

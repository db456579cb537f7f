import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exportSession,
  exportSessionToFile,
  openStore,
  parseJsonlExport,
  redactedMarker,
  shorten,
  type Store,
} from '../../../internal/store/index.js';
import type { Message } from '../../../internal/shared/index.js';
import { mode, tempDbPath } from './helpers.js';

const password = 'Tr0ub4dor&"3\\x'; // quotes and a backslash: escaped differently inside JSON arguments
const apiKey = 'sk-test-abcdefghijklmnop';
const issuedToken = 'ab'.repeat(32); // 64 hex characters, handed out by register

async function seeded(): Promise<{ store: Store; messages: Message[] }> {
  const store = await openStore({ path: ':memory:' });
  const session = await store.createSession({
    name: 'trip',
    game: 'https://game.example/mcp',
    model: 'openai/gpt',
    username: 'ace',
    goal: 'profit',
  });
  const messages: Message[] = [
    { id: 'a', role: 'system', content: 'You are a captain.', createdAt: 1 },
    { id: 'b', role: 'user', content: 'mine and sell', createdAt: 2, turn: 1 },
    {
      id: 'c',
      role: 'assistant',
      content: 'Mining.',
      reasoning: 'ore first',
      createdAt: 3,
      turn: 1,
      round: 1,
      toolCalls: [{ id: 't1', name: 'mine', arguments: '{"times":2}' }],
    },
    {
      id: 'd',
      role: 'tool',
      content: 'x'.repeat(10_000) + ' TOTAL 42',
      toolCallId: 't1',
      toolName: 'mine',
      data: { quantity: 2 },
      isError: false,
      createdAt: 4,
      turn: 1,
      round: 1,
    },
    { id: 'e', role: 'assistant', content: 'Done ```not a fence```', toolCalls: [], createdAt: 5, turn: 1, round: 2 },
    {
      id: 'f',
      role: 'tool',
      content: 'no_fuel',
      toolCallId: 't9',
      toolName: 'jump',
      isError: true,
      createdAt: 6,
      turn: 2,
      round: 1,
    },
  ];
  for (const message of messages) await store.append(session.id, message);
  return { store, messages };
}

async function exported(store: Store, format: 'md' | 'jsonl', secrets: string[] = []): Promise<string> {
  const chunks: string[] = [];
  const result = await exportSession(store, 'trip', { format, write: (chunk) => chunks.push(chunk), secrets });
  expect(result.messages).toBeGreaterThan(0);
  return chunks.join('');
}

describe('export', () => {
  it('jsonl round-trips: re-reading gives the same messages and session', async () => {
    const { store, messages } = await seeded();
    const text = await exported(store, 'jsonl');
    expect(text.split('\n').filter(Boolean)).toHaveLength(messages.length + 1);
    const parsed = parseJsonlExport(text);
    expect(parsed.messages).toStrictEqual(messages);
    expect(parsed.session).toMatchObject({
      name: 'trip',
      game: 'https://game.example/mcp',
      model: 'openai/gpt',
      username: 'ace',
      goal: 'profit',
    });
    await store.close();
  });

  it('markdown is readable: turn headings, compact tool calls, fenced shortened results keeping the tail', async () => {
    const { store } = await seeded();
    const md = await exported(store, 'md');
    expect(md).toContain('# Session trip');
    expect(md).toContain('## Turn 1');
    expect(md).toContain('## Turn 2');
    expect(md).toContain('- → `mine({"times":2})`');
    expect(md).toContain('TOTAL 42'); // the tail of a long result survives
    expect(md).toMatch(/\[… \d+ chars omitted …\]/);
    expect(md.length).toBeLessThan(8000);
    expect(md).toContain('✗ **jump** result');
    await store.close();
  });

  it('redacts passwords from the credentials table, given secrets and 64-hex tokens in register results, in both formats', async () => {
    const { store } = await seeded();
    const session = await store.getSession('trip');
    await store.credentials.put('https://game.example/mcp', 'ace', password);
    const escaped = JSON.stringify({ username: 'ace', password }); // how the model would send it
    await store.appendMany(session.id, [
      {
        role: 'assistant',
        content: `logging in with ${password}`,
        reasoning: `key ${apiKey}`,
        turn: 3,
        round: 1,
        toolCalls: [{ id: 'l1', name: 'login', arguments: escaped }],
      },
      {
        role: 'tool',
        content: `Welcome! Your password is ${issuedToken}`,
        toolCallId: 'r1',
        toolName: 'register',
        data: { details: { password: issuedToken, note: password } },
        turn: 3,
        round: 1,
      },
      { role: 'user', content: `my key is ${apiKey}`, turn: 3 },
    ]);
    for (const format of ['jsonl', 'md'] as const) {
      const text = await exported(store, format, [apiKey]);
      expect(text, format).not.toContain(password);
      expect(text, format).not.toContain(JSON.stringify(password).slice(1, -1));
      expect(text, format).not.toContain(apiKey);
      expect(text, format).not.toContain(issuedToken);
      expect(text, format).toContain(redactedMarker);
    }
    const parsed = parseJsonlExport(await exported(store, 'jsonl', [apiKey]));
    const login = parsed.messages.find((m) => m.toolCalls?.[0]?.name === 'login');
    expect(JSON.parse(login!.toolCalls![0]!.arguments)).toEqual({ username: 'ace', password: redactedMarker });
    // The store itself still holds the real thing (redaction is on the way out only).
    expect((await store.messages(session.id)).some((m) => m.content.includes(password))).toBe(true);
    await store.close();
  });

  it('parseJsonlExport names the bad line', () => {
    expect(() => parseJsonlExport('')).toThrow(/empty export/);
    expect(() => parseJsonlExport('{"nope":1}\n')).toThrow(/line 1/);
    const header = JSON.stringify({
      skipperExport: 1,
      session: {
        name: 'n',
        game: 'g',
        model: 'm',
        username: null,
        goal: null,
        status: 'active',
        createdAt: 1,
        updatedAt: 1,
        extra: {},
      },
    });
    expect(() => parseJsonlExport(`${header}\n{"id":"x"}\n`)).toThrow(/line 2 is not a message/);
    expect(() => parseJsonlExport(`${header}\nnot json\n`)).toThrow(/line 2 of the export is not JSON/);
  });

  it('shorten keeps a third of the budget from the head and two thirds from the tail', () => {
    const text = `${'h'.repeat(500)}${'m'.repeat(1000)}${'t'.repeat(500)}`;
    const short = shorten(text, 300);
    expect(short.startsWith('h'.repeat(100))).toBe(true);
    expect(short.endsWith('t'.repeat(200))).toBe(true);
    expect(short).toContain('[… 1700 chars omitted …]');
    expect(shorten('tiny', 300)).toBe('tiny');
  });

  it('exportSessionToFile writes a 0600 file holding the same text as the streaming export', async () => {
    const { store } = await seeded();
    const { dir } = tempDbPath();
    const file = path.join(dir, 'trip.jsonl');
    const result = await exportSessionToFile(store, 'trip', { format: 'jsonl', path: file });
    const text = fs.readFileSync(file, 'utf8');
    expect(result).toEqual({ messages: 6, bytes: Buffer.byteLength(text) });
    expect(mode(file)).toBe(0o600);
    expect(parseJsonlExport(text).messages).toStrictEqual(parseJsonlExport(await exported(store, 'jsonl')).messages);
    await store.close();
  });
});

// Tool results that are not text (images, embedded resources, resource links) are kept as typed parts: on the
// ToolResult, on the stored tool message (and through SQLite), as one line each in the terminal, and as the same
// one-line descriptions in the text the model reads (OpenAI chat tool messages carry text only).
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { TranscriptRenderer } from '../../../internal/cli/render.js';
import { connectGame, fromCallResult, type GameConnection } from '../../../internal/game/index.js';
import { createHistory, runTurn } from '../../../internal/llm/index.js';
import { toChatRequest } from '../../../internal/provider/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import type { ContentPart, Message } from '../../../internal/shared/index.js';
import { openStore } from '../../../internal/store/index.js';
import { memoryCredentials } from '../../fakes/memory-credentials.js';

/** The first 33 bytes of a PNG: signature, then the IHDR chunk with width and height. */
function pngBase64(width: number, height: number): string {
  const bytes = Buffer.alloc(40);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'ascii');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString('base64');
}

const REPORT = 'x'.repeat(2150);
const IMAGE = pngBase64(32, 32);
const EXPECTED_PARTS: ContentPart[] = [
  { type: 'image', mimeType: 'image/png', bytes: 40, width: 32, height: 32, data: IMAGE },
  { type: 'resource', uri: 'file:///tmp/report.txt', mimeType: 'text/plain', bytes: 2150 },
  { type: 'resource_link', uri: 'https://example.com/map', name: 'galaxy map' },
];

function partsServer(): Server {
  const server = new Server({ name: 'parts-game', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'scan', inputSchema: { type: 'object', properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [
      { type: 'text', text: 'Scan complete.' },
      { type: 'image', data: IMAGE, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///tmp/report.txt', mimeType: 'text/plain', text: REPORT } },
      { type: 'resource_link', uri: 'https://example.com/map', name: 'galaxy map' },
    ],
  }));
  return server;
}

const games: GameConnection[] = [];
afterEach(async () => {
  for (const game of games.splice(0)) await game.close();
});

async function connect(): Promise<GameConnection> {
  const game = await connectGame({
    target: {
      kind: 'transport',
      label: 'parts',
      url: 'parts://game',
      connect: async () => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        await partsServer().connect(server);
        return client;
      },
    },
    credentials: memoryCredentials(),
  });
  games.push(game);
  return game;
}

describe('non-text tool content', () => {
  it('comes back as typed parts, and the text the model reads describes each in one line', async () => {
    const game = await connect();
    const result = await game.call('scan', {});
    expect(result.parts).toEqual(EXPECTED_PARTS);
    expect(result.text).toBe(
      'Scan complete.\n[image 32×32 png]\n[resource file:///tmp/report.txt 2.1 KB]\n[resource_link https://example.com/map "galaxy map"]',
    );
  });

  it('a result with no text at all still tells the model what came back', () => {
    const data = Buffer.from('not a png').toString('base64');
    const result = fromCallResult({ content: [{ type: 'image', data, mimeType: 'image/jpeg' }] });
    expect(result.text).toBe('[image jpeg 9 B]');
    expect(result.parts).toEqual([{ type: 'image', mimeType: 'image/jpeg', bytes: 9, data }]);
  });

  it('are stored with the tool message, survive SQLite, and reach the model as text', async () => {
    const game = await connect();
    const provider = new ScriptedProvider([{ toolCalls: [{ id: 'c1', name: 'scan' }] }, { content: 'Seen.' }]);
    const history = createHistory({});
    const outcome = await runTurn({
      provider,
      game,
      tools: await game.listTools(),
      history,
      input: { kind: 'user', text: 'scan' },
      systemPrompt: 'test',
    });
    expect(outcome.outcome).toBe('answered');
    const tool = history.snapshot().find((message) => message.role === 'tool') as Message;
    expect(tool.parts).toEqual(EXPECTED_PARTS);
    expect(provider.requests[1]?.messages.find((message) => message.role === 'tool')?.content).toContain(
      '[image 32×32 png]',
    );

    const store = await openStore({ path: ':memory:' });
    try {
      const session = await store.createSession({ game: 'parts', model: 'scripted' });
      const { id: _id, createdAt: _at, ...rest } = tool;
      await store.append(session.id, rest);
      await store.append(session.id, {
        role: 'tool',
        content: 'plain',
        toolCallId: 'c2',
        toolName: 'scan',
        data: { op: 'get_status' },
      });
      const [withParts, plain] = await store.messages(session.id);
      expect(withParts?.parts).toEqual(EXPECTED_PARTS);
      expect(withParts?.data).toEqual(tool.data);
      expect(plain?.parts).toBeUndefined();
      expect(plain?.data).toEqual({ op: 'get_status' });
    } finally {
      await store.close();
    }
    const wire = toChatRequest(
      [
        { id: 'u', role: 'user', content: 'scan', createdAt: 0 },
        {
          id: 'a',
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'scan', arguments: '{}' }],
          createdAt: 0,
        },
        tool,
      ],
      [],
      'm',
    );
    expect(JSON.stringify(wire.messages.at(-1))).toContain('[resource file:///tmp/report.txt 2.1 KB]');
  });

  it('the terminal shows one line per part, without repeating them in the summary line', () => {
    const lines: string[] = [];
    const renderer = new TranscriptRenderer({
      sink: { line: (text) => lines.push(text), write: () => {} },
      color: false,
    });
    renderer.assistantMessage({
      id: 'a',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'scan', arguments: '{}' }],
      createdAt: 0,
    });
    renderer.toolResult({
      id: 't',
      role: 'tool',
      content:
        'Scan complete.\n[image 32×32 png]\n[resource file:///tmp/report.txt 2.1 KB]\n[resource_link https://example.com/map "galaxy map"]',
      toolCallId: 'c1',
      toolName: 'scan',
      parts: EXPECTED_PARTS,
      createdAt: 5,
    });
    expect(lines[0]).toMatch(/✓ scan .*→ Scan complete\.( |$)/);
    expect(lines[0]).not.toContain('[image');
    expect(lines.slice(1).map((line) => line.trim())).toEqual([
      '[image 32×32 png]',
      '[resource file:///tmp/report.txt 2.1 KB]',
      '[resource_link https://example.com/map "galaxy map"]',
    ]);
  });
});

describe('a restarted reply in the terminal', () => {
  it('ends the partial line, says the reply stalled, and shows the retry as a fresh reply', () => {
    const out: string[] = [];
    const renderer = new TranscriptRenderer({
      sink: { line: (text) => out.push(`${text}\n`), write: (text) => out.push(text) },
      color: false,
    });
    renderer.textDelta('half a rep');
    renderer.restartReply();
    renderer.textDelta('whole reply');
    renderer.assistantMessage({ id: 'a', role: 'assistant', content: 'whole reply', toolCalls: [], createdAt: 0 });
    expect(out.join('')).toBe(
      'captain › half a rep\n  ↻ the reply stalled; asking the model again\ncaptain › whole reply\n',
    );
  });
});

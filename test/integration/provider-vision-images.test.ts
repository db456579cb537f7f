// A tool result's image reaches a model marked as accepting images in config.json (`"vision": true`) as a data URL in
// the next request, and never reaches one marked `"vision": false` — the config wins over the model-id guess both
// ways. Real HTTP to the strict fake OpenAI server, a real MCP game server over the in-memory transport.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../internal/cli/config.js';
import { connectGame, type GameConnection } from '../../internal/game/index.js';
import { createHistory, runTurn } from '../../internal/llm/index.js';
import { acceptsImages, createProvider } from '../../internal/provider/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { memoryCredentials } from '../fakes/memory-credentials.js';

const IMAGE = Buffer.from('pretend these are the bytes of a small png').toString('base64');
const DATA_URL = `data:image/png;base64,${IMAGE}`;

function cameraServer(): Server {
  const server = new Server({ name: 'camera-game', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'view_map', inputSchema: { type: 'object', properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [
      { type: 'text', text: 'The sector map:' },
      { type: 'image', data: IMAGE, mimeType: 'image/png' },
    ],
  }));
  return server;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function playOneTurn(options: { model: string; configFile: Record<string, unknown> }): Promise<FakeOpenAI> {
  const home = mkdtempSync(join(tmpdir(), 'skipper-vision-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  writeFileSync(join(home, 'config.json'), JSON.stringify(options.configFile));
  const config = resolveConfig({ home }, {});

  const fake = await startFakeOpenAI({
    script: [{ toolCalls: [{ id: 'c1', name: 'view_map', arguments: {} }] }, { content: 'A small sector.' }],
  });
  cleanups.push(() => fake.close());
  // As cmd/wire.ts passes it: the config's `vision`, when set, overrides the guess from the model id.
  const provider = createProvider(
    {
      id: `custom/${options.model}`,
      provider: 'custom',
      model: options.model,
      baseUrl: fake.url,
      apiKey: 'sk-test',
      apiKeyEnv: 'TEST_KEY',
      local: false,
    },
    {
      retry: { maxAttempts: 1, baseMs: 5, maxMs: 10 },
      ...(config.vision !== undefined ? { vision: config.vision } : {}),
    },
  );
  const game: GameConnection = await connectGame({
    target: {
      kind: 'transport',
      label: 'camera',
      url: 'camera://game',
      connect: async () => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        await cameraServer().connect(server);
        return client;
      },
    },
    credentials: memoryCredentials(),
  });
  cleanups.push(() => game.close());
  const outcome = await runTurn({
    provider,
    game,
    tools: await game.listTools(),
    history: createHistory({}),
    input: { kind: 'user', text: 'show me the map' },
    systemPrompt: 'test',
  });
  expect(outcome.outcome).toBe('answered');
  expect(fake.invalid).toEqual([]);
  expect(fake.exhausted).toBe(false);
  expect(fake.chatRequests).toHaveLength(2);
  return fake;
}

describe('tool-result images over the wire', () => {
  it('reach a model marked "vision": true in config.json, in a user message after the tool result', async () => {
    expect(acceptsImages('my-local-model')).toBe(false); // only the config says it can see
    const fake = await playOneTurn({ model: 'my-local-model', configFile: { vision: true } });
    const messages = fake.chatRequests[1]?.body.messages as Array<{ role: string; content: unknown }>;
    expect(messages.at(-2)).toMatchObject({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'The sector map:\n[image png 42 B]',
    });
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Images from the tool results above (call ids c1):' },
        { type: 'image_url', image_url: { url: DATA_URL } },
      ],
    });
    expect(JSON.stringify(fake.chatRequests[0]?.body)).not.toContain('base64');
  });

  it('never reach a model marked "vision": false, even one whose id looks like it sees', async () => {
    expect(acceptsImages('gpt-4o')).toBe(true);
    const fake = await playOneTurn({ model: 'gpt-4o', configFile: { vision: false } });
    const body = JSON.stringify(fake.chatRequests[1]?.body);
    expect(body).not.toContain(IMAGE);
    expect(body).not.toContain('image_url');
    expect(body).toContain('[image png 42 B]');
  });
});

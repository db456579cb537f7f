// Validation failures carry their own code, never the generic `error`: Skipper's own check of the arguments against
// the tool's schema gives `invalid_arguments`; a game's refusal keeps the game's code (`invalid_params` from an MCP
// SDK server's input validation, `invalid_payload` from SpaceMolt), in `code` and in the stored observation alike.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectGame, fromCallResult, type GameConnection } from '../../../internal/game/index.js';
import { prepareCall, type ToolCatalog } from '../../../internal/llm/dispatch.js';
import type { ToolSpec } from '../../../internal/shared/index.js';
import { memoryCredentials } from '../../fakes/memory-credentials.js';

const mine: ToolSpec = {
  name: 'mine',
  description: 'Mine',
  inputSchema: {
    type: 'object',
    properties: {
      units: { type: 'integer' },
      mode: { type: 'string', enum: ['fast', 'safe'] },
      note: { type: ['string', 'null'] },
    },
    required: ['units'],
  },
  readOnly: false,
};
const catalog: ToolCatalog = { tools: new Map([[mine.name, mine]]), local: new Map() };
const call = (args: unknown): ReturnType<typeof prepareCall> =>
  prepareCall({ id: 'c1', name: 'mine', arguments: JSON.stringify(args) }, catalog);

describe("Skipper's own argument check", () => {
  it('a wrong type or a value outside the enum is refused before the call, as invalid_arguments', () => {
    const wrongType = call({ units: 'three' });
    expect(wrongType.invalid).toMatchObject({ isError: true, code: 'invalid_arguments' });
    expect(wrongType.invalid?.text).toMatch(/units.*integer/);
    expect(call({ units: 2.5 }).invalid?.code).toBe('invalid_arguments');
    const badEnum = call({ units: 3, mode: 'greedy' });
    expect(badEnum.invalid?.code).toBe('invalid_arguments');
    expect(badEnum.invalid?.text).toMatch(/mode.*fast.*safe/);
  });

  it('valid arguments, unknown extra fields and missing ones pass (the game layer fills some; the game judges the rest)', () => {
    expect(call({ units: 3, mode: 'safe', note: null }).invalid).toBeUndefined();
    expect(call({ units: 3, extra: true }).invalid).toBeUndefined();
    expect(call({}).invalid).toBeUndefined();
  });
});

describe("the game's validation codes", () => {
  it('an MCP SDK server input-validation error (text "MCP error -32602: …") reads as invalid_params', () => {
    const result = fromCallResult({
      content: [
        {
          type: 'text',
          text: 'MCP error -32602: Input validation error: Invalid arguments for tool mine: expected number',
        },
      ],
      isError: true,
    });
    expect(result.code).toBe('invalid_params');
  });

  const games: GameConnection[] = [];
  afterEach(async () => {
    for (const game of games.splice(0)) await game.close();
  });

  it('through a connection: a real McpServer refusing bad arguments gives invalid_params', async () => {
    const server = new McpServer({ name: 'zod-game', version: '1.0.0' });
    server.registerTool('mine', { inputSchema: { units: z.number() } }, async ({ units }) => ({
      content: [{ type: 'text', text: `mined ${units}` }],
    }));
    const game = await connectGame({
      target: {
        kind: 'transport',
        label: 'zod',
        url: 'zod://game',
        connect: async () => {
          const [client, peer] = InMemoryTransport.createLinkedPair();
          await server.connect(peer);
          return client;
        },
      },
      credentials: memoryCredentials(),
    });
    games.push(game);
    const result = await game.call('mine', { units: 'lots' });
    expect(result.isError).toBe(true);
    expect(result.code).toBe('invalid_params');
  });
});

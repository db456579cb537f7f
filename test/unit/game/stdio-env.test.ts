// stdio: game servers get Skipper's whole environment (the SDK alone passes only a small safe subset: HOME, PATH,
// USER…) plus what `--game-env KEY=VALUE` adds; a malformed --game-env is a usage error.
import { afterEach, describe, expect, it } from 'vitest';
import { connectGame, parseEnvAssignment, type GameConnection, type GameTarget } from '../../../internal/game/index.js';
import { UsageError } from '../../../internal/shared/index.js';
import { memoryCredentials } from '../../fakes/memory-credentials.js';

const ENV_SERVER_SCRIPT = `
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 'env-game', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [
  { name: 'read_env', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
] }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const name = String(request.params.arguments?.name ?? '');
  return { content: [{ type: 'text', text: name + '=' + (process.env[name] ?? '(unset)') }] };
});
await server.connect(new StdioServerTransport());
`;

const games: GameConnection[] = [];
afterEach(async () => {
  for (const game of games.splice(0)) await game.close();
  delete process.env.SKIPPER_TEST_INHERITED;
});

async function connect(env?: Record<string, string>): Promise<GameConnection> {
  const target: GameTarget = {
    kind: 'stdio',
    command: process.execPath,
    args: ['--input-type=module', '-e', ENV_SERVER_SCRIPT],
    ...(env ? { env } : {}),
  };
  const game = await connectGame({
    target,
    credentials: memoryCredentials(),
    timeouts: { queryMs: 5000, connectMs: 5000 },
  });
  games.push(game);
  return game;
}

describe('stdio game environment', () => {
  it('inherits the environment Skipper runs in, not only the SDK safe subset', async () => {
    process.env.SKIPPER_TEST_INHERITED = 'from-parent';
    const game = await connect();
    expect((await game.call('read_env', { name: 'SKIPPER_TEST_INHERITED' })).text).toBe(
      'SKIPPER_TEST_INHERITED=from-parent',
    );
  });

  it('adds --game-env values, which win over inherited ones', async () => {
    process.env.SKIPPER_TEST_INHERITED = 'from-parent';
    const game = await connect({ GAME_TOKEN: 'abc=def', SKIPPER_TEST_INHERITED: 'from-flag' });
    expect((await game.call('read_env', { name: 'GAME_TOKEN' })).text).toBe('GAME_TOKEN=abc=def');
    expect((await game.call('read_env', { name: 'SKIPPER_TEST_INHERITED' })).text).toBe(
      'SKIPPER_TEST_INHERITED=from-flag',
    );
  });
});

describe('--game-env values', () => {
  it('splits at the first "=" (values may contain "=" or be empty)', () => {
    expect(parseEnvAssignment('KEY=VALUE')).toEqual(['KEY', 'VALUE']);
    expect(parseEnvAssignment('TOKEN=a=b')).toEqual(['TOKEN', 'a=b']);
    expect(parseEnvAssignment('EMPTY=')).toEqual(['EMPTY', '']);
  });

  it('a missing "=" or a bad name is a usage error that shows the expected form', () => {
    expect(() => parseEnvAssignment('NOEQUALS')).toThrow(UsageError);
    expect(() => parseEnvAssignment('NOEQUALS')).toThrow(/KEY=VALUE/);
    expect(() => parseEnvAssignment('=value')).toThrow(/KEY=VALUE/);
    expect(() => parseEnvAssignment('BAD KEY=1')).toThrow(/not a valid variable name/);
  });
});

describe('what a stdio game server does not get', () => {
  it('withholds Skipper’s secrets (API keys, the game password, the registration code) unless --game-env passes one', async () => {
    const { childEnvironment } = await import('../../../internal/game/transport.js');
    const env = childEnvironment(
      { OPENAI_API_KEY: 'given-on-purpose' },
      {
        PATH: '/bin',
        OPENAI_API_KEY: 'sk-secret',
        OPENROUTER_API_KEY: 'or-secret',
        MY_KEY: 'custom-secret',
        SKIPPER_API_KEY_ENV: 'MY_KEY',
        SKIPPER_GAME_PASSWORD: 'pw',
        SKIPPER_REGISTRATION_CODE: 'code',
        GAME_MODE: 'fast',
      },
    );
    expect(env).toEqual({ PATH: '/bin', GAME_MODE: 'fast', OPENAI_API_KEY: 'given-on-purpose' });
  });
});

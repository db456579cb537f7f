// Rule 14 for what Skipper prints: export and replay redact every secret Skipper knows — the key named by a session's
// --api-key-env, the well-known key variables, stored game passwords, SKIPPER_GAME_PASSWORD and registration codes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) removeHome(dir);
});

const secrets = {
  sessionKey: 'mpk-session-key-0123456789', // in MY_PROVIDER_KEY, named by the session's --api-key-env
  openaiKey: 'sk-openai-key-9876543210',
  storedPassword: 'stored-hunter2-password',
  envPassword: 'env-game-password-4242',
  configCode: 'REG-CONFIG-CODE-5566',
  envCode: 'REG-ENV-CODE-7788',
};

async function leakyHome(): Promise<string> {
  const home = makeHome();
  homes.push(home);
  writeFileSync(join(home, 'config.json'), JSON.stringify({ registrationCode: secrets.configCode }));
  const store = await openStore({ path: join(home, 'skipper.db') });
  const session = await store.createSession({
    name: 'leaky',
    game: 'https://game.example/mcp',
    model: 'custom/m',
    extra: { apiKeyEnv: 'MY_PROVIDER_KEY' },
  });
  await store.credentials.put('game.example', 'ace', secrets.storedPassword);
  const all = Object.values(secrets).join(' and ');
  await store.append(session.id, { role: 'user', content: `remember ${all}`, turn: 1 });
  await store.append(session.id, {
    role: 'assistant',
    content: `I will keep ${all} safe`,
    toolCalls: [{ id: 'c1', name: 'chat', arguments: JSON.stringify({ text: all }) }],
    turn: 1,
    round: 1,
  });
  await store.append(session.id, {
    role: 'tool',
    content: `echo: ${all}`,
    toolCallId: 'c1',
    toolName: 'chat',
    turn: 1,
    round: 1,
  });
  await store.close();
  return home;
}

async function run(home: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = runCli(args, {
    home,
    env: {
      MY_PROVIDER_KEY: secrets.sessionKey,
      OPENAI_API_KEY: secrets.openaiKey,
      SKIPPER_GAME_PASSWORD: secrets.envPassword,
      SKIPPER_REGISTRATION_CODE: secrets.envCode,
    },
  });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

describe('secrets in exports and replays', () => {
  for (const args of [
    ['export', 'leaky', '--format', 'jsonl'],
    ['export', 'leaky', '--format', 'md'],
    ['replay', 'leaky', '--instant'],
  ]) {
    it(`${args.join(' ')} redacts every known secret`, async () => {
      const home = await leakyHome();
      const result = await run(home, args);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('[redacted]');
      for (const [name, value] of Object.entries(secrets)) expect(result.stdout, name).not.toContain(value);
    });
  }
});

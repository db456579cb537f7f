// Rule 14: one list of every secret (collectSecrets) and one redactor, used by the log file and --json output alike.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLineWriter } from '../../../internal/cli/json-events.js';
import { createFileLogger } from '../../../internal/cli/logger.js';
import { collectSecrets, SecretList } from '../../../internal/cli/secrets.js';
import { openStore } from '../../../internal/store/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the secret list', () => {
  it('collects API keys (well-known and named), stored passwords, game password and API key, registration codes', async () => {
    const store = await openStore({ path: ':memory:' });
    await store.createSession({ name: 'a', game: 'g', model: 'custom/m', extra: { apiKeyEnv: 'SESSION_KEY' } });
    await store.credentials.put('g', 'ace', 'stored-password');
    const env = {
      GROQ_API_KEY: 'groq-key-123456',
      SESSION_KEY: 'session-key-123456',
      FLAG_KEY: 'flag-key-123456',
      SKIPPER_GAME_PASSWORD: 'env-password',
      SKIPPER_REGISTRATION_CODE: 'env-code-1234',
      SKIPPER_GAME_API_KEY: 'game-api-key-env',
      UNRELATED: 'not-a-secret-at-all',
    };
    const list = await collectSecrets({
      env,
      apiKeyEnvs: ['FLAG_KEY'],
      registrationCodes: ['file-code-1234', undefined],
      gameApiKeys: ['game-api-key-flag'],
      store,
    });
    expect(list.list().sort()).toEqual(
      [
        'game-api-key-env',
        'game-api-key-flag',
        'env-code-1234',
        'env-password',
        'file-code-1234',
        'flag-key-123456',
        'groq-key-123456',
        'session-key-123456',
        'stored-password',
      ].sort(),
    );
    await store.close();
  });

  it('--json lines are redacted, also where a secret sits JSON-escaped inside a string', () => {
    const secrets = new SecretList();
    secrets.add('pa"ss\\word-1');
    const lines: string[] = [];
    const write = jsonLineWriter({ write: (text) => lines.push(text) > 0 }, { redact: (text) => secrets.redact(text) });
    write({ type: 'tool-call', arguments: JSON.stringify({ password: 'pa"ss\\word-1' }), text: 'say pa"ss\\word-1' });
    expect(lines.join('')).not.toContain('word-1');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ text: 'say [redacted]' });
  });

  it('the log file redacts through the same list, including secrets added after it was made', async () => {
    const home = mkdtempSync(join(tmpdir(), 'skipper-log-'));
    dirs.push(home);
    const secrets = new SecretList();
    const fileLogger = createFileLogger({ home, secrets });
    secrets.add('late-api-key-998877');
    fileLogger.logger.info({ detail: 'key late-api-key-998877 here' }, 'about late-api-key-998877');
    fileLogger.flush();
    await fileLogger.close(); // a write may still be in flight after flushSync: close() resolves once it has landed
    const text = readFileSync(fileLogger.path, 'utf8');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('late-api-key-998877');
  });
});

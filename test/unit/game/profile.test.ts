// The game profile (detection, ops, calls, reading), the arguments Skipper fills in (registration code, session
// id), the Session-ID-is-not-the-password rule and credential keys shared by a host's endpoints.
import { describe, expect, it } from 'vitest';
import { credentialKeys } from '../../../internal/game/credential-key.js';
import {
  describeFilledParams,
  fillRegistration,
  fillSessionId,
  hideTokens,
  readSessionId,
} from '../../../internal/game/filled-args.js';
import { Keyring } from '../../../internal/game/keyring.js';
import { detectProfile } from '../../../internal/game/profile.js';
import type { ToolSpec } from '../../../internal/shared/index.js';
import * as S from '../../fixtures/spacemolt/text-samples.js';
import { memoryCredentials } from '../../fakes/memory-credentials.js';

const tool = (name: string, properties: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object', properties },
});
const V2 = [
  tool('spacemolt_auth', { action: { type: 'string' }, username: {}, password: {}, registration_code: {} }),
  tool('spacemolt', { action: { type: 'string' }, id: {}, limit: {}, clear: {} }),
  tool('spacemolt_social', { action: { type: 'string' }, target: {}, content: {} }),
];
const V1 = ['register', 'login', 'get_status', 'mine', 'travel', 'get_notifications', 'captains_log_add'].map((name) =>
  tool(name),
);

describe('detectProfile', () => {
  it('tells v2, v1 and generic apart by the tool list, and keeps the server name', () => {
    const v2 = detectProfile({ serverName: 'minimolt', tools: V2 });
    expect([v2.id, v2.face, v2.server]).toEqual(['spacemolt-v2', 'v2', 'minimolt']);
    expect(detectProfile({ serverName: 'spacemolt', tools: V1 }).id).toBe('spacemolt-v1');
    expect(detectProfile({ tools: [tool('look'), tool('go')] }).id).toBe('generic');
    expect(detectProfile({ tools: [tool('spacemolt')] }).id).toBe('generic'); // no action: not the grouped face
  });

  it('spells ops as calls and reads calls back as ops', () => {
    const v2 = detectProfile({ tools: V2 });
    expect(v2.callFor('login', { username: 'nova', password: 'pw' })).toEqual({
      name: 'spacemolt_auth',
      args: { action: 'login', username: 'nova', password: 'pw' },
    });
    expect(v2.callFor('get_notifications', { limit: 5, clear: true })).toEqual({
      name: 'spacemolt',
      args: { action: 'get_notifications', limit: 5, clear: true },
    });
    expect(v2.callFor('captains_log_add', { content: 'x' })).toEqual({
      name: 'spacemolt_social',
      args: { action: 'captains_log_add', content: 'x' },
    });
    expect(v2.callFor('view_market')).toBeUndefined(); // spacemolt_market is not in this list
    expect(v2.opOf('spacemolt', { action: 'mine' })).toBe('mine');
    expect(v2.opOf('spacemolt_social', { action: 'login' })).toBe('login'); // login anywhere gets the password's care
    const v1 = detectProfile({ tools: V1 });
    expect(v1.callFor('captains_log_add', { content: 'x' })).toEqual({
      name: 'captains_log_add',
      args: { entry: 'x' },
    });
    expect(v1.opOf('travel', { target_poi: 'sol_belt' })).toBe('travel');
    const generic = detectProfile({ tools: [tool('login'), tool('look')] });
    expect(generic.callFor('login', { username: 'a', password: 'b' })).toEqual({
      name: 'login',
      args: { username: 'a', password: 'b' },
    });
    expect(generic.callFor('get_notifications')).toBeUndefined();
    expect(generic.read('get_status', S.STATUS_DOCKED, false)).toBeUndefined();
    expect(v1.read('get_status', S.STATUS_DOCKED, false)?.player?.credits).toBe(1234);
  });

  it('knows when register needs a code', () => {
    const spec = (properties: Record<string, unknown>, required?: string[]): ToolSpec => ({
      name: 'register',
      description: '',
      readOnly: false,
      inputSchema: { type: 'object', properties, ...(required ? { required } : {}) },
    });
    expect(detectProfile({ tools: V1 }).needsRegistrationCode(spec({ registration_code: {} }))).toBe(true);
    expect(detectProfile({ tools: V1 }).needsRegistrationCode(spec({ username: {} }))).toBe(false);
    expect(detectProfile({ tools: [tool('x')] }).needsRegistrationCode(spec({ registration_code: {} }))).toBe(false);
    expect(
      detectProfile({ tools: [tool('x')] }).needsRegistrationCode(
        spec({ registration_code: {} }, ['registration_code']),
      ),
    ).toBe(true);
  });
});

describe('filled arguments', () => {
  const spec: ToolSpec = {
    name: 'register',
    description: 'Create a player.',
    readOnly: false,
    inputSchema: { type: 'object', properties: { username: {}, registration_code: { type: 'string' } } },
  };

  it('fills, refuses, or drops the registration code', () => {
    expect(
      fillRegistration({ username: 'a', registration_code: '[saved]' }, { spec, code: 'CODE-1', required: true }),
    ).toEqual({ args: { username: 'a', registration_code: 'CODE-1' } });
    expect(fillRegistration({ username: 'a' }, { spec, code: undefined, required: true })).toMatchObject({
      refused: { code: 'registration_code_missing', isError: true },
    });
    expect(
      fillRegistration({ username: 'a', registration_code: '[saved]' }, { spec, code: undefined, required: false }),
    ).toEqual({ args: { username: 'a' } });
  });

  it('tells the model which parameters Skipper fills, without changing the original schema', () => {
    const shown = describeFilledParams(spec);
    expect(shown.description).toBe('Create a player.\n(registration_code is filled in by Skipper.)');
    expect(shown.inputSchema.properties?.registration_code).toEqual({
      type: 'string',
      description: expect.stringContaining('Filled in by Skipper'),
    });
    expect(spec.inputSchema.properties?.registration_code).toEqual({ type: 'string' });
  });

  it('reads the Session ID only from its label, hides every 64-hex of a greeting, fills session_id', () => {
    const id = '9a8b7c6d5e4f30211203f4e5d6c7b8a99a8b7c6d5e4f30211203f4e5d6c7b8a9';
    expect(readSessionId(S.LOGIN)).toBe(id);
    expect(hideTokens(S.LOGIN)).toContain('Session ID: [hidden]');
    expect(hideTokens(S.REGISTER)).not.toMatch(/[0-9a-f]{64}/);
    const withSession: ToolSpec = { ...spec, inputSchema: { type: 'object', properties: { session_id: {} } } };
    expect(fillSessionId({ action: 'mine', session_id: '[hidden]' }, withSession, id)).toEqual({
      action: 'mine',
      session_id: id,
    });
    expect(fillSessionId({ action: 'mine' }, spec, id)).toEqual({ action: 'mine' });
  });
});

describe('keyring', () => {
  it('never stores a Session ID as the password', async () => {
    const store = memoryCredentials();
    const keyring = new Keyring({ store, keys: { key: 'k', legacy: [] } });
    const greeting = S.LOGIN.replace('Welcome back', 'Welcome');
    keyring.noteGreeting(greeting);
    expect(await keyring.captureRegistration({ username: 'Nova' }, { text: greeting, isError: false })).toBeUndefined();
    expect(await store.latest('k')).toBeUndefined();
    keyring.noteGreeting(S.REGISTER);
    expect(await keyring.captureRegistration({}, { text: S.REGISTER, isError: false })).toBe('Nova');
    expect((await store.get('k', 'Nova'))?.password).toBe(
      '3f1c0de2a9b84c7e5f60718293a4b5c6d7e8f90112233445566778899aabbccd',
    );
    const shown = keyring.redact({ text: S.REGISTER, isError: false }, { greeting: true }).text;
    expect(shown).toContain('Password: [saved]');
    expect(shown).toContain('Session ID: [hidden]');
  });
});

describe('credential keys', () => {
  it("files a host's endpoints under one key, and remembers the old full-URL keys", () => {
    const flat = credentialKeys({ kind: 'http', url: 'https://game.spacemolt.com/mcp' });
    const grouped = credentialKeys({ kind: 'http', url: 'https://game.spacemolt.com/mcp/v2?preset=standard' });
    expect(flat.key).toBe('https://game.spacemolt.com');
    expect(grouped.key).toBe(flat.key);
    expect(grouped.legacy).toContain('https://game.spacemolt.com/mcp/v2?preset=standard');
    expect(grouped.legacy).toContain('https://game.spacemolt.com/mcp');
    expect(credentialKeys({ kind: 'http', url: 'http://127.0.0.1:9/mcp' }).key).not.toBe(
      credentialKeys({ kind: 'http', url: 'http://127.0.0.1:8/mcp' }).key,
    );
    expect(
      credentialKeys({
        kind: 'transport',
        label: 'embedded',
        url: 'embedded://minimolt',
        connect: async () => {
          throw new Error('unused');
        },
      }),
    ).toEqual({ key: 'embedded://minimolt', legacy: [] });
  });
});

// Rule: a capture file keeps nothing secret. The redaction of game text and call arguments, asserted on a greeting
// like the real server's (Session ID, password, the username) and on a file written by CaptureWriter.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CaptureWriter,
  GameCapture,
  captureHost,
  redactArgs,
  redactText,
  REDACTED,
} from '../../../internal/cli/game-capture.js';

const PASSWORD = 'hunter2-correct-horse';
const SESSION = 'abc123def4567890abc123def4567890';
const HEX = 'a'.repeat(32) + '0123456789abcdef'.repeat(2);
const context = { secrets: [PASSWORD, 'REG-CODE-42'], usernames: ['Nova Kestrel'] };
const greeting = [
  'Welcome back, Nova Kestrel [nebula]!',
  `Session ID: ${SESSION}`,
  `Password: ${PASSWORD}`,
  `Your key: ${HEX}`,
  '{"session_id": "s-1", "token": "t-2", "player": "Nova Kestrel"}',
  'registration code: REG-CODE-42',
].join('\n');

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('capture redaction', () => {
  it('leaves no session id, password, token, long hex or username in a greeting', () => {
    const text = redactText(greeting, context);
    for (const secret of ['Nova Kestrel', SESSION, PASSWORD, HEX, 's-1', 't-2', 'REG-CODE-42'])
      expect(text).not.toContain(secret);
    expect(text).toContain(`Session ID: ${REDACTED}`);
    expect(text).toContain(`Welcome back, ${REDACTED} [nebula]!`);
    expect(text).toContain('[REDACTED_HEX]');
  });

  it('replaces secret-named arguments and redacts the other strings', () => {
    const args = redactArgs(
      {
        action: 'login',
        username: 'Nova Kestrel',
        password: PASSWORD,
        session_id: SESSION,
        note: { text: `hi ${PASSWORD}` },
      },
      context,
    );
    expect(args).toEqual({
      action: 'login',
      username: REDACTED,
      password: REDACTED,
      session_id: REDACTED,
      note: { text: `hi ${REDACTED}` },
    });
  });

  it('keeps the game text that is not secret', () => {
    expect(redactText('Fuel: 87/130 | Cargo: 30/100\nTokens: 5', context)).toBe(
      'Fuel: 87/130 | Cargo: 30/100\nTokens: 5',
    );
  });

  it('writes one parseable file per answer in the fixture shape, with nothing secret in it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skipper-capture-'));
    dirs.push(dir);
    const writer = new CaptureWriter(join(dir, 'new'), () => new Date('2026-07-12T00:00:00Z'));
    writer.write({
      meta: {
        game: captureHost('https://game.spacemolt.com/mcp/v2?preset=standard'),
        server: { name: 'spacemolt', version: 'v0.547.0' },
      },
      tool: 'spacemolt_auth',
      args: { action: 'login', username: 'Nova Kestrel', password: PASSWORD },
      result: { text: greeting, isError: false },
      context,
    });
    const files = readdirSync(join(dir, 'new'));
    expect(files).toEqual(['0001-spacemolt_auth-login.json']);
    const raw = readFileSync(join(dir, 'new', files[0]!), 'utf8');
    const record = JSON.parse(raw) as {
      _meta: Record<string, unknown>;
      tool: string;
      action: string;
      raw: { result: { content: Array<{ text: string }> } };
    };
    expect(record._meta).toMatchObject({
      captured: '2026-07-12T00:00:00.000Z',
      game: 'game.spacemolt.com',
      server: { name: 'spacemolt', version: 'v0.547.0' },
    });
    expect(record._meta.redactions).toEqual(expect.stringContaining('username'));
    expect(record).toMatchObject({ tool: 'spacemolt_auth', action: 'login' });
    expect(record.raw.result.content[0]?.text).toContain(`Session ID: ${REDACTED}`);
    for (const secret of ['Nova Kestrel', SESSION, PASSWORD, HEX, 'REG-CODE-42']) expect(raw).not.toContain(secret);
  });

  it('keeps the handshake and the connection own calls in order, redacted, schema keys kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skipper-capture-'));
    dirs.push(dir);
    const capture = new GameCapture({
      writer: new CaptureWriter(dir),
      gameUrl: 'https://game.spacemolt.com/mcp/v2',
      secrets: () => [PASSWORD],
      username: 'Nova Kestrel',
    });
    capture.exchange({
      type: 'initialize',
      serverInfo: { name: 'spacemolt-gameserver', version: '0.493.0' },
      capabilities: { tools: {} },
      instructions: 'Welcome, Nova Kestrel: pass your session_id=abc123 on every call.',
    });
    const schema = { type: 'object', properties: { action: { enum: ['login'] }, password: { type: 'string' } } };
    capture.exchange({ type: 'tools-list', pages: [{ tools: [{ name: 'spacemolt_auth', inputSchema: schema }] }] });
    capture.exchange({
      type: 'call',
      name: 'spacemolt_auth',
      args: { action: 'login', username: 'Nova Kestrel', password: PASSWORD },
      result: { text: greeting, isError: false },
      own: true,
    });
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['0001-initialize.json', '0002-tools_list.json', '0003-spacemolt_auth-login.json']);
    const read = (file: string): Record<string, any> => JSON.parse(readFileSync(join(dir, file), 'utf8'));
    expect(read(files[0]!).result).toEqual({
      serverInfo: { name: 'spacemolt-gameserver', version: '0.493.0' },
      capabilities: { tools: {} },
      instructions: `Welcome, ${REDACTED}: pass your session_id=${REDACTED} on every call.`,
    });
    // A parameter named password is a schema, not a secret: the tool list must still say what the tool takes.
    expect(read(files[1]!).result).toEqual({ pages: [{ tools: [{ name: 'spacemolt_auth', inputSchema: schema }] }] });
    expect(read(files[2]!)._meta.method).toContain("connection's own");
    for (const file of files) {
      const raw = readFileSync(join(dir, file), 'utf8');
      for (const secret of ['Nova Kestrel', SESSION, PASSWORD, 'abc123']) expect(raw, file).not.toContain(secret);
    }
  });
});

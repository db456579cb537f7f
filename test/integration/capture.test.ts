// `--capture DIR` on the embedded game, through the built CLI: the server's initialize result and tool list, then
// every game answer, each become a JSON file that parses, has the fixture's `_meta`, and holds neither the password
// the captain registered with nor its username; `skipper doctor --from` reads the folder back.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const home = tempHomes();

describe('skipper --capture DIR', () => {
  it('writes one redacted JSON file per game answer', async () => {
    const dir = home();
    const capture = join(dir, 'capture');
    const run = runCli(['--autoplay', '--max-ticks', '8', '--tick-ms', '0', '--capture', capture, '--json'], {
      home: dir,
    });
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(0);
    const db = new Database(join(dir, 'skipper.db'), { readonly: true });
    const accounts = db.prepare('SELECT username, password FROM credentials').all() as Array<{
      username: string;
      password: string;
    }>;
    db.close();
    expect(accounts).toHaveLength(1);
    const { username, password } = accounts[0]!;
    const files = readdirSync(capture).sort();
    expect(files.length).toBeGreaterThan(3);
    expect(files.some((file) => /^\d{4}-spacemolt_auth-register\.json$/.test(file))).toBe(true);
    // What the server said before any call: its initialize result and its tool list, every page.
    expect(files.slice(0, 2)).toEqual(['0001-initialize.json', '0002-tools_list.json']);
    const tools = JSON.parse(readFileSync(join(capture, files[1]!), 'utf8')) as {
      kind: string;
      result: { pages: Array<{ tools: Array<{ name: string }> }> };
    };
    expect(tools.kind).toBe('tools/list');
    expect(tools.result.pages.flatMap((page) => page.tools.map((tool) => tool.name))).toContain('spacemolt');
    for (const file of files) {
      const text = readFileSync(join(capture, file), 'utf8');
      const record = JSON.parse(text) as {
        _meta: { game: string; server: { name?: string }; redactions: string };
        kind?: string;
        tool?: string;
        isError?: boolean;
        text?: string;
      };
      expect(record._meta.game).toBe('embedded');
      expect(record._meta.server.name).toBe('minimolt');
      // An answer has its error flag; the handshake files say which they are.
      if (record.kind === undefined) expect(typeof record.isError, file).toBe('boolean');
      else expect(['initialize', 'tools/list']).toContain(record.kind);
      expect(text, file).not.toContain(password);
      expect(text, file).not.toContain(username);
    }
    // The connection's own calls are kept too: the notifications it fetches between turns.
    const own = files.filter((file) =>
      (JSON.parse(readFileSync(join(capture, file), 'utf8')) as { _meta: { method: string } })._meta.method.includes(
        "connection's own",
      ),
    );
    expect(own.some((file) => file.endsWith('-spacemolt-get_notifications.json'))).toBe(true);
    const register = JSON.parse(
      readFileSync(
        join(
          capture,
          files.find((file) => file.includes('register'))!,
        ),
        'utf8',
      ),
    ) as { text: string };
    expect(register.text).toMatch(/Session ID: \[REDACTED\]/);

    // The run's folder is a doctor report offline: the first answers after the captain registered, read again.
    const doctor = runCli(['doctor', '--from', capture], { home: home() });
    const { code: doctorCode } = await doctor.exited;
    expect(doctorCode, doctor.stderr()).toBe(0);
    expect(doctor.stdout()).toMatch(/^ {2}status ✓ credits [\d,]+ · system \w+/m);
    expect(doctor.stdout()).toMatch(/^ {2}system ✓ \d+ POIs/m);
  }, 90_000);
});

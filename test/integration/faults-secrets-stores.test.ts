// Secrets redacted at write in the stores besides live play's (issue 30): a counterfactual replay, an eval and a bench
// ask a model whose API key comes from --api-key-env; the model says the key back, and it must be in no byte of the
// home (or the bench's folder) afterwards, so an export or replay from a shell without that variable is clean.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeReply, type RecordedRequest } from '../fakes/fake-openai.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const KEY = 'stores-key-5e0c9a7b31d2';

/** A model that says back the key it was sent, in its text and in a tool call's arguments. */
function echoKey(request: RecordedRequest): FakeReply {
  const sent = String(request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  return {
    content: `the key you sent me is ${sent}`,
    toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status', note: sent } }],
  };
}

async function run(
  home: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  const cli = runCli(args, { home, env });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, out: cli.stdout() + cli.stderr() };
}

/** Every byte under a folder: the stores with their WAL, the logs, the bench's files. */
function bytesUnder(dir: string): string {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return files.map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1')).join('\n');
}

async function echoModel(): Promise<string> {
  const model = await startFakeOpenAI({ script: Array.from({ length: 400 }, () => echoKey) });
  cleanups.push(() => model.close());
  return model.url;
}

const withEcho = (url: string): string[] => ['--base-url', url, '--api-key-env', 'MY_KEY'];

describe('secrets redacted at write beyond live play', () => {
  it('a counterfactual replay and an eval store the echoed key as [redacted]', async () => {
    const url = await echoModel();
    const home = newHome();
    const played = await run(home, ['-s', 'leak', '--autoplay', '--max-ticks', '20', '--tick-ms', '0']);
    expect(played.code, played.out).toBe(0);

    const replay = await run(home, ['replay', 'leak', '--with', 'custom/echo', ...withEcho(url)], { MY_KEY: KEY });
    expect(replay.code, replay.out).toBe(0);
    expect(replay.out).toMatch(/decisions [1-9]/);
    expect(bytesUnder(home)).not.toContain(KEY);

    const evaluated = await run(home, ['eval', 'leak', '--with', 'custom/echo', ...withEcho(url)], { MY_KEY: KEY });
    expect(evaluated.code, evaluated.out).toBe(0);
    expect(evaluated.out).toContain('custom/echo');
    expect(evaluated.out).not.toContain(KEY);
    const stored = bytesUnder(home);
    expect(stored).not.toContain(KEY);
    expect(stored).toContain('[redacted]');
  }, 120_000);

  it('a bench stores the echoed key as [redacted] in its own store', async () => {
    const url = await echoModel();
    const home = newHome();
    const out = join(home, 'bench-out');
    const bench = await run(
      home,
      ['bench', '--model', 'custom/echo', ...withEcho(url), '--ticks', '20', '--runs', '1', '--out', out],
      { MY_KEY: KEY },
    );
    expect(bench.code, bench.out).toBe(0);
    expect(bench.out).not.toContain(KEY);
    const stored = bytesUnder(out);
    expect(stored).toContain('custom/echo');
    expect(stored).not.toContain(KEY);
  }, 180_000);
});

// Rule 14 on the terminal (issue 48): plain output (no --json) redacts a secret the model writes exactly as --json
// does. The model says back the API key it was sent, streamed four characters a piece (the key split across deltas),
// in a reply that calls a tool and in the one that ends the turn.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeReply, type RecordedRequest } from '../fakes/fake-openai.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const KEY = 'plain-key-8d41c07e95ab';

function echoKey(request: RecordedRequest): FakeReply {
  const sent = String(request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  const messages = (request.body?.messages ?? []) as Array<{ role: string }>;
  if (messages.at(-1)?.role === 'tool') return { content: `Done. For the record, your key is ${sent}.` };
  return {
    content: `Looking around; the key you sent me is ${sent} (keep it safe)`,
    toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status' } }],
  };
}

async function play(json: boolean): Promise<{ code: number | null; out: string }> {
  const model = await startFakeOpenAI({ script: Array.from({ length: 20 }, () => echoKey) });
  cleanups.push(() => model.close());
  const args = ['--base-url', model.url, '--api-key-env', 'MY_KEY', '--model', 'custom/echo', '--tick-ms', '0'];
  const cli = runCli([...args, '--autoplay', '--max-turns', '1', ...(json ? ['--json'] : [])], {
    home: newHome(),
    env: { MY_KEY: KEY },
  });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, out: cli.stdout() + cli.stderr() };
}

describe('plain output redacts as --json does', () => {
  it('a key the model writes is [redacted] in the transcript, as in --json', async () => {
    const [plain, json] = await Promise.all([play(false), play(true)]);
    expect(json.code, json.out).toBe(0);
    expect(json.out).toContain('[redacted]');
    expect(json.out).not.toContain(KEY);
    expect(plain.code, plain.out).toBe(0);
    expect(plain.out).toMatch(/the key you sent me is \[redacted\] \(keep it safe\)/);
    expect(plain.out).toMatch(/your key is \[redacted\]\./);
    expect(plain.out).not.toContain(KEY);
  }, 60_000);
});

// Waits are visible on a pipe (issue 30): a model call answered 429 with Retry-After is retried after the wait, and
// the piped output says so in one line (one `model-retry` event with --json), not only the log file.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeStep } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const script = (): FakeStep[] => [
  { fault: 'status', status: 429, retryAfter: 1, body: { error: { message: 'slow down', type: 'rate_limit' } } },
  ...Array.from({ length: 4 }, () => ({ content: 'holding position' })),
];

async function play(extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const server = await startFakeOpenAI({ script: script() });
  cleanups.push(() => server.close());
  const home = makeHome();
  cleanups.push(() => removeHome(home));
  const args = ['--model', 'custom/m', '--base-url', server.url, '--autoplay', '--max-turns', '1', '--tick-ms', '0'];
  const cli = runCli([...args, ...extra], { home, env: { OPENAI_API_KEY: 'sk-test-key-0000' } });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  expect(server.chatRequests.length).toBeGreaterThanOrEqual(2);
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

describe('model retries on a pipe', () => {
  it('a 429 with Retry-After is one line on the piped output: waiting, then retrying', async () => {
    const { code, stdout, stderr } = await play([]);
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\n').filter((line) => /retrying/.test(line));
    expect(lines, stdout).toHaveLength(1);
    expect(lines[0]).toMatch(/model call failed .*: waiting 1 s, then retrying \(attempt 2\)/);
  });

  it('--json: one model-retry event with the wait', async () => {
    const { code, stdout, stderr } = await play(['--json']);
    expect(code, stderr).toBe(0);
    const events = stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const retries = events.filter((event) => event.type === 'model-retry');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, wait_ms: 1000 });
  });
});

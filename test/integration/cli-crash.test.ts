// Rule 13, the hard way: autoplay as a child process killed with SIGKILL at 20 moments. After every kill the
// database passes integrity_check, every message the --json stream reported as stored is there, and the session
// resumes; at the end a real model (the strict fake OpenAI server) accepts the resumed transcript.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const home = makeHome();
afterAll(() => removeHome(home));

/** A small deterministic generator so the kill moments are the same on every run. */
function moments(seed: number, count: number): number[] {
  let state = seed >>> 0;
  return Array.from({ length: count }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % 250;
  });
}

describe('kill -9 during autoplay', () => {
  it('20 kills: integrity ok, every reported message stored, the session resumes and its transcript is valid', async () => {
    const reported = new Set<string>();
    const delays = moments(7, 20);
    for (const [index, delay] of delays.entries()) {
      const cli = runCli(['--autoplay', '--json', '--tick-ms', '0', '-s', 'crash-test'], { home });
      // Wait until this run has stored something, then a little more, then kill without warning.
      await cli.waitFor(/"type":"message"/, { timeoutMs: 30_000 });
      await new Promise((resolve) => setTimeout(resolve, delay));
      cli.child.kill('SIGKILL');
      await cli.exited;
      for (const line of cli.stdout().split('\n')) {
        if (!line.startsWith('{')) continue;
        let event: { type?: string; id?: string };
        try {
          event = JSON.parse(line) as { type?: string; id?: string };
        } catch {
          continue; // the last line may have been cut by the kill
        }
        if (event.type === 'message' && event.id) reported.add(event.id);
      }
      const db = new Database(join(home, 'skipper.db'), { readonly: true, fileMustExist: true });
      try {
        expect(db.pragma('integrity_check', { simple: true }), `after kill #${index + 1}`).toBe('ok');
        const stored = new Set(
          (db.prepare('SELECT id FROM messages').all() as Array<{ id: string }>).map((row) => row.id),
        );
        const missing = [...reported].filter((id) => !stored.has(id));
        expect(missing, `messages reported as stored but missing after kill #${index + 1}`).toEqual([]);
      } finally {
        db.close();
      }
    }
    // every run was killed after it had reported at least one stored message of its own
    expect(reported.size).toBeGreaterThanOrEqual(delays.length);

    // Resume with a strict model server: the transcript it receives must be valid (every tool call answered).
    const server = await startFakeOpenAI({
      script: [{ content: 'Resumed; all calls accounted for.' }, { content: 'Handoff written.' }],
    });
    try {
      const cli = runCli(
        [
          '--model',
          'custom/test-model',
          '--base-url',
          server.url,
          '--autoplay',
          '--max-turns',
          '1',
          '--json',
          '-s',
          'crash-test',
          '--tick-ms',
          '0',
        ],
        { home },
      );
      const { code } = await cli.exited;
      expect(code, cli.stderr()).toBe(0);
      // The turn, then the handoff the model writes at the end of the session.
      expect(server.chatRequests).toHaveLength(2);
      expect(server.invalid).toEqual([]);
      const messages = server.chatRequests[0]!.body.messages as Array<{
        role: string;
        tool_calls?: Array<{ id: string }>;
        tool_call_id?: string;
      }>;
      const answered = new Set(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
      for (const message of messages)
        for (const call of message.tool_calls ?? []) expect(answered.has(call.id)).toBe(true);
    } finally {
      await server.close();
    }
  }, 180_000);
});

// The resume recap quotes the last turn's own words (issue 29): the reply of that turn, and when that turn said
// nothing (its model call failed) no words at all rather than an earlier turn's reply under its number.
import { expect, it } from 'vitest';
import { startFakeOpenAI, type FakeStep } from '../fakes/fake-openai.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();
const refused = { fault: 'status', status: 401, body: { error: { message: 'Incorrect API key provided' } } } as const;

/** Chats line by line (each waits for its answer on stdout, or the error on stderr), quits, resumes: the recap. */
async function recapAfter(script: FakeStep[], lines: Array<[string, RegExp, 'stdout' | 'stderr']>): Promise<string> {
  const fake = await startFakeOpenAI({ script });
  try {
    const home = newHome();
    const args = ['--model', 'custom/test-model', '--base-url', fake.url, '--tick-ms', '0', '-s', 'words'];
    const first = runCli(args, { home });
    for (const [line, answer, stream] of lines) {
      const after = (stream === 'stderr' ? first.stderr() : first.stdout()).length;
      first.send(line);
      await first.waitFor(answer, { after, stream });
    }
    first.send('/quit');
    expect((await first.exited).code, first.stderr()).toBe(0);
    const again = runCli(args, { home });
    const [recap] = await again.waitFor(/where you left off[^\n]*/);
    again.send('/quit');
    await again.exited;
    return recap;
  } finally {
    await fake.close();
  }
}

it("quotes the last turn's reply (the handoff note), not an earlier one", async () => {
  const recap = await recapAfter(
    [{ content: 'Alpha: the first reply.' }, { content: 'Bravo: the second reply.' }, { content: 'Handoff: notes.' }],
    [
      ['hello', /Alpha/, 'stdout'],
      ['and more', /Bravo/, 'stdout'],
    ],
  );
  expect(recap).toBe('where you left off: turn 3 (answered) — "Handoff: notes."');
}, 60_000);

it('a last turn that failed says it had no reply instead of quoting the turn before it', async () => {
  const recap = await recapAfter(
    [{ content: 'Alpha: the first reply.' }, refused, refused],
    [
      ['hello', /Alpha/, 'stdout'],
      ['and more', /HTTP 401/, 'stderr'],
    ],
  );
  expect(recap).toBe('where you left off: turn 3 (failed) — no reply from the captain');
  expect(recap).not.toContain('Alpha');
}, 60_000);

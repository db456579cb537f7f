// The handoff is Skipper's own labelled step: after an autoplay run a model is asked for a note with NO game tools
// (nothing can happen in the game past a limit), its tokens and cost are in the summary, the summary is printed
// last and ends with how to go on, the transcript shows it as Skipper's prompt, and a spent budget skips it.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempHomes } from '../fakes/cli-process.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeStep } from '../fakes/fake-openai.js';

const newHome = tempHomes();
const servers: FakeOpenAI[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function fake(script: FakeStep[]): Promise<FakeOpenAI> {
  const server = await startFakeOpenAI({ script });
  servers.push(server);
  return server;
}

describe('the handoff step', () => {
  it('offers no tools, is counted in the summary, shown as Skipper’s, and the summary comes last', async () => {
    const server = await fake([
      {
        toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status' } }],
        usage: { promptTokens: 100, completionTokens: 10 },
      },
      { content: 'Looked around; holding.', usage: { promptTokens: 120, completionTokens: 10 } },
      // The handoff: a model that tries to act anyway gets no game.
      {
        toolCalls: [{ name: 'spacemolt', arguments: { action: 'undock' } }],
        usage: { promptTokens: 50, completionTokens: 5 },
      },
      { content: 'Handoff: at the station, nothing mined yet.', usage: { promptTokens: 60, completionTokens: 6 } },
    ]);
    const home = newHome();
    const cli = runCli(
      ['--model', 'custom/test-model', '--base-url', server.url, '--autoplay', '--max-turns', '1', '--tick-ms', '0'],
      { home },
    );
    const { code } = await cli.exited;
    expect(code, cli.stderr()).toBe(0);
    expect(server.exhausted).toBe(false);
    const requests = server.chatRequests.map(
      (request) => request.body as { tools?: unknown[]; messages: Array<{ role: string; content?: unknown }> },
    );
    expect(requests).toHaveLength(4);
    expect(requests[0]!.tools?.length).toBeGreaterThan(0);
    for (const handoff of requests.slice(2)) expect(handoff.tools ?? []).toEqual([]);
    expect(JSON.stringify(requests[2]!.messages.at(-1))).toMatch(/handoff|next session|next time/i);

    const out = cli.stdout();
    // Shown as Skipper's step, never as a line the person typed.
    expect(out).toMatch(/skipper: asking the captain for a handoff note/);
    expect(out).not.toMatch(/you › /);
    // All four requests are in the summary: 100+120+50+60 prompt, 10+10+5+6 completion = 361 tokens.
    expect(out).toMatch(/tokens 361 \(0 cached\) · cost \$0 \(handoff note: 121 tokens/);
    // The summary is last and ends with how to go on.
    const lines = out.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/replay it: .* · go on: .* --autoplay/);
    expect(out.lastIndexOf('Autoplay ended')).toBeGreaterThan(out.lastIndexOf('handoff note for next time'));

    // The undock the model tried during the handoff never reached the game.
    const name = /session (\S+)/.exec(out)![1]!;
    const exported = runCli(['export', name, '--format', 'md'], { home });
    expect((await exported.exited).code).toBe(0);
    expect(exported.stdout()).toMatch(/\*\*Skipper \(handoff prompt\)\*\*/);
    expect(exported.stdout()).toMatch(/\*\*Skipper \(autoplay prompt\)\*\*/);
    expect(exported.stdout()).not.toMatch(/Undocked/);
  }, 60_000);

  it('is skipped when the run stopped on its budget: no request past it', async () => {
    const reply = {
      toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status' } }],
      usage: { promptTokens: 900, completionTokens: 100 },
    };
    const server = await fake(Array.from({ length: 6 }, () => ({ ...reply })));
    const cli = runCli(
      [
        '--model',
        'custom/test-model',
        '--base-url',
        server.url,
        '--autoplay',
        '--budget-tokens',
        '1500',
        '--tick-ms',
        '0',
        '--json',
      ],
      {
        home: newHome(),
      },
    );
    expect((await cli.exited).code, cli.stderr()).toBe(0);
    // 1,000 tokens a request: the second crosses 1,500; no handoff request after it.
    expect(server.chatRequests).toHaveLength(2);
    const last = JSON.parse(cli.stdout().trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last.type).toBe('autoplay-end');
    expect(last.handoff).toBeUndefined();
  }, 60_000);
});

// Issue 48: exit codes scripts can trust. An autoplay whose turns keep failing (the model answers HTTP 500 every
// time) exits 1 within its retry budget and asks the broken model for no handoff note; a limit flag given without
// --autoplay is a usage error (exit 2) that says where it goes.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function parseLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('exit codes', () => {
  it('an autoplay against a model that always answers 500 exits 1 and sends no handoff request', async () => {
    const server = await startFakeOpenAI({
      script: Array.from({ length: 400 }, () => ({
        fault: 'status' as const,
        status: 500,
        body: { error: { message: 'the model is down', type: 'server_error' } },
      })),
    });
    cleanups.push(() => server.close());
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const cli = runCli(
      [
        '--model',
        'custom/broken',
        '--base-url',
        server.url,
        '--autoplay',
        '--max-ticks',
        '50',
        '--tick-ms',
        '0',
        '--json',
      ],
      { home },
    );
    const { code } = await cli.exited;
    expect(code, cli.stderr()).toBe(1);
    const end = parseLines(cli.stdout()).find((event) => event.type === 'autoplay-end');
    expect(JSON.stringify(end?.stop_reason)).toMatch(/fail/);
    expect(server.chatRequests.length).toBeGreaterThan(0);
    // Every request was a turn of play (with the game's tools): none asked for a handoff note.
    const handoffs = server.chatRequests.filter((request) => {
      const body = request.body as { tools?: unknown[]; messages?: Array<{ content?: unknown }> };
      return !body.tools?.length || JSON.stringify(body.messages ?? []).includes('handoff');
    });
    expect(handoffs).toEqual([]);
  }, 120_000);

  it('a limit flag without --autoplay is a usage error that says where it goes', async () => {
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const cli = runCli(['--max-ticks', '5'], { home });
    const { code } = await cli.exited;
    expect(code).toBe(2);
    expect(cli.stderr()).toMatch(/--max-ticks .*add --autoplay/);
  }, 30_000);
});

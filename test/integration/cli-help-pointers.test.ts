// A mistake points at the help of the command it was made in, at any depth, with exit 2; a game whose name does not
// resolve says so (DNS, the network), not only "check that the server is running".
import { describe, expect, it } from 'vitest';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();

describe.concurrent('where a mistake points', () => {
  it.each([
    [['sessions', '--bogus'], 'skipper sessions --help'],
    [['fleet', 'status', '--bogus'], 'skipper fleet status --help'],
    [['memory', 'list', '--bogus'], 'skipper memory list --help'],
    [['--bogus'], 'skipper --help'],
  ])('%j → %s', async (args, help) => {
    const run = runCli(args, { home: newHome() });
    const exit = await run.exited;
    expect(exit.code).toBe(2);
    expect(run.stderr()).toContain("unknown option '--bogus'");
    expect(run.stderr()).toContain(`Run \`${help}\` for the flags.`);
  });

  it('a game host that does not resolve is called a DNS failure, with the network to check', async () => {
    const run = runCli(['--game', 'http://no-such-host.invalid/mcp', '--autoplay', '--max-ticks', '1'], {
      home: newHome(),
    });
    const exit = await run.exited;
    expect(exit.code).toBe(1);
    expect(run.stderr()).toMatch(/The name no-such-host\.invalid does not resolve \(DNS\).*online/);
    expect(run.stderr()).not.toMatch(/at .*\.js:\d+/);
  }, 30_000);
});

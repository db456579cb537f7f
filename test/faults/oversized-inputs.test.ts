// Fault group — oversized inputs (issue 48), each through the built CLI: a 20 MB tool result from a real MCP game
// over HTTP leaves the store under 2 MB larger (head and tail kept, a marker between, in the store and in what the
// model is sent) and the process's peak memory is measured against the same run with a 1 KB result; a YAML alias
// bomb in a fleet file is a one-line usage error (exit 2), not a stack trace; a 5 MB goal or message in chat is
// refused with one line and never reaches the model, and a goal too long on the command line is exit 2.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GOAL_MAX_CHARS, TOOL_RESULT_MAX_CHARS } from '../../internal/shared/index.js';
import { BIG_RESULT_HEAD, BIG_RESULT_TAIL, startBigResultServer } from '../fakes/big-result-mcp-server.js';
import { startFakeOpenAI, type FakeReply, type RecordedRequest } from '../fakes/fake-openai.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';
import { exitWithin } from './harness.js';

const newHome = tempHomes();
const MB = 1024 * 1024;
/** Per run: CLI start, the game's answer (20 MB over loopback), two model requests and the handoff. */
const RUN_MS = 60_000;

type ChatMessage = { role: string; content?: unknown };

/** Calls `dump` once, then answers with what it read; the handoff gets a line. */
function dumpCaptain(request: RecordedRequest): FakeReply {
  const messages = (request.body?.messages ?? []) as ChatMessage[];
  const last = messages.at(-1);
  if (last?.role === 'tool') return { content: `read ${String(last.content).length} chars` };
  if (typeof last?.content === 'string' && last.content.startsWith('The session ends now'))
    return { content: 'Handoff.' };
  return { toolCalls: [{ name: 'dump', arguments: {} }] };
}

interface DumpRun {
  storeBytes: number;
  peakRssMb: number;
  /** The tool message as the model was sent it. */
  sent: string;
  /** The tool message as stored. */
  stored: string;
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/** One autoplay turn against a game whose `dump` answers `chars` characters, peak RSS written by the child on exit. */
async function dumpRun(chars: number): Promise<DumpRun> {
  const home = newHome();
  const game = await startBigResultServer({ chars });
  const model = await startFakeOpenAI({ script: Array.from({ length: 6 }, () => dumpCaptain) });
  const rssFile = join(home, 'peak-rss-kb');
  const preload = join(home, 'peak-rss.mjs');
  writeFileSync(
    preload,
    `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`,
  );
  try {
    const cli = runCli(
      ['--game', game.url, '--model', 'custom/dump-captain', '--base-url', model.url, '--autoplay', '--max-turns', '1'],
      { home, env: { NODE_OPTIONS: `--import=${preload}` } },
    );
    const exit = await exitWithin(cli, RUN_MS);
    expect(exit, `the run did not end within ${RUN_MS / 1000} s`).toBeDefined();
    expect(exit?.code, cli.stderr()).toBe(0);
    expect(game.calls()).toBe(1);
    const toolMessages = model.chatRequests
      .map((request) => ((request.body?.messages ?? []) as ChatMessage[]).find((message) => message.role === 'tool'))
      .filter((message) => message !== undefined);
    const db = new Database(join(home, 'skipper.db'), { readonly: true, fileMustExist: true });
    const stored = db.prepare("SELECT content FROM messages WHERE role = 'tool'").get() as { content: string };
    db.close();
    return {
      storeBytes: fileSize(join(home, 'skipper.db')) + fileSize(join(home, 'skipper.db-wal')),
      peakRssMb: Number(readFileSync(rssFile, 'utf8')) / 1024,
      sent: String(toolMessages[0]?.content ?? ''),
      stored: stored.content,
    };
  } finally {
    await model.close();
    await game.close();
  }
}

function expectHeadAndTail(text: string): void {
  expect(text.length).toBeLessThanOrEqual(TOOL_RESULT_MAX_CHARS);
  expect(text.startsWith(BIG_RESULT_HEAD)).toBe(true);
  expect(text.endsWith(BIG_RESULT_TAIL)).toBe(true);
  expect(text).toMatch(/\[… [\d,]+ chars omitted …\]/);
}

describe('faults: oversized inputs', () => {
  it('a 20 MB tool result: the store grows < 2 MB, head and tail kept with a marker; peak memory measured', async ({
    task,
  }) => {
    task.meta.faultGroup = 'oversized tool result';
    const small = await dumpRun(1024);
    const big = await dumpRun(20 * MB);
    const growth = big.storeBytes - small.storeBytes;
    task.meta.faultLine =
      `20 MB tool result: store +${(growth / MB).toFixed(2)} MB over a 1 KB result ` +
      `(${(big.storeBytes / MB).toFixed(2)} MB), peak RSS ${big.peakRssMb.toFixed(0)} MB ` +
      `(${small.peakRssMb.toFixed(0)} MB with 1 KB), ${big.stored.length.toLocaleString('en-US')} chars stored`;
    expect(growth).toBeLessThan(2 * MB);
    expectHeadAndTail(big.stored);
    expectHeadAndTail(big.sent);
    expect(small.stored.length).toBe(1024);
    // The answer's long string is cut as the bytes arrive (internal/game/long-strings.ts), and while a string is being
    // cut the young generation is collected every 1 MB of it: what is left is the socket's buffers between two
    // collections. Measured 129–130 MB against 110–114 MB (+16 to +19 MB); 133–137 MB collecting every 4 MB; 146–148 MB
    // collecting only when V8 would (+34 to +42 MB); +59 MB over the small run when the answer was read whole first,
    // +103 MB before any limit. The line is the first bound; the second fails a return to reading the answer
    // whole, or to letting the buffers pile up, on a machine whose baseline sits lower.
    expect(big.peakRssMb).toBeLessThan(150);
    expect(big.peakRssMb - small.peakRssMb).toBeLessThan(30);
  });

  it('a YAML alias bomb in a fleet file: exit 2 and one line, no stack trace', async ({ task }) => {
    task.meta.faultGroup = 'YAML alias bomb';
    const home = newHome();
    const file = join(home, 'bomb.yaml');
    const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level <= 9; level++)
      lines.push(`a${level}: &a${level} [${Array.from({ length: 9 }, () => `*a${level - 1}`).join(',')}]`);
    writeFileSync(file, `${lines.join('\n')}\ncaptains:\n  - name: ada\n    goal: *a9\n`);
    const cli = runCli(['fleet', file], { home });
    const exit = await exitWithin(cli, 30_000);
    task.meta.faultLine = `YAML alias bomb: exit ${exit?.code}, ${cli.stderr().trim().split('\n').length} line(s)`;
    expect(exit?.code).toBe(2);
    expect(cli.stderr()).toMatch(/bomb\.yaml: its aliases \(\*name\) expand too far/);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
    expect(cli.stderr().trim().split('\n')).toHaveLength(1);
  });

  it('a 5 MB goal or message in chat is refused with one line and never sent; a long --autoplay goal is exit 2', async ({
    task,
  }) => {
    task.meta.faultGroup = 'oversized goal';
    const home = newHome();
    // The command line holds at most 128 KB in one argument (Linux): 100 KB is over the limit and still passes.
    const flag = runCli(['--autoplay', 'g'.repeat(100_000), '--max-turns', '1'], { home });
    const flagExit = await exitWithin(flag, 30_000);
    expect(flagExit?.code).toBe(2);
    expect(flag.stderr()).toMatch(/the --autoplay goal is 100,000 characters; the most is 4,000: shorten it/);
    const model = await startFakeOpenAI({ script: [{ content: 'Aye.' }, { content: 'Handoff.' }] });
    try {
      const chat = runCli(['--model', 'custom/chat-captain', '--base-url', model.url, '--tick-ms', '0'], { home });
      await chat.waitFor(/Talk to your captain/, { timeoutMs: 30_000 });
      const huge = 'h'.repeat(5 * MB);
      chat.send(`/autoplay ${huge}`);
      await chat.waitFor(/the goal is 5,242,880 characters; the most is 4,000: shorten it \(autoplay not started\)/, {
        stream: 'stderr',
      });
      chat.send(huge);
      await chat.waitFor(/that message is 5,242,880 characters; the most is 4,000: shorten it \(not sent\)/, {
        stream: 'stderr',
      });
      chat.send('hello');
      await chat.waitFor(/Aye\./);
      chat.send('/quit');
      const exit = await exitWithin(chat, 30_000);
      const biggest = Math.max(...model.chatRequests.map((request) => JSON.stringify(request.body).length));
      task.meta.faultLine = `5 MB goal: refused in chat and on the command line (exit ${flagExit?.code}); largest model request ${(biggest / 1024).toFixed(0)} KB`;
      expect(exit?.code).toBe(0);
      expect(biggest).toBeLessThan(GOAL_MAX_CHARS * 20);
    } finally {
      await model.close();
    }
  });
});

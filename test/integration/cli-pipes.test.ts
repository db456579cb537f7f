// `skipper export … | consumer` and `skipper replay NAME --instant | consumer`: every line reaches a slow reader (writes
// wait for the pipe to drain, stdout is flushed before exit), and a reader that leaves early (`| head`) ends the command
// quietly.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { cliPath, makeHome, removeHome } from '../fakes/cli-process.js';

// One seeded home for the file: export and replay only read it, so the tests share it and run side by side, each
// pipe with its own files for the exit code, stderr and the reader.
let home = '';
beforeAll(async () => {
  home = await seededHome();
});
afterAll(() => removeHome(home));

const turns = 1500;

/** A session of 3,000 messages (~1 MB of export): far more than a pipe buffer holds. */
async function seededHome(): Promise<string> {
  const home = makeHome();
  const store = await openStore({ path: join(home, 'skipper.db') });
  const session = await store.createSession({ name: 'long', game: 'embedded', model: 'builtin/autopilot' });
  const filler = 'ore '.repeat(60);
  for (let turn = 1; turn <= turns; turn++) {
    await store.append(session.id, { role: 'user', content: `order ${turn}`, turn, createdAt: turn * 10 });
    await store.append(session.id, {
      role: 'assistant',
      content: `reply ${turn} ${filler}${turn === turns ? 'LAST-LINE-MARKER' : ''}`,
      toolCalls: [],
      turn,
      round: 1,
      createdAt: turn * 10 + 1,
    });
  }
  await store.close();
  return home;
}

/** A reader that takes a chunk, then naps: the pipe fills and the writer must wait for it. */
const slowReader = `
let lines = 0; let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  lines += chunk.split('\\n').length - 1;
  text = (text + chunk).slice(-200);
  process.stdin.pause();
  setTimeout(() => process.stdin.resume(), 3);
});
process.stdin.on('end', () => process.stdout.write(JSON.stringify({ lines, tail: text })));
`;

interface PipeResult {
  code: number | null;
  stderr: string;
  consumer: string;
}

/** Runs `skipper ARGS | CONSUMER` through a real shell pipe and reports skipper's exit code and stderr. */
async function throughPipe(home: string, args: string[], consumer: string): Promise<PipeResult> {
  const files = mkdtempSync(join(home, 'pipe-'));
  const reader = join(files, 'slow-reader.cjs');
  writeFileSync(reader, slowReader);
  const rcFile = join(files, 'rc');
  const errFile = join(files, 'err');
  const quoted = args.map((arg) => `'${arg}'`).join(' ');
  const consumerCommand = consumer === 'slow' ? `"${process.execPath}" "${reader}"` : consumer;
  const script = `{ "${process.execPath}" "${cliPath}" ${quoted} 2>"${errFile}"; echo $? >"${rcFile}"; } | ${consumerCommand}`;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('SKIPPER_')) env[key] = value;
  Object.assign(env, { SKIPPER_HOME: home, NO_COLOR: '1' });
  const child = spawn('sh', ['-c', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  await new Promise((resolve) => child.on('close', resolve));
  return { code: Number(readFileSync(rcFile, 'utf8').trim()), stderr: readFileSync(errFile, 'utf8'), consumer: out };
}

describe.concurrent('output through a pipe', () => {
  it('export --format jsonl reaches a slow reader whole', async () => {
    const result = await throughPipe(home, ['export', 'long', '--format', 'jsonl'], 'slow');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const seen = JSON.parse(result.consumer) as { lines: number; tail: string };
    expect(seen.lines).toBe(turns * 2 + 1); // the header and every message
    expect(seen.tail).toContain('LAST-LINE-MARKER');
  });

  it('export --format md reaches a slow reader whole', async () => {
    const result = await throughPipe(home, ['export', 'long'], 'slow');
    expect(result.code).toBe(0);
    const seen = JSON.parse(result.consumer) as { lines: number; tail: string };
    expect(seen.tail).toContain('LAST-LINE-MARKER');
  });

  it('replay --instant reaches a slow reader whole', async () => {
    const result = await throughPipe(home, ['replay', 'long', '--instant'], 'slow');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const seen = JSON.parse(result.consumer) as { lines: number; tail: string };
    expect(seen.lines).toBeGreaterThan(turns * 2);
    expect(seen.tail).toContain('LAST-LINE-MARKER');
  });

  it('a reader that leaves early (| head -n 2) ends export and replay quietly', async () => {
    for (const args of [
      ['export', 'long', '--format', 'jsonl'],
      ['replay', 'long', '--instant'],
    ]) {
      const result = await throughPipe(home, args, 'head -n 2');
      expect(result.consumer.match(/\n/g)).toHaveLength(2);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
  });
});

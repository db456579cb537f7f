// The README walked from a fresh state (issue 29): every `skipper …` / `npx skipper …` command in its fenced shell
// blocks is run as written — in a temporary HOME (so ~/.local/share/skipper is a fresh home), with the built dist as
// `skipper` on PATH — and must exit 0 (or the code the README documents) without a stack trace. The commands that
// cannot run offline, or would run for minutes, are listed below with the reason; the test fails when the README
// gains a command that is neither run nor listed.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cliPath, repoRoot } from '../fakes/cli-process.js';

/** Commands not run, each with why. */
const SKIPPED: Record<string, string> = {
  'skipper --game spacemolt --registration-code YOUR-CODE --model openai/gpt-4o-mini --autoplay "mine and trade around Sol"':
    'needs SpaceMolt, a registration code and an OpenAI key',
  'skipper --game spacemolt --username Nova --model openai/gpt-4o-mini': 'needs SpaceMolt and an OpenAI key',
  'SKIPPER_GAME_PASSWORD=… skipper --game spacemolt --username Nova': 'needs SpaceMolt and an account',
  'SKIPPER_GAME_API_KEY=… skipper --game spacemolt --username Nova': "needs SpaceMolt and an account's API key",
  'skipper --model openai/gpt-4o-mini --autoplay --planner': 'needs an OpenAI key',
  'skipper --model openai/gpt-4o-mini --autoplay --planner --planner-every 720': 'needs an OpenAI key',
  'skipper -s my-run --autoplay --planner': 'resumes a planner session played with an OpenAI model',
  'skipper bench': 'a benchmark: 20 s of CPU (test/integration/bench-cli.test.ts runs the bench)',
  'OPENAI_API_KEY=… skipper bench --suite standard --model openai/gpt-4o-mini --out my-row':
    'needs an OpenAI key (test/integration/bench-suite.test.ts runs the standard suite with the baselines)',
  'OPENAI_API_KEY=… skipper bench --model openai/gpt-4o-mini --scenario all --ticks 300 --runs 3':
    'needs an OpenAI key',
  'skipper fleet miners.yaml': 'its captains need an OpenAI key and SpaceMolt (bob, cyd)',
  'skipper fleet fleet.yaml --worker --db postgres://skipper:…@db.internal/skipper':
    'needs a PostgreSQL server on another host (test/faults/pg-outage.test.ts runs workers through an outage)',
};

/** Commands that run until stopped: started, awaited until they say `ready`, then Ctrl+C and the documented code. */
const UNTIL_STOPPED: Record<string, { ready: RegExp; code: number }> = {
  'skipper serve': { ready: /Ctrl\+C stops/, code: 0 },
  'skipper serve --tick-ms 500 --world-db world.db': { ready: /Ctrl\+C stops/, code: 0 },
  'skipper serve --port 0 --tick-ms 0': { ready: /Ctrl\+C stops/, code: 0 },
  'skipper serve --registration-code letmein': { ready: /Ctrl\+C stops/, code: 0 },
  'skipper serve --api-key mmk_test --auth-outage 30': { ready: /Ctrl\+C stops/, code: 0 },
  'skipper serve --drift 7': { ready: /drift 7: columns renamed/, code: 0 },
  'skipper serve --drift 7 --tick-ms 1000': { ready: /drift 7: columns renamed/, code: 0 },
  'skipper web': { ready: /Ctrl\+C stops/, code: 0 },
  'skipper --autoplay': { ready: /turn 1/, code: 130 },
  'skipper --autoplay --duration 2h --budget-usd 1.50': { ready: /turn 1/, code: 130 },
  'skipper -s night-run --autoplay --max-turns 1000': { ready: /turn 1/, code: 130 },
};

/** Exit codes the README documents for a command (0 otherwise). */
const EXPECTED_CODE: Record<string, number> = { 'skipper fleet bad.yaml': 2 };

/**
 * The commands of the README's fenced blocks: every line of a `sh`/`bash` block that runs skipper (or sets up its
 * completion; npm's own commands are not Skipper's), and in a block without a language (a terminal shown) only the
 * lines typed at a `$ ` prompt — the rest is output. Comments (` # …`) are dropped.
 */
function readmeCommands(): string[] {
  const lines = readFileSync(join(repoRoot, 'README.md'), 'utf8').split('\n');
  const blocks: Array<{ shell: boolean; lines: string[] }> = [];
  let block: { shell: boolean; lines: string[] } | undefined;
  for (const line of lines) {
    const fence = /^```(\w*)/.exec(line);
    if (fence && !block) block = { shell: ['sh', 'bash'].includes(fence[1] ?? ''), lines: [] };
    else if (fence && block) {
      blocks.push(block);
      block = undefined;
    } else block?.lines.push(line);
  }
  const commands: string[] = [];
  for (const { shell, lines: blockLines } of blocks) {
    for (const raw of blockLines) {
      if (!shell && !raw.startsWith('$ ')) continue;
      const line = raw
        .replace(/^\$ /, '')
        .replace(/\s+#\s.*$/, '')
        .trim();
      if (/^(npx skipper|skipper|echo .*skipper|mkdir .*skipper|[A-Z_]+=\S+ skipper)\b/.test(line)) commands.push(line);
    }
  }
  return commands;
}

const root = mkdtempSync(join(tmpdir(), 'skipper-readme-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function shims(): string {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'skipper'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`);
  writeFileSync(join(bin, 'npx'), `#!/bin/sh\nif [ "$1" = skipper ]; then shift; exec skipper "$@"; fi\nexit 127\n`);
  chmodSync(join(bin, 'skipper'), 0o755);
  chmodSync(join(bin, 'npx'), 0o755);
  return bin;
}

function environment(bin: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^(SKIPPER_|OPENAI_|OPENROUTER_|ANTHROPIC_|GROQ_|XDG_)/.test(key)) env[key] = value;
  // A fresh home in a fresh HOME; the embedded game's ticks take no wall time (SKIPPER_TICK_MS, a documented setting).
  return { ...env, HOME: root, PATH: `${bin}:${env.PATH ?? ''}`, NO_COLOR: '1', SKIPPER_TICK_MS: '0' };
}

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

function runShell(command: string, env: Record<string, string>, stop?: RegExp): Promise<Ran> {
  return new Promise((resolve) => {
    // A command run until stopped replaces the shell (exec), so Ctrl+C reaches the program alone, as in a terminal.
    const script = stop ? `exec ${command}` : `set -o pipefail; ${command}`;
    const child = spawn('bash', ['-c', script], { cwd: root, env, detached: true });
    const ran: Ran = { code: null, out: '', err: '' };
    let stopped = false;
    const check = (): void => {
      if (stop && !stopped && stop.test(ran.out + ran.err)) {
        stopped = true;
        // Ctrl+C reaches the whole process group, as in a terminal — a moment after the banner, as a person's does
        // (serve prints "Ctrl+C stops." just before it listens for it).
        setTimeout(() => process.kill(-child.pid!, 'SIGINT'), 250);
      }
    };
    child.stdout.on('data', (chunk: Buffer) => ((ran.out += chunk.toString()), check()));
    child.stderr.on('data', (chunk: Buffer) => ((ran.err += chunk.toString()), check()));
    child.stdin.end();
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ...ran, code });
    });
  });
}

/**
 * The README's commands listen on its fixed ports (`skipper serve` on 7777, `skipper web` on 7878): one walk at a
 * time on this machine, so a second test run beside this one waits for the ports instead of finding them in use. The
 * lock is a directory holding its owner's pid; one whose owner is gone is taken over.
 */
async function holdReadmePorts(): Promise<() => void> {
  const lock = join(tmpdir(), 'skipper-readme-walk.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!lockOwnerAlive(lock)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function lockOwnerAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // Made but not yet signed: give its owner a few seconds to write the pid.
    try {
      return Date.now() - statSync(lock).mtimeMs < 5000;
    } catch {
      return false; // released meanwhile
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

it('runs every README command that can run offline, as written, from a fresh home', async ({ onTestFinished }) => {
  onTestFinished(await holdReadmePorts());
  const commands = readmeCommands();
  for (const skipped of Object.keys(SKIPPED))
    expect(commands, `SKIPPED lists a command the README lacks`).toContain(skipped);
  const env = environment(shims());
  // The sessions the README's examples name, played first (what its reader did before typing them).
  const setup = await runShell('skipper --autoplay --max-turns 3 -s 2026-11-23-jade-drifter', env);
  expect(setup.code, setup.err).toBe(0);
  writeFileSync(
    join(root, 'bad.yaml'),
    'name: bad\ncaptains:\n  - name: ada\n    max_ticks: ten\n  - name: bob\n    max_tick: 10\n',
  );
  const run: string[] = [];
  for (const command of commands) {
    if (SKIPPED[command]) continue;
    const until = UNTIL_STOPPED[command];
    // The game the README's `--game http://127.0.0.1:7777/mcp/v2` plays: its `skipper serve` runs meanwhile.
    const server = command.includes('127.0.0.1:7777') ? startServer(env) : undefined;
    if (server) await server.ready;
    const started = Date.now();
    const ran = await runShell(command, env, until?.ready);
    if (process.env.README_WALK_TIMES) console.log(`${Date.now() - started} ms  ${command}`);
    if (server) await server.stop();
    const expected = until?.code ?? EXPECTED_CODE[command] ?? 0;
    expect(ran.code, `${command}\n${ran.err}`).toBe(expected);
    expect(`${ran.out}${ran.err}`, command).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
    if (command === 'skipper fleet bad.yaml')
      expect(ran.err).toContain('bad.yaml: captain "ada": max_ticks must be a whole number ≥ 1 (got "ten")');
    run.push(command);
  }
  expect(run.length).toBeGreaterThan(20);
  // What the shown outputs promise: the completion scripts load, and the mistake in bad.yaml is named.
  const bash = await runShell('source <(skipper completion bash) && complete -p skipper', env);
  expect(bash.code, bash.err).toBe(0);
}, 180_000);

function startServer(env: Record<string, string>): { ready: Promise<void>; stop: () => Promise<void> } {
  const child = spawn(process.execPath, [cliPath, 'serve'], { cwd: root, env });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('minimolt is serving')) resolve();
    });
    child.on('exit', () => reject(new Error(`skipper serve exited: ${out}`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    ready,
    stop: async () => {
      child.kill('SIGINT');
      await exited;
    },
  };
}

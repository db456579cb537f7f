// Runs the built CLI (dist/cmd/skipper.js) as a child process with its own SKIPPER_HOME, a stdin pipe and signals,
// and lets tests await what it prints (no sleeps: they wait for output or exit).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cliPath = join(repoRoot, 'dist', 'cmd', 'skipper.js');

export interface CliRun {
  child: ChildProcessWithoutNullStreams;
  home: string;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout (or stderr) matches, rejects on exit or timeout. */
  waitFor(
    pattern: RegExp,
    options?: { timeoutMs?: number; stream?: 'stdout' | 'stderr'; after?: number },
  ): Promise<RegExpMatchArray>;
  send(line: string): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): void;
}

export function makeHome(): string {
  return mkdtempSync(join(tmpdir(), 'skipper-test-'));
}

/** A maker of fresh homes for one test file, all removed when the file's tests end. */
export function tempHomes(): () => string {
  const homes: string[] = [];
  afterAll(() => homes.splice(0).forEach(removeHome));
  return () => {
    const home = makeHome();
    homes.push(home);
    return home;
  };
}

export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}

/** The child's environment: ours without any Skipper or provider settings, then its own home and the test's own. */
function cliEnv(home: string, overrides: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(SKIPPER_|OPENAI_|OPENROUTER_|ANTHROPIC_|GROQ_)/.test(key)) env[key] = value;
  }
  Object.assign(env, { SKIPPER_HOME: home, NO_COLOR: '1' });
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** What the child printed so far, and the waiters to wake when it prints more or exits. */
interface Output {
  out: string;
  err: string;
  done: boolean;
  waiters: Set<() => void>;
}

/** Resolves when the output matches, rejects when the child exits first or the time runs out. */
function waitForOutput(
  output: Output,
  pattern: RegExp,
  waitOptions: Parameters<CliRun['waitFor']>[1] = {},
): Promise<RegExpMatchArray> {
  return new Promise((resolveWait, reject) => {
    const timeoutMs = waitOptions.timeoutMs ?? 20_000;
    const from = waitOptions.after ?? 0;
    const check = (): boolean => {
      const text = (waitOptions.stream === 'stderr' ? output.err : output.out).slice(from);
      const match = text.match(pattern);
      if (match) {
        cleanup();
        resolveWait(match);
        return true;
      }
      if (output.done) {
        cleanup();
        reject(new Error(`process exited before ${pattern} appeared.\nstdout:\n${output.out}\nstderr:\n${output.err}`));
        return true;
      }
      return false;
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new Error(
          `timed out after ${timeoutMs} ms waiting for ${pattern}.\nstdout:\n${output.out}\nstderr:\n${output.err}`,
        ),
      );
    }, timeoutMs);
    const waiter = (): void => {
      check();
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      output.waiters.delete(waiter);
    };
    output.waiters.add(waiter);
    check();
  });
}

export function runCli(
  args: string[],
  options: { home?: string; env?: Record<string, string | undefined> } = {},
): CliRun {
  const home = options.home ?? makeHome();
  const env = cliEnv(home, options.env ?? {});
  const child = spawn(process.execPath, [cliPath, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output: Output = { out: '', err: '', done: false, waiters: new Set() };
  const notify = (): void => {
    for (const waiter of [...output.waiters]) waiter();
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output.out += chunk;
    notify();
  });
  child.stderr.on('data', (chunk: string) => {
    output.err += chunk;
    notify();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.on('exit', (code, signal) => {
      output.done = true;
      notify();
      resolveExit({ code, signal });
    });
  });
  child.stdin.on('error', () => {
    // the child may exit before we write; tests see that through `exited`
  });
  return {
    child,
    home,
    stdout: () => output.out,
    stderr: () => output.err,
    send: (line) => {
      child.stdin.write(`${line}\n`);
    },
    kill: (signal = 'SIGINT') => {
      child.kill(signal);
    },
    exited,
    waitFor: (pattern, waitOptions) => waitForOutput(output, pattern, waitOptions),
  };
}

/**
 * The --json events a run printed: every stdout line that starts with `{`, parsed (one that does not parse throws, so a
 * broken line fails the test; test/faults/harness.ts's jsonEvents skips one, for runs that are killed).
 */
export function jsonEventsOf(cli: Pick<CliRun, 'stdout'>): Array<Record<string, unknown>> {
  return cli
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

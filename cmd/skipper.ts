#!/usr/bin/env node
// Skipper's entry point: parses the command line and says how it went (exit codes, errors in plain words). The
// commands and flags are declared in ./program.ts, which imports a command's modules only when it runs; the wiring
// (flags -> config -> logger -> store -> provider -> game -> cli) lives in ./wire.ts.
import { setFlagsFromString } from 'node:v8';
import { CommanderError, type Command } from 'commander';
import {
  fileErrorReason,
  flushed,
  leaveQuietlyOnBrokenPipe,
  tidyTerminal,
  unknownCommandMessage,
} from '../internal/cli/index.js';
import { ExitCode, FatalError, SkipperError } from '../internal/shared/errors.js';
import { diskFullError, isDiskFull } from '../internal/store/write-guard.js';
import { buildProgram } from './program.js';

// HTTP (Node's fetch, undici: the model's API, the game's MCP) is parsed by llhttp compiled to WebAssembly, and V8's
// optimising tier for it takes ~30 MB of compile memory at the first request: one fetch peaks at 83 MB of RSS where the
// baseline compiler alone peaks at 54 MB (Node 20, measured). Parsing HTTP is a sliver of a turn's time, so the
// baseline tier is enough; it kept a play run under the peak-memory target (issue 48). Set before any request is made.
setFlagsFromString('--liftoff-only');

/** A file-system error on a path the person gave (--home, -o, --benchmark, --out…), said plainly. */
function describeFileError(error: unknown): string | undefined {
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown };
  if (typeof code !== 'string' || typeof path !== 'string') return undefined;
  const reason = fileErrorReason(error);
  return reason
    ? `cannot use ${path}: ${reason}. Check the path (--home, SKIPPER_HOME, -o, --out, --benchmark).`
    : undefined;
}

/** Every command and subcommand throws its usage errors here instead of exiting (`fleet status --bogus` too). */
function overrideExits(command: Command): void {
  for (const sub of command.commands) {
    sub.exitOverride();
    overrideExits(sub);
  }
}

/** The help of the command a mistake was made in: `skipper fleet status --help` for `skipper fleet status --bogus`. */
function helpCommandFor(program: Command, args: readonly string[]): string {
  const path: string[] = [];
  let current = program;
  for (const word of args) {
    if (word.startsWith('-')) continue;
    const sub = current.commands.find((command) => command.name() === word || command.aliases().includes(word));
    if (!sub) break;
    path.push(sub.name());
    current = sub;
  }
  return ['skipper', ...path, '--help'].join(' ');
}

async function main(argv: string[]): Promise<void> {
  const program = await buildProgram(argv.slice(2));
  program.exitOverride();
  program.configureOutput({ outputError: (text, write) => write(text) });
  overrideExits(program);
  const mistyped = unknownCommandMessage(program, argv.slice(2));
  if (mistyped) {
    process.stderr.write(`skipper: ${mistyped}\nRun \`skipper --help\` for the commands.\n`);
    process.exitCode = ExitCode.usage;
    return;
  }
  try {
    await program.parseAsync(argv);
  } catch (error) {
    // What is said about the error goes on a clean line, not after the status line.
    tidyTerminal();
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        process.exitCode = ExitCode.ok;
        return;
      }
      const names = program.commands.map((command) => command.name());
      if (
        error.code === 'commander.excessArguments' &&
        program.args[0] !== undefined &&
        !names.includes(program.args[0])
      ) {
        // `skipper mine iron`: words where no command takes them, most likely a goal.
        process.stderr.write(
          `A goal goes after --autoplay, in quotes: skipper --autoplay "mine iron". Commands: ${names.join(', ')}.\n`,
        );
      }
      process.stderr.write(`Run \`${helpCommandFor(program, argv.slice(2))}\` for the flags.\n`);
      process.exitCode = ExitCode.usage;
      return;
    }
    // A full disk met by a write outside the store's guard (memory, leases, credentials) is no bug: said the same way.
    if (!(error instanceof FatalError) && isDiskFull(error)) {
      process.stderr.write(`skipper: ${diskFullError(undefined, error).message}\n`);
      process.exitCode = ExitCode.failure;
      return;
    }
    if (error instanceof FatalError) {
      process.stderr.write(`skipper: ${error.message}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    // The database could not be reached (PostgreSQL down, the connection cut): no bug, and nothing was written.
    if (error instanceof SkipperError && error.code === 'store_unavailable') {
      process.stderr.write(`skipper: ${error.message}\n`);
      process.exitCode = ExitCode.failure;
      return;
    }
    const fileProblem = describeFileError(error);
    if (fileProblem) {
      process.stderr.write(`skipper: ${fileProblem}\n`);
      process.exitCode = ExitCode.usage;
      return;
    }
    process.stderr.write(`skipper: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.stderr.write('This is a bug: please report it with the log file ($SKIPPER_HOME/logs/skipper.log).\n');
    process.exitCode = ExitCode.failure;
  }
}

const exitCode = (): number =>
  typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0);
// A reader that leaves early (`skipper export … | head`) closes the pipe: stop quietly, it has what it wanted.
leaveQuietlyOnBrokenPipe(process.stdout, {
  exit: () => process.exit(exitCode()),
  onOther: (error) => {
    process.stderr.write(`skipper: cannot write the output: ${error.message}\n`);
    process.exit(ExitCode.failure);
  },
});
await main(process.argv);
// Every way out of a terminal session leaves the status line erased and the cursor on a fresh line for the shell.
tidyTerminal();
// What a slow reader has not taken yet is still queued in this process: hand it over before leaving.
await flushed(process.stdout);
// Leave now: an open stdin pipe, idle keep-alive sockets or a timer of a closed server must not keep a finished
// command alive. Everything that matters (store, logs) was closed and flushed by the command itself.
process.exit(exitCode());

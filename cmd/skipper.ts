#!/usr/bin/env node
// Skipper's entry point: commands and flags. The wiring (flags -> config -> logger -> store -> provider -> game ->
// cli) lives in ./wire.ts, the only other file allowed to import every module.
import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { durationFlag, integerFlag, numberFlag } from '../internal/cli/flags.js';
import { parseEnvAssignment } from '../internal/game/index.js';
import { registerServeCommand } from '../internal/cli/serve.js';
import { registerDoctorCommand } from '../internal/cli/doctor.js';
import { unknownCommandMessage } from '../internal/cli/did-you-mean.js';
import { registerCompletionCommand } from '../internal/cli/completion.js';
import { forwardGlobalOptions } from '../internal/cli/global-options.js';
import { flushed, leaveQuietlyOnBrokenPipe } from '../internal/cli/stdout.js';
import { ExitCode, FatalError } from '../internal/shared/index.js';
import { DEFAULT_CHECK_IN_TICKS } from '../internal/session/index.js';
import { registerSessionCommands, runPlay, type PlayFlags } from './wire.js';

function packageVersion(): string {
  // dist/cmd/skipper.js -> ../../package.json
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? 'unknown';
}

function buildProgram(): Command {
  const program = new Command('skipper');
  // `skipper sessions --home DIR`: options after a subcommand belong to it, not to the root command; the same options
  // before it are handed on to it (global-options.ts).
  program.enablePositionalOptions();
  program
    .description(
      'A command-line captain for games played through MCP tools.\n' +
        'An LLM (any OpenAI-compatible endpoint) or the built-in autopilot plays SpaceMolt or the embedded minimolt.',
    )
    .version(packageVersion(), '-V, --version')
    .option(
      '--model <provider/model>',
      'who plays: openai/gpt-4o-mini, openrouter/…, anthropic/…, groq/…, ollama/…, lmstudio/…, vllm/…, custom/… or builtin/autopilot (default when no model is configured)',
    )
    .option('--base-url <url>', 'OpenAI-compatible endpoint (required for custom/MODEL, overrides a preset)')
    .option('--api-key-env <NAME>', 'environment variable holding the API key (custom endpoints)')
    .option('--price <in,out>', 'USD per million input,output tokens, when the model is not in the price table')
    .option(
      '--game <target>',
      'embedded (default: minimolt in-process), spacemolt (its /mcp/v2 face), spacemolt-v1 (the flat /mcp face), an MCP URL, or "stdio:COMMAND ARGS"',
    )
    .option(
      '--game-env <KEY=VALUE>',
      'stdio: games: set an environment variable for the game server (repeatable; it also inherits yours)',
      gameEnvFlag,
    )
    .option(
      '--tick-ms <ms>',
      'embedded minimolt: tick length in ms (default 500; 0 = turbo)',
      integerFlag({ min: 0, max: 600_000 }),
    )
    .option('--seed <n>', 'embedded minimolt: world seed (default 42)', integerFlag())
    .option('--username <name>', 'play an existing account (password from SKIPPER_GAME_PASSWORD)')
    .option(
      '--registration-code <code>',
      'SpaceMolt registration code (from your dashboard) for creating a new player; prefer SKIPPER_REGISTRATION_CODE',
    )
    .option('-s, --session <name>', 'resume this session, or create it with this name')
    .option('--autoplay [goal]', 'play unattended; the optional goal steers the captain')
    .option('--max-ticks <n>', 'autoplay: stop after this many game ticks', integerFlag({ min: 1 }))
    .option('--max-turns <n>', 'autoplay: stop after this many turns', integerFlag({ min: 1 }))
    .option('--duration <time>', 'autoplay: stop after this long (90s, 5m, 1h30m)', durationFlag)
    .option('--budget-usd <usd>', 'autoplay: stop when this much money is spent on the model', numberFlag({ min: 0 }))
    .option('--budget-tokens <n>', 'autoplay: stop when this many tokens are spent', integerFlag({ min: 1 }))
    .option(
      '--planner',
      'autoplay: the model sets a plan (set_plan) and the built-in autopilot flies it every tick; the model is called back only when needed (a few calls an hour)',
    )
    .option(
      '--planner-every <ticks>',
      `planner mode: call the model back at least every N ticks (default ${DEFAULT_CHECK_IN_TICKS})`,
      integerFlag({ min: 10, max: 100_000 }),
    )
    .option(
      '--max-rounds <n>',
      'model calls per turn before the turn stops (default 20)',
      integerFlag({ min: 1, max: 200 }),
    )
    .option(
      '--context-tokens <n>',
      'token budget of the context sent each round (default 16000)',
      integerFlag({ min: 1000 }),
    )
    .option('--json', 'JSONL events on stdout instead of the transcript (for scripts)')
    .option('--no-captains-log', "don't mirror the end-of-session handoff to the game's captain's log")
    .option(
      '--capture <dir>',
      'write every game answer (tool, args, text; secrets, session ids and your username redacted) as one JSON file per call into DIR, in the test fixture format',
    )
    .option(
      '--benchmark <file>',
      'autoplay: write a JSONL event log (tool_call, tool_error, turn_end) for benchmark tools',
    )
    .addOption(new Option('--home <dir>', 'data directory (default $SKIPPER_HOME or ~/.local/share/skipper)'))
    .addOption(
      new Option('--log-level <level>', 'log file level').choices(['debug', 'info', 'warn', 'error']).default('info'),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ skipper                                   chat with the built-in autopilot on embedded minimolt
  $ skipper --autoplay --max-ticks 200        let it play 200 ticks, then print a summary
  $ OPENAI_API_KEY=… skipper --model openai/gpt-4o-mini --autoplay "get rich mining"
  $ skipper --model ollama/qwen2.5:7b         a local model (start it with \`ollama serve\`)
  $ skipper --game spacemolt --username Nova  SpaceMolt with your account (SKIPPER_GAME_PASSWORD)
  $ SKIPPER_REGISTRATION_CODE=… skipper --game spacemolt   a new SpaceMolt player (the captain registers)
  $ skipper --model openai/gpt-4o-mini --autoplay --planner   the model plans, the autopilot flies (cheap)
  $ skipper -s my-run --autoplay              resume the session "my-run" and play on
  $ skipper sessions | replay NAME | export NAME --format md
  $ skipper --home DIR sessions               = skipper sessions --home DIR (an option before a command goes to it)

Environment: SKIPPER_HOME, SKIPPER_MODEL, SKIPPER_BASE_URL, SKIPPER_GAME, SKIPPER_GAME_PASSWORD,
SKIPPER_REGISTRATION_CODE, NO_COLOR,
and the provider keys (OPENAI_API_KEY, OPENROUTER_API_KEY, ANTHROPIC_API_KEY, GROQ_API_KEY).
Config file: $SKIPPER_HOME/config.json ({"model": "openai/gpt-4o-mini", "game": "spacemolt", …}); flags win over
the environment, which wins over the file.`,
    )
    .action(async (flags: PlayFlags) => {
      process.exitCode = await runPlay(flags);
    });
  // `skipper --home B sessions` = `skipper sessions --home B`; an option the command has not is refused (exit 2).
  forwardGlobalOptions(program);
  registerServeCommand(program);
  registerDoctorCommand(program);
  registerSessionCommands(program);
  registerCompletionCommand(program);
  return program;
}

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EEXIST: 'a file is in the way of a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
};

/** A file-system error on a path the person gave (--home, -o, --benchmark, --out…), said plainly. */
function describeFileError(error: unknown): string | undefined {
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown };
  if (typeof code !== 'string' || typeof path !== 'string') return undefined;
  const reason = FILE_ERRORS[code];
  return reason
    ? `cannot use ${path}: ${reason}. Check the path (--home, SKIPPER_HOME, -o, --out, --benchmark).`
    : undefined;
}

/** Collects repeated `--game-env KEY=VALUE` into one map; a malformed entry is a usage error (exit 2). */
function gameEnvFlag(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  try {
    const [key, assigned] = parseEnvAssignment(value);
    return { ...previous, [key]: assigned };
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  program.exitOverride();
  program.configureOutput({ outputError: (text, write) => write(text) });
  for (const command of program.commands) command.exitOverride();
  const mistyped = unknownCommandMessage(program, argv.slice(2));
  if (mistyped) {
    process.stderr.write(`skipper: ${mistyped}\nRun \`skipper --help\` for the commands.\n`);
    process.exitCode = ExitCode.usage;
    return;
  }
  try {
    await program.parseAsync(argv);
  } catch (error) {
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
      process.stderr.write(`Run \`skipper --help\` for the flags.\n`);
      process.exitCode = ExitCode.usage;
      return;
    }
    if (error instanceof FatalError) {
      process.stderr.write(`skipper: ${error.message}\n`);
      process.exitCode = error.exitCode;
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
// What a slow reader has not taken yet is still queued in this process: hand it over before leaving.
await flushed(process.stdout);
// Leave now: an open stdin pipe, idle keep-alive sockets or a timer of a closed server must not keep a finished
// command alive. Everything that matters (store, logs) was closed and flushed by the command itself.
process.exit(exitCode());

// Skipper's commands and flags, declared with light modules only, so that `skipper --version` and `skipper --help`
// start fast. The root command's options are declared here and its action loads the play command
// (internal/cli/play.ts) when it runs; every subcommand is a card (internal/cli/commands.ts, and cmd/web.ts) listed
// once in COMMANDS, whose module — it pulls in the game, the store or minimolt — is imported only when a word of the
// command line names it (`completion` names them all: its script reads every option). A command not named is its
// card's stub, enough for the root help; test/unit/cmd/program.test.ts checks that the help with stubs is the help
// with the real commands.
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  accountOptions,
  durationFlag,
  forwardGlobalOptions,
  integerFlag,
  numberFlag,
  registerCompletionCommand,
  BENCH_CARD,
  DOCTOR_CARD,
  FLEET_CARD,
  SERVE_CARD,
  SESSION_CARD,
  type CommandCard,
  type CommandStub,
  runPlay,
  type PlayFlags,
} from '../internal/cli/index.js';
import { parseEnvAssignment } from '../internal/game/target.js';
import { DEFAULT_CHECK_IN_TICKS } from '../internal/session/planner.js';
import { WEB_CARD } from './web.js';

/** Every subcommand, listed once, in the order the root help shows them. */
const COMMANDS: CommandCard[] = [SERVE_CARD, FLEET_CARD, WEB_CARD, DOCTOR_CARD, SESSION_CARD, BENCH_CARD];

/** A command's place in the root help, without its module: it has options, so `[options]` shows as for the real one. */
function addStub(program: Command, stub: CommandStub): void {
  const command = program.command(stub.name).description(stub.description);
  if (stub.args) command.argument(stub.args);
  command.addOption(new Option('--stub').hideHelp());
}

/**
 * The program for this command line: every command a word of `args` names (all of them when `load` is 'all' or
 * `completion` is named) is registered for real, the others as stubs.
 */
export async function buildProgram(args: readonly string[], load: 'named' | 'all' = 'named'): Promise<Command> {
  const program = rootCommand();
  // `skipper --home B sessions` = `skipper sessions --home B`; an option the command has not is refused (exit 2).
  forwardGlobalOptions(program);
  const everything = load === 'all' || args.includes('completion');
  for (const group of COMMANDS) {
    if (everything || group.stubs.some((stub) => args.includes(stub.name))) await group.register(program);
    else for (const stub of group.stubs) addStub(program, stub);
  }
  registerCompletionCommand(program);
  return program;
}

interface PackageManifest {
  version?: string;
  bin?: Record<string, string>;
}

function packageVersion(): string {
  // dist/cmd/program.js -> ../../package.json; cmd/program.ts, as the tests load it -> ../package.json
  for (const path of ['../../package.json', '../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as PackageManifest;
      if (manifest.bin?.skipper) return manifest.version ?? 'unknown';
    } catch {
      // not this one
    }
  }
  return 'unknown';
}

const ROOT_EXAMPLES = `
Examples:
  $ skipper                                   chat with the built-in autopilot on embedded minimolt
  $ skipper --autoplay --max-ticks 200        let it play 200 ticks, then print a summary
  $ OPENAI_API_KEY=… skipper --model openai/gpt-4o-mini --autoplay "get rich mining"
  $ skipper --model ollama/qwen2.5:7b         a local model (start it with \`ollama serve\`)
  $ skipper --game spacemolt --username Nova  SpaceMolt with your account (SKIPPER_GAME_PASSWORD)
  $ SKIPPER_GAME_API_KEY=… skipper --game spacemolt --username Nova   the same, logged in with your API key
  $ SKIPPER_REGISTRATION_CODE=… skipper --game spacemolt   a new SpaceMolt player (the captain registers)
  $ skipper --model openai/gpt-4o-mini --autoplay --planner   the model plans, the autopilot flies (cheap)
  $ skipper -s my-run --autoplay              resume the session "my-run" and play on
  $ skipper sessions | replay NAME | export NAME --format md
  $ skipper fleet fleet.yaml                  many captains in one process (skipper fleet --help: the file)
  $ skipper web                               the bridge on a web page: map, captains, live stream, replay
  $ skipper --home DIR sessions               = skipper sessions --home DIR (an option before a command goes to it)

Environment: SKIPPER_HOME (default $XDG_DATA_HOME/skipper or ~/.local/share/skipper), SKIPPER_MODEL,
SKIPPER_BASE_URL, SKIPPER_API_KEY_ENV, SKIPPER_GAME, SKIPPER_USERNAME, SKIPPER_GAME_PASSWORD,
SKIPPER_GAME_API_KEY (your SpaceMolt API key: log in without a password), SKIPPER_REGISTRATION_CODE, SKIPPER_TICK_MS, SKIPPER_SEED, SKIPPER_DATABASE_URL (a postgres:// store, as --db),
NO_COLOR, FORCE_COLOR, TERM=dumb (no color),
and the provider keys (OPENAI_API_KEY, OPENROUTER_API_KEY, ANTHROPIC_API_KEY, GROQ_API_KEY).
Config file: $SKIPPER_HOME/config.json ({"model": "openai/gpt-4o-mini", "game": "spacemolt", …}); flags win over
the environment, which wins over the file.`;

/** The options of unattended play (`--autoplay` and what bounds or steers it). */
function autoplayOptions(command: Command): Command {
  return command
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
    );
}

function rootCommand(): Command {
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
    .option(
      '--price <in,out[,cached]>',
      'USD per million input,output[,cached prompt] tokens, when the model is not in the price table (no cached: billed as input)',
    )
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
    .option('--seed <n>', 'embedded minimolt: world seed (default 42)', integerFlag());
  accountOptions(program).option('-s, --session <name>', 'resume this session, or create it with this name');
  autoplayOptions(program)
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
      "write what the game says into DIR, one JSON file each in the test fixture format: its initialize result, its tool list, and every answer (the captain's calls and Skipper's own logins and notifications); secrets, session ids and your username redacted. skipper doctor --from DIR reads it back",
    )
    .option(
      '--benchmark <file>',
      'autoplay: write a JSONL event log (tool_call, tool_error, turn_end) for benchmark tools',
    )
    .addOption(new Option('--home <dir>', 'data directory (default $SKIPPER_HOME or ~/.local/share/skipper)'))
    .addOption(
      new Option(
        '--db <url>',
        'keep sessions in PostgreSQL (postgres://USER@HOST:PORT/DB; default $SKIPPER_DATABASE_URL, else SQLite in the home)',
      ),
    )
    .addOption(
      new Option('--log-level <level>', 'log file level').choices(['debug', 'info', 'warn', 'error']).default('info'),
    )
    .addHelpText('after', ROOT_EXAMPLES)
    .action(async (flags: PlayFlags) => {
      process.exitCode = await runPlay(flags);
    });
  return program;
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

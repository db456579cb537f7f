// `skipper doctor`: can Skipper play this game? The command and its wiring. Without credentials it connects
// (initialize), lists the tools (tools/list) and nothing else. With credentials — taken as the play command takes
// them (--username with SKIPPER_GAME_PASSWORD or a stored password, --api-key / SKIPPER_GAME_API_KEY; the same
// connectPlayer and logInPlayer as play) — it logs in (never registers), asks each free query the autopilot uses once
// (internal/cli/doctor-contact.ts) and reports what Skipper read from each answer, with a verdict from the answers.
// `--capture DIR` keeps everything it asked, as play's --capture does; `--from DIR` reads such a folder offline.
import { commandFrom, DOCTOR } from './commands.js';
import type { Command } from 'commander';
import { readCaptureFolder } from './capture-folder.js';
import { resolveConfig } from './config.js';
import { askContact } from './doctor-contact.js';
import { runModelDoctor } from './doctor-model.js';
import {
  NOT_TRIED_HINT,
  checkListed,
  doctorJson,
  listGame,
  renderReport,
  viewExitCode,
  type DoctorView,
} from './doctor.js';
import { CaptureWriter, GameCapture } from './game-capture.js';
import { setUpGame } from './game-setup.js';
import { checkHome, ensureHome, openHomeStore } from './home.js';
import { createFileLogger } from './logger.js';
import { SecretList } from './secrets.js';
import {
  checkGame,
  contactVerdict,
  readAnswers,
  targetLabel,
  targetUrl,
  type ContactAnswer,
  type GameConnection,
  type GameExchange,
  type McpToolLike,
} from '../game/index.js';
import { UsageError } from '../shared/index.js';
import { urlCredentials } from '../store/index.js';
import { loginOptions } from './account-options.js';
import { env } from './config-secrets.js';
import { connectPlayer, logInPlayer } from './play-setup.js';

export interface DoctorFlags {
  game?: string;
  username?: string;
  apiKey?: string;
  home?: string;
  json?: boolean;
  capture?: string;
  from?: string;
  model?: string | true;
  baseUrl?: string;
  apiKeyEnv?: string;
}

const EMBEDDED = new Set(['embedded', 'minimolt']);

export async function runDoctor(flags: DoctorFlags): Promise<number> {
  if (flags.model !== undefined) return runModelDoctor({ ...flags, model: flags.model }, env());
  const view = flags.from !== undefined ? viewFromCapture(flags.from, flags) : await viewLive(flags);
  process.stdout.write(flags.json ? `${JSON.stringify(doctorJson(view))}\n` : renderReport(view));
  return viewExitCode(view);
}

/** `--from DIR`: the same report from a capture folder, offline. */
function viewFromCapture(from: string, flags: DoctorFlags): DoctorView {
  for (const [given, name] of [
    [flags.capture, '--capture'],
    [flags.game, '--game'],
    [flags.username, '--username'],
    [flags.apiKey, '--api-key'],
  ] as const) {
    if (given !== undefined)
      throw new UsageError(`--from reads a capture offline and connects to nothing: leave out ${name}.`);
  }
  const contact = readCaptureFolder(from);
  const tools = contact.tools
    ? checkGame({ serverName: contact.server.name, serverVersion: contact.server.version, tools: contact.tools })
    : undefined;
  const readings = readAnswers(contact.answers, () => 'not in the capture');
  return {
    label: `${contact.game ?? 'unknown game'} (from the capture ${from})`,
    server: contact.server,
    ...(tools ? { tools } : {}),
    contact: { tried: true, readings, verdict: contactVerdict(readings, tools), source: 'capture' },
  };
}

/** Logged in when credentials are in reach; else the look at the tools alone. */
async function viewLive(flags: DoctorFlags): Promise<DoctorView> {
  const config = resolveConfig(
    {
      ...(flags.game !== undefined ? { game: flags.game } : {}),
      ...(flags.username !== undefined ? { username: flags.username } : {}),
      ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}),
      ...(flags.home !== undefined ? { home: flags.home } : {}),
    },
    env(),
  );
  const given = config.username !== undefined || config.gameApiKey !== undefined || env().SKIPPER_GAME_PASSWORD;
  const embedded = EMBEDDED.has(config.game.trim().toLowerCase());
  // Nothing to log in with and nothing to keep: the look at the tools alone, creating nothing (no home, no world).
  if (!given && flags.capture === undefined && (embedded || !checkHome(config.home))) {
    const listed = await listGame(config.game, 15_000);
    return {
      label: listed.label,
      server: {},
      tools: checkListed(listed),
      contact: { tried: false, hint: NOT_TRIED_HINT },
    };
  }
  return viewLoggedIn(config, flags);
}

/** Connected with the player's credentials as play connects; the answers read when a login went through. */
async function viewLoggedIn(config: ReturnType<typeof resolveConfig>, flags: DoctorFlags): Promise<DoctorView> {
  ensureHome(config.home);
  const secretList = new SecretList();
  secretList.add(...urlCredentials(config.game), config.gameApiKey);
  const fileLogger = createFileLogger({ home: config.home, secrets: secretList });
  const store = await openHomeStore(config.home, {
    logger: fileLogger.logger,
    redact: (text) => secretList.redact(text),
    ...(config.database ? { database: config.database } : {}),
  });
  try {
    const game = await setUpGame(config, fileLogger);
    try {
      const capture = flags.capture
        ? new GameCapture({
            writer: new CaptureWriter(flags.capture),
            gameUrl: targetUrl(game.target),
            secrets: () => secretList.list(),
            username: config.username,
          })
        : undefined;
      // The tool list as the server gave it (the check reads descriptions and schemas, not Skipper's specs), and each
      // answer as the game gave it (what --capture keeps and --from reads, not the text labelled for a model).
      const seen: { tools: McpToolLike[]; server: { name?: string; version?: string }; answer?: ContactAnswer } = {
        tools: [],
        server: {},
      };
      const record = (exchange: GameExchange): void => {
        if (exchange.type === 'initialize') seen.server = exchange.serverInfo;
        if (exchange.type === 'tools-list') seen.tools = exchange.pages.flatMap((page) => page.tools as McpToolLike[]);
        if (exchange.type === 'call' && !exchange.own)
          seen.answer = { text: exchange.result.text, isError: exchange.result.isError };
        capture?.exchange(exchange);
      };
      const player = await connectPlayer({
        config,
        store,
        secretList,
        logger: fileLogger.logger,
        game,
        record,
        ...(capture ? { wrap: (conn: GameConnection) => capture.follow(conn) } : {}),
      });
      try {
        await player.conn.listTools();
        const tools = checkListed({
          serverName: seen.server.name,
          serverVersion: seen.server.version,
          tools: seen.tools,
        });
        const base = { label: targetLabel(game.target), server: seen.server, tools };
        if (!(await logInPlayer(player, player.conn)))
          return { ...base, contact: { tried: false, hint: NOT_TRIED_HINT } };
        const readings = await askContact(player.conn, async (name, args) => {
          seen.answer = undefined;
          const result = await player.conn.call(name, args);
          return seen.answer ?? { text: result.text, isError: result.isError };
        });
        return {
          ...base,
          contact: { tried: true, readings, verdict: contactVerdict(readings, tools), source: 'live' },
        };
      } finally {
        await player.conn.close().catch(() => {});
      }
    } finally {
      await game.sim?.close().catch(() => {});
    }
  } finally {
    await store.close();
    fileLogger.flush();
  }
}

export function registerDoctorCommand(program: Command): Command {
  const command = commandFrom(program, DOCTOR).option(
    '--game <target>',
    'embedded or minimolt (default, in-process; else $SKIPPER_GAME), spacemolt, spacemolt-v1, an MCP URL, or "stdio:COMMAND ARGS"',
  );
  return loginOptions(command)
    .option(
      '--home <dir>',
      'data directory: stored credentials and the log (default $SKIPPER_HOME or ~/.local/share/skipper)',
    )
    .option('--json', 'print the report as one JSON object (snake_case keys)')
    .option(
      '--capture <dir>',
      'logged in: keep everything the doctor asked (initialize, tools/list, the login, each answer), redacted, one JSON file each',
    )
    .option('--from <dir>', 'no game: read a folder written by --capture (or a probe file) and report on its answers')
    .option('--model [id]', 'check the model instead (key, name, streaming, tool calls); no ID: the configured one')
    .option('--base-url <url>', 'with --model: the OpenAI-compatible endpoint (custom/… models)')
    .option('--api-key-env <var>', "with --model: the variable holding the endpoint's API key")
    .addHelpText(
      'after',
      `
Without credentials: connects (MCP initialize), asks for the tool list (tools/list) and nothing else — no login, no
game call. For every operation Skipper uses (register, login, get_status, travel, jump, mine, sell, …) it checks that
the tool and, on SpaceMolt's grouped v2 face, the action exist and that every parameter Skipper sends is declared
(a renamed one is named: "travel takes poi_id, not id"). It lists actions Skipper's catalogue does not know and how
Skipper will treat them, and actions the catalogue knows that the server no longer offers.

With credentials (--username NAME with SKIPPER_GAME_PASSWORD or a password stored in the home, or --api-key /
SKIPPER_GAME_API_KEY): it also logs in (never registers) and asks each free query the autopilot uses once —
get_status, get_map, get_system, get_poi, view_market (only when docked), get_cargo, get_skills, get_notifications
(clear=false: a peek, the events stay) — and shows what Skipper read from each answer, fact by fact (✓ read,
✗ not read, with why, – not asked or unknown).

Verdict: "Skipper can play here" (exit 0) when the status gives credits, system, docked, fuel and cargo and
get_system gives POIs with their kinds; "Skipper plays here with gaps" (exit 0) when those read but the map, the
market, deposits or another answer do not (the autopilot goes around them); "Skipper cannot play here yet" (exit 1)
with what is missing, or when an operation the captain needs is missing from the tools or takes a parameter Skipper
does not send. Without credentials the verdict is the tool check's. Exit 2: a usage error.

Examples:
  $ skipper doctor                                   the embedded minimolt's tools
  $ skipper doctor --game spacemolt                  SpaceMolt's /mcp/v2 face, tools only
  $ SKIPPER_GAME_PASSWORD=… skipper doctor --game spacemolt --username Nova --capture first-contact/
  $ skipper doctor --from first-contact/             the same report again, offline
  $ skipper doctor --game http://127.0.0.1:7777/mcp/v2 --json
`,
    )
    .action(async (flags: DoctorFlags) => {
      process.exitCode = await runDoctor(flags);
    });
}

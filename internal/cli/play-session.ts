// The play command's captain: the game started (embedded) or reached, `--capture` attached, the player's account
// taken as play takes it, and openCaptain (internal/session/captain.ts) doing the rest — lease, connection, login,
// the session resumed or drafted, the engine. Then the watchers (transcript or JSONL, status line, benchmark log), the
// banner and the header people read, and the recap of a resumed session.
import { attachJson, attachJsonWaits, attachLoginNotices, attachTranscript, connectWaitLine } from './watchers.js';
import { attachBenchmarkLog } from './benchmark-log.js';
import { invocation } from './invocation.js';
import { CaptureWriter, GameCapture } from './game-capture.js';
import { setUpGame } from './game-setup.js';
import { openCaptain, type Captain } from '../session/index.js';
import { targetUrl, type GameConnection } from '../game/index.js';
import { isBuiltinProvider, type Provider } from '../shared/index.js';
import type { ModelConfig } from '../provider/index.js';
import {
  captainGameOf,
  logInPlayer,
  modelConfigFor,
  playerAccount,
  type Cleanup,
  type PlayBase,
} from './play-setup.js';

const autopilotBanner = (): string[] => [
  'No model configured: the built-in autopilot is playing (no API key, no network).',
  'Plug in an LLM with --model, e.g. `--model openai/gpt-4o-mini` (OPENAI_API_KEY), `--model ollama/qwen2.5:7b`,',
  `or set SKIPPER_MODEL / "model" in $SKIPPER_HOME/config.json. \`${invocation()} --help\` lists the providers.`,
];

/** Opens the play command's captain; what must be closed goes on `cleanups`. */
export async function openPlayCaptain(input: {
  base: PlayBase;
  provider: Provider;
  make: (model: ModelConfig) => Provider;
  cleanups: Cleanup[];
}): Promise<Captain> {
  const { base, provider, make, cleanups } = input;
  const { config, store, secretList, flags, existing } = base;
  const game = await setUpGame(config, base.fileLogger);
  if (game.sim) cleanups.push(() => game.sim?.close().catch(() => {}));
  const capture = flags.capture
    ? new GameCapture({
        writer: new CaptureWriter(flags.capture),
        gameUrl: targetUrl(game.target),
        secrets: () => secretList.list(),
        username: config.username,
      })
    : undefined;
  const player = await playerAccount({
    config,
    store,
    secretList,
    game,
    fresh: existing === undefined,
    ...(capture ? { record: capture.exchange, wrap: (conn: GameConnection) => capture.follow(conn) } : {}),
  });
  const captain = await openCaptain({
    store,
    game: captainGameOf(config, game),
    account: {
      ...player.account,
      // An auth outage met while logging in is said as it is waited out; a named account refused stops here.
      logIn: async (conn) => {
        const detach = attachLoginNotices({
          game: conn,
          output: base.output,
          chalk: base.chalk,
          write: base.writeJson,
        });
        await logInPlayer(player, conn).finally(detach);
      },
    },
    provider,
    flier: () => make(modelConfigFor(config, 'builtin/autopilot')),
    session: existing
      ? { existing }
      : {
          ...(flags.session ? { name: flags.session } : {}),
          ...(typeof flags.autoplay === 'string' ? { goal: flags.autoplay } : {}),
          extra: {
            ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
            ...(config.apiKeyEnv ? { apiKeyEnv: config.apiKeyEnv } : {}),
          },
          // Written with its first turn: a chat opened and quit without one stores nothing.
          draft: true,
        },
    pacing: {
      maxRounds: config.maxRounds,
      ...(config.contextTokens ? { contextTokens: config.contextTokens } : {}),
      ...(flags.plannerEvery !== undefined ? { plannerEvery: flags.plannerEvery } : {}),
    },
    secrets: () => secretList.list(),
    logger: base.logger,
    check: { planner: flags.planner === true },
    onConnectWait: (waitedMs) => sayConnectWait(base, targetUrl(game.target), waitedMs),
  });
  cleanups.push(() => captain.close());
  // A password registered or used just now must never reach the log file either.
  captain.connection.onEvent((event) => {
    if (event.type === 'logged-in') secretList.add(...store.credentials.passwordList());
  });
  attachWatchers(base, captain);
  if (existing && !base.writeJson) await announceResume(base, captain);
  if (flags.benchmark) {
    const close = attachBenchmarkLog(captain.runner, flags.benchmark, {
      session: captain.session().name,
      model: provider.id,
      game: captain.label,
    });
    cleanups.push(() => close());
  }
  return captain;
}

/** Watchers: the transcript for people, JSONL for scripts, a status line on terminals. */
function attachWatchers(base: PlayBase, captain: Captain): void {
  const { output, chalk, config } = base;
  const provider = captain.model;
  if (base.writeJson) {
    base.writeJson({
      type: 'session-start',
      session: captain.session().name,
      game: captain.label,
      model: provider.id,
      resumed: base.existing !== undefined,
    });
    attachJson(captain.runner, base.writeJson);
    attachJsonWaits({ game: captain.connection, retries: base.modelRetries, write: base.writeJson });
    return;
  }
  attachTranscript({
    runner: captain.runner,
    game: captain.connection,
    retries: base.modelRetries,
    output,
    chalk,
    color: base.color,
    plan: () => captain.planner?.plan,
    ...(base.interactive ? { width: () => process.stdout.columns ?? 80 } : {}),
    // Chat on a terminal: readline already shows the line typed at the prompt.
    echoTyped: !(base.interactive && process.stdin.isTTY === true),
    redact: (text) => base.secretList.redact(text),
  });
  // Nobody chose a captain: the default built-in one plays, and says how to plug in a model.
  if (isBuiltinProvider(provider) && config.model === undefined)
    for (const line of autopilotBanner()) output.line(chalk.yellow(line));
  output.line(chalk.dim(sessionHeader(base, captain)));
}

/** The line a transcript opens with: session, game, model, captain. */
function sessionHeader(base: PlayBase, captain: Captain): string {
  const { existing, config, flags } = base;
  const resumed = existing ? ' (resumed)' : '';
  const sim = captain.label === 'embedded' ? ` (tick ${config.tickMs} ms, seed ${config.seed})` : '';
  const planner = flags.planner ? ' (planner: the autopilot flies its plan)' : '';
  const name = captain.connection.username() ?? '(not logged in yet)';
  return [
    'skipper',
    `session ${captain.session().name}${resumed}`,
    `game ${captain.label}${sim}`,
    `model ${captain.model.id}${planner}`,
    `captain ${name}`,
  ].join(' · ');
}

/** A resumed session, for people: where it left off, and the plan it flew in planner mode. */
async function announceResume(base: PlayBase, captain: Captain): Promise<void> {
  const { output, chalk, flags } = base;
  for (const line of await captain.recap()) {
    const again =
      line.startsWith('plan (planner mode)') && !flags.planner ? ' · fly it again with --planner (or /planner on)' : '';
    output.line(chalk.dim(`${line}${again}`));
  }
}

/** The game has not answered the connection yet: one line, or a `game-wait` event with --json (never silent). */
function sayConnectWait(base: PlayBase, url: string, waitedMs: number): void {
  if (base.writeJson) base.writeJson({ type: 'game-wait', reason: 'connecting', waited_ms: waitedMs });
  else base.output.line(base.chalk.dim(connectWaitLine(url, waitedMs)));
}

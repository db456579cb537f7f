// Wiring: flags -> config -> logger -> store -> provider -> game -> cli. The only place (with skipper.ts) that
// imports every module; everything it builds is handed down as parameters.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Command } from 'commander';
import { actionClassifier, runAutoplay, type AutoplaySummary } from '../internal/session/index.js';
import { readConfigFile, resolveConfig, type ConfigFlags, type ResolvedConfig } from '../internal/cli/config.js';
import { jsonLineWriter } from '../internal/cli/json-events.js';
import { createFileLogger } from '../internal/cli/logger.js';
import { ensureHome, openHomeStore, openHomeStoreForReading } from '../internal/cli/home.js';
import { collectSecrets, SecretList } from '../internal/cli/secrets.js';
import { loginRefusedError, watchAccountLookups } from '../internal/cli/login-check.js';
import { SilentOutput, TerminalOutput, wantsColor, type Output } from '../internal/cli/output.js';
import { createChalk } from '../internal/cli/render.js';
import { attachJson, attachTranscript } from '../internal/cli/watchers.js';
import { runRepl } from '../internal/cli/repl.js';
import { registerStoreCommands } from '../internal/cli/sessions.js';
import { registerBenchCommand } from '../internal/cli/bench-command.js';
import { registerMemoryCommand } from '../internal/cli/memory-command.js';
import { registerReportCommand } from '../internal/cli/report.js';
import { HANDOFF_REQUEST } from '../internal/session/index.js';
import { setUpSession } from '../internal/session/index.js';
import { setUpGame } from '../internal/cli/game-setup.js';
import { invocation } from '../internal/cli/invocation.js';
import { summaryJson, summaryLines } from '../internal/cli/summary.js';
import { attachBenchmarkLog } from '../internal/cli/benchmark-log.js';
import { connectGame, parseGameTarget, targetLabel, type GameConnection } from '../internal/game/index.js';
import { canAutopilot, createProvider, resolveModel, type ModelConfig } from '../internal/provider/index.js';
import type { Minimolt } from '../internal/sim/index.js';
import { checkSessionName, repairDanglingToolCalls, type Session, type Store } from '../internal/store/index.js';
import { ExitCode, FatalError, UsageError, type Provider } from '../internal/shared/index.js';

export interface PlayFlags extends ConfigFlags {
  session?: string;
  autoplay?: boolean | string;
  maxTicks?: number;
  maxTurns?: number;
  duration?: number;
  budgetUsd?: number;
  budgetTokens?: number;
  json?: boolean;
  benchmark?: string;
  logLevel?: string;
}

const env = (): Record<string, string | undefined> => process.env;

function modelConfigFor(config: ResolvedConfig, modelId: string | undefined): ModelConfig {
  return resolveModel(
    {
      model: modelId ?? 'builtin/autopilot',
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      ...(config.apiKeyEnv ? { apiKeyEnv: config.apiKeyEnv } : {}),
      ...(config.price ? { price: config.price } : {}),
    },
    env(),
  );
}

/** The secrets a config names: flags and environment win over the file, but the file's values are secrets all the same. */
function configSecrets(config: ResolvedConfig): { env: Record<string, string | undefined>; apiKeyEnvs: Array<string | undefined>; registrationCodes: Array<string | undefined> } {
  const file = readConfigFile(config.configFile);
  return { env: env(), apiKeyEnvs: [config.apiKeyEnv, file.apiKeyEnv], registrationCodes: [config.registrationCode, file.registrationCode] };
}

function describeProvider(provider: Provider): string {
  return provider.id;
}

const autopilotBanner = (): string[] => [
  'No model configured: the built-in autopilot is playing (no API key, no network).',
  'Plug in an LLM with --model, e.g. `--model openai/gpt-4o-mini` (OPENAI_API_KEY), `--model ollama/qwen2.5:7b`,',
  `or set SKIPPER_MODEL / "model" in $SKIPPER_HOME/config.json. \`${invocation()} --help\` lists the providers.`,
];

export async function runPlay(flags: PlayFlags, _program: Command): Promise<number> {
  // commander makes a --no-… flag default to true; only an explicit --no-captains-log may override the config file.
  const { captainsLog, ...rest } = flags;
  const config = resolveConfig({ ...rest, ...(captainsLog === false ? { captainsLog: false } : {}) }, env());
  // Everything the person typed is checked before anything is created in the home.
  if (flags.session) checkSessionName(flags.session);
  if (config.sources.model === 'flag' || config.sources.model === 'env') modelConfigFor(config, config.model);
  if ((config.sources.game === 'flag' || config.sources.game === 'env') && config.game !== 'embedded') parseGameTarget(config.game);
  ensureHome(config.home);
  // Rule 14: one list of every secret in reach; the log, --json output and the game's guard all use it.
  const secretList = new SecretList();
  const fileLogger = createFileLogger({ home: config.home, secrets: secretList, ...(flags.logLevel ? { level: flags.logLevel } : {}) });
  const logger = fileLogger.logger;
  const json = flags.json === true;
  const color = !json && wantsColor(process.stdout, env());
  const interactive = !json && process.stdout.isTTY === true;
  const output: Output = json
    ? new SilentOutput(process.stderr)
    : new TerminalOutput({ stdout: process.stdout, stderr: process.stderr, color, interactive });
  const chalk = createChalk(color);
  const writeJson = json ? jsonLineWriter(process.stdout, { redact: (text) => secretList.redact(text) }) : undefined;
  const autoplay = flags.autoplay !== undefined && flags.autoplay !== false;

  const store = openHomeStore(config.home, logger);
  // Resuming a session brings back its game, model and captain unless flags (or the environment) say otherwise.
  const existing = flags.session ? store.findSession(flags.session) : undefined;
  if (existing) {
    if (config.sources.model !== 'flag' && config.sources.model !== 'env') config.model = existing.model;
    if (config.sources.game !== 'flag' && config.sources.game !== 'env') config.game = existing.game;
    if (config.username === undefined && existing.username) config.username = existing.username;
    const extra = existing.extra as { baseUrl?: unknown; apiKeyEnv?: unknown };
    if (config.sources.model !== 'flag' && config.sources.model !== 'env') {
      if (config.baseUrl === undefined && typeof extra.baseUrl === 'string') config.baseUrl = extra.baseUrl;
      if (config.apiKeyEnv === undefined && typeof extra.apiKeyEnv === 'string') config.apiKeyEnv = extra.apiKeyEnv;
    }
  }

  let modelConfig: ModelConfig;
  try {
    modelConfig = modelConfigFor(config, config.model);
  } catch (error) {
    store.close();
    throw error;
  }
  if ('apiKey' in modelConfig && modelConfig.apiKey) secretList.add(modelConfig.apiKey);
  const makeProvider = (model: ModelConfig): Provider =>
    createProvider(model, {
      logger: logger.child({ module: 'provider' }),
      ...(config.headersTimeoutMs ? { timeouts: { headersMs: config.headersTimeoutMs } } : {}),
      ...(config.streamIdleTimeoutMs ? { streamIdleTimeoutMs: config.streamIdleTimeoutMs } : {}),
      ...(config.vision !== undefined ? { vision: config.vision } : {}),
      seed: config.seed,
      // On a shared server (SpaceMolt) a name drawn from the demo's fixed seed would be taken by the first player
      // who used it: the built-in captains register under --username, else a fresh name.
      username: config.username ?? (config.game === 'embedded' ? undefined : `captain_${randomBytes(3).toString('hex')}`),
    });
  let provider = makeProvider(modelConfig);

  let sim: Minimolt | undefined;
  let connection: GameConnection | undefined;
  /** Known once the session exists; the captain's username is recorded on it when it logs in. */
  let currentSession: Session | undefined;
  const cleanup = async (): Promise<void> => {
    await connection?.close().catch(() => {});
    await sim?.close().catch(() => {});
    store.close();
    fileLogger.flush();
  };

  try {
    const game = await setUpGame(config, fileLogger);
    sim = game.sim;
    const gamePassword = env().SKIPPER_GAME_PASSWORD;
    // The registration code is a secret like a password; embedded minimolt has its own, known here.
    const registrationCode = game.sim?.registrationCode ?? config.registrationCode;
    // Every API key in reach is a secret no tool call may carry, not only the one in use.
    const fromConfig = configSecrets(config);
    collectSecrets({ ...fromConfig, registrationCodes: [registrationCode, ...fromConfig.registrationCodes], store }, secretList);
    const secrets = secretList.list();
    const accounts = watchAccountLookups(store.credentials, config.username);
    connection = await connectGame({
      target: game.target.kind === 'stdio' && config.gameEnv ? { ...game.target, env: config.gameEnv } : game.target,
      credentials: accounts.credentials,
      ...(config.username ? { username: config.username } : {}),
      ...(gamePassword ? { password: gamePassword } : {}),
      secrets,
      ...(registrationCode ? { registrationCode } : {}),
      logger,
      classify: config.toolClasses,
    });
    const gameLabel = targetLabel(game.target);
    const conn = connection;
    conn.onEvent((event) => {
      // A password registered or used just now must never reach the log file either.
      if (event.kind === 'logged-in') {
        secretList.add(...store.credentials.allPasswords());
        if (currentSession && currentSession.username !== event.username) {
          currentSession = store.updateSession(currentSession.id, { username: event.username });
        }
      }
    });
    const tools = await conn.listTools();
    // The built-in captains play SpaceMolt's faces only: on another game say so at once, not after idle turns.
    const playable = canAutopilot(tools);
    if (provider.id.startsWith('builtin/') && !playable.ok) {
      throw new UsageError(
        `${provider.id} cannot play ${targetLabel(game.target)}: ${playable.reason}. ` +
          'It plays SpaceMolt and minimolt; for this game plug in a model with --model (e.g. --model openai/gpt-4o-mini).',
      );
    }
    // A named account the game refuses stops here: playing on logged out would only register someone else.
    const loggedIn = await conn.loginIfKnown();
    // Named: a password was given for --username (the connection tries it first and stores it only once it works),
    // or one was found stored for it.
    const named = config.username !== undefined && gamePassword !== undefined ? config.username : accounts.found();
    if (!loggedIn && named !== undefined) throw loginRefusedError(named, gamePassword !== undefined);

    // The session: resumed (dangling tool calls repaired first, rule 9) or created.
    let session: Session;
    if (existing) {
      session = existing;
      const stored = store.messages(session.id);
      const repairs = repairDanglingToolCalls(stored);
      if (repairs.length > 0) store.appendMany(session.id, repairs.map((message) => ({ ...message, turn: store.lastTurn(session.id) })));
    } else {
      session = store.createSession({
        ...(flags.session ? { name: flags.session } : {}),
        game: gameLabel,
        model: provider.id,
        ...(conn.username() ? { username: conn.username() as string } : {}),
        ...(typeof flags.autoplay === 'string' ? { goal: flags.autoplay } : {}),
        extra: { ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}), ...(config.apiKeyEnv ? { apiKeyEnv: config.apiKeyEnv } : {}) },
      });
    }
    currentSession = session;
    const turnsSoFar = store.lastTurn(session.id);
    const { runner, memory: sessionMemoryWiring } = setUpSession({
      store,
      session,
      provider,
      game: conn,
      tools,
      gameLabel,
      goal: () => session.goal ?? undefined,
      maxRounds: config.maxRounds,
      ...(config.contextTokens ? { contextTokens: config.contextTokens } : {}),
      logger,
      secrets,
      resume: existing !== undefined,
      tick: () => game.clock.now(),
      tickEstimated: game.clock.source === 'estimated',
    });
    const memory = sessionMemoryWiring as NonNullable<typeof sessionMemoryWiring>;

    // Watchers: the transcript for people, JSONL for scripts, a status line on terminals.
    if (writeJson) {
      writeJson({ type: 'session-start', session: session.name, game: gameLabel, model: provider.id, resumed: existing !== undefined });
      attachJson(runner, writeJson);
    } else {
      attachTranscript({
        runner,
        game: conn,
        output,
        chalk,
        color,
        ...(interactive ? { width: () => process.stdout.columns ?? 80 } : {}),
      });
      if (provider.id === 'builtin/autopilot') for (const line of autopilotBanner()) output.line(chalk.yellow(line));
      output.line(
        chalk.dim(
          `skipper · session ${session.name}${existing ? ' (resumed)' : ''} · game ${gameLabel}${sim ? ` (tick ${config.tickMs} ms, seed ${config.seed})` : ''} · model ${provider.id} · captain ${conn.username() ?? '(not logged in yet)'}`,
        ),
      );
    }
    const closeBenchmark = flags.benchmark ? attachBenchmarkLog(runner, flags.benchmark, { session: session.name, model: provider.id, game: gameLabel }) : undefined;
    // A handoff when the session ends (episodes and lessons are written per turn by setUpSession).
    const endSession = async (askModel: boolean): Promise<void> => {
      let text: string | undefined;
      // A model writes its own handoff (one more short turn); the built-in policies and interrupted sessions get a
      // factual one written by code.
      if (askModel && !runner.provider.id.startsWith('builtin/') && runner.turns > turnsSoFar) {
        try {
          const handoff = await runner.run({ kind: 'user', text: HANDOFF_REQUEST }, { signal: AbortSignal.timeout(120_000) });
          if (handoff.outcome === 'answered') text = handoff.answer;
        } catch (error) {
          logger.warn({ error: (error as Error).message }, 'handoff turn failed; writing a factual one');
        }
      }
      const written = await memory.endSession({ ...(text ? { text } : {}), ...(runner.state ? { state: runner.state } : {}), mirror: config.captainsLog, game: conn });
      if (written) logger.info({ chars: written.length }, 'handoff stored');
    };

    const autoplayWith = (goal: string, signal: AbortSignal, takeOrders?: () => string[]): Promise<AutoplaySummary> =>
      runAutoplay({
        runner,
        goal,
        limits: {
          ...(flags.maxTicks !== undefined ? { maxTicks: flags.maxTicks } : {}),
          ...(flags.maxTurns !== undefined ? { maxTurns: flags.maxTurns } : {}),
          ...(flags.duration !== undefined ? { durationMs: flags.duration } : {}),
          ...(flags.budgetUsd !== undefined ? { budgetUsd: flags.budgetUsd } : {}),
          ...(flags.budgetTokens !== undefined ? { budgetTokens: flags.budgetTokens } : {}),
        },
        signal,
        ...(takeOrders ? { takeOrders } : {}),
        fetchEvents: (eventSignal) => conn.fetchEvents({ signal: eventSignal }),
        ...(game.tickStats ? { tickStats: () => game.tickStats?.(conn.username()) ?? Promise.resolve(undefined) } : {}),
        idleWaitMs: sim ? Math.max(config.tickMs, 50) : 10_000,
        isAction: actionClassifier(tools),
        clock: game.clock,
      });
    const printSummary = (summary: AutoplaySummary): void => {
      if (writeJson) writeJson({ type: 'autoplay-end', ...summaryJson(summary) });
      else for (const line of summaryLines(summary, chalk)) output.line(line);
    };

    let exitCode: number = ExitCode.ok;
    if (autoplay) {
      const controller = new AbortController();
      let interrupts = 0;
      // Ctrl+C is an interruption (130); SIGTERM is a termination (143), as shells report them.
      let interruptCode: number = ExitCode.interrupted;
      const onSignal = (): void => {
        interrupts += 1;
        if (interrupts === 1) {
          if (!json) output.line(chalk.yellow('\n^C stopping autoplay (again to quit at once)…'));
          controller.abort();
        } else {
          fileLogger.flush();
          process.exit(interruptCode);
        }
      };
      const onInterrupt = (): void => onSignal();
      const onTerminate = (): void => {
        interruptCode = ExitCode.terminated;
        onSignal();
      };
      process.on('SIGINT', onInterrupt);
      process.on('SIGTERM', onTerminate);
      try {
        const goal = typeof flags.autoplay === 'string' ? flags.autoplay : '';
        const summary = await autoplayWith(goal, controller.signal);
        output.clearStatus();
        printSummary(summary);
        exitCode = controller.signal.aborted ? interruptCode : ExitCode.ok;
        await endSession(!controller.signal.aborted && !/budget/.test(summary.stopReason));
      } finally {
        process.off('SIGINT', onInterrupt);
        process.off('SIGTERM', onTerminate);
      }
    } else {
      if (!process.stdin.isTTY && json) {
        // --json chat reads lines from stdin like the REPL does.
      }
      exitCode = await runRepl({
        runner,
        output,
        chalk,
        input: process.stdin,
        terminal: process.stdin.isTTY === true && process.stdout.isTTY === true && !json,
        historyFile: join(config.home, 'history'),
        autoplay: (goal, signal, takeOrders) => autoplayWith(goal, signal, takeOrders),
        printSummary,
        switchModel: (id) => {
          provider = makeProvider(modelConfigFor(config, id));
          runner.provider = provider;
          store.updateSession(session.id, { model: provider.id });
        },
        describeModel: () => describeProvider(runner.provider),
        memory: () => memory.show(),
        onSignal: (interrupt, terminate) => {
          const listener = (): void => interrupt();
          process.on('SIGINT', listener);
          const onTerm = (): void => terminate();
          process.on('SIGTERM', onTerm);
          return () => {
            process.off('SIGINT', listener);
            process.off('SIGTERM', onTerm);
          };
        },
      });
      output.clearStatus();
      await endSession(exitCode === ExitCode.ok);
    }
    closeBenchmark?.();
    return exitCode;
  } catch (error) {
    if (error instanceof FatalError) throw error;
    throw error;
  } finally {
    await cleanup();
  }
}

export function registerSessionCommands(program: Command): void {
  const configAt = (home: string | undefined): ResolvedConfig => resolveConfig({ ...(home ? { home } : {}) }, env());
  const openStoreAt = (home: string | undefined, options: { readonly?: boolean } = {}): Store => {
    const config = configAt(home);
    return options.readonly ? openHomeStoreForReading(config.home) : openHomeStore(config.home);
  };
  const secretsAt = (store: Store, home: string | undefined): SecretList => collectSecrets({ ...configSecrets(configAt(home)), store });
  registerStoreCommands(program, { openStore: openStoreAt, secrets: secretsAt });
  registerMemoryCommand(program, { openStore: openStoreAt });
  registerReportCommand(program, { openStore: openStoreAt });
  registerBenchCommand(program, { env });
}

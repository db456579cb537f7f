// Wiring for `skipper fleet FILE`: the fleet file read, the home's store, log and secrets opened once, one game per
// distinct game of the file (embedded captains share one minimolt world), one provider per model endpoint shared by
// the captains that use it (the autopilot: one per captain, it keeps its own picture of the game), the fleet's shared
// knowledge, then the fleet runner; its notices go to the terminal or the --json stream, and a summary ends the run.
import { commandFrom, FLEET } from './commands.js';
import type { ChalkInstance } from 'chalk';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { watchEventLoopDelay } from './event-loop-delay.js';
import { createFileLogger } from './logger.js';
import { ensureHome, openHomeStore } from './home.js';
import { invocation, passwordNote } from './invocation.js';
import { collectSecrets, SecretList } from './secrets.js';
import type { ResolvedConfig } from './config.js';
import { jsonLineWriter, runnerEventToJson, type JsonWriter } from './json-events.js';
import { wantsColor } from './output.js';
import { createChalk } from './render.js';
import { setUpGame } from './game-setup.js';
import {
  fleetOrder,
  fleetProgressLine,
  fleetStatusJson,
  fleetStatusLines,
  fleetSummaryJson,
  fleetSummaryLines,
} from './fleet-status.js';
import {
  FleetBroker,
  FleetKnowledge,
  WorkerLeases,
  FleetRunner,
  fleetKnowledgeBlock,
  readFleetFile,
  type FleetRunnerOptions,
  type CaptainModels,
  type CaptainNotice,
  type CaptainSpec,
  type FleetGame,
  type FleetSpec,
  allAlertRules,
  formatForUrl,
  type Alert,
  type AlertConfig,
  type AlertFormat,
} from '../fleet/index.js';
import { targetLabel } from '../game/index.js';
import { createProvider, resolveModel, type ModelConfig } from '../provider/index.js';
import { currentLeaseHolder, urlCredentials, type FleetCommand, type Store, type StoreHealth } from '../store/index.js';
import { ExitCode, UsageError, type Logger, type Provider, storePlaceOf, type StorePlace } from '../shared/index.js';
import type { RunnerEvent } from '../session/index.js';
import { configSecrets, env } from './config-secrets.js';
import type { Cleanup } from './play-setup.js';
import { configAt, openStoreAt } from './store-at.js';

export interface FleetFlags {
  home?: string;
  /** postgres://… (else SKIPPER_DATABASE_URL, else the home's SQLite file). */
  db?: string;
  /** One worker among others sharing the fleet's captains through PostgreSQL. */
  worker?: boolean;
  maxCaptains?: number;
  json?: boolean;
  logLevel?: string;
  /** Alerts posted here (every rule unless the file's `alerts:` names some). */
  alertWebhook?: string;
  alertFormat?: AlertFormat;
}

interface FleetBase {
  config: ResolvedConfig;
  spec: FleetSpec;
  store: Store;
  logger: Logger;
  /** The one log file, also handed to an embedded minimolt. */
  fileLogger: ReturnType<typeof createFileLogger>;
  secretList: SecretList;
  writeJson: JsonWriter | undefined;
  chalk: ChalkInstance;
}

async function openBase(file: string, flags: FleetFlags, cleanups: Cleanup[]): Promise<FleetBase> {
  const config = configAt(storePlaceOf(flags));
  if (flags.worker && !config.database)
    throw new UsageError(
      '--worker shares captains with other workers through PostgreSQL: give --db postgres://USER@HOST:PORT/DB (or set SKIPPER_DATABASE_URL)',
    );
  const spec = readFleetFile(file, env());
  ensureHome(config.home);
  const secretList = new SecretList();
  for (const captain of spec.captains)
    secretList.add(...urlCredentials(captain.game), ...urlCredentials(captain.baseUrl));
  // A webhook's address is its key (Discord's and Slack's hold a token in the path): never logged nor printed.
  for (const webhook of [flags.alertWebhook, spec.alerts?.webhook]) if (webhook) secretList.add(webhook);
  const fileLogger = createFileLogger({
    home: config.home,
    secrets: secretList,
    ...(flags.logLevel ? { level: flags.logLevel } : {}),
  });
  cleanups.push(() => fileLogger.flush());
  const store = await openHomeStore(config.home, {
    logger: fileLogger.logger,
    redact: (text) => secretList.redact(text),
    ...(config.database ? { database: config.database } : {}),
    // Fifty captains record their rounds around the same moments: their rows share the messages' commits.
    fleet: true,
  });
  cleanups.push(() => store.close());
  await collectSecrets({ ...configSecrets(config), store }, secretList);
  // Every variable the file names holds a secret (passwords, registration codes, API keys).
  for (const captain of spec.captains)
    for (const name of [captain.passwordEnv, captain.registrationCodeEnv, captain.apiKeyEnv])
      if (name && env()[name]) secretList.add(env()[name] as string);
  const color = !flags.json && wantsColor(process.stdout, env());
  return {
    config,
    spec,
    store,
    logger: fileLogger.logger.child({ fleet: spec.name }),
    fileLogger,
    secretList,
    writeJson: flags.json
      ? jsonLineWriter(process.stdout, { redact: (text) => secretList.redact(text), batch: true })
      : undefined,
    chalk: createChalk(color),
  };
}

/** One game per distinct game of the file; the first embedded captain's tick and seed make the shared world. */
function gamesFor(base: FleetBase, cleanups: Cleanup[]): (spec: CaptainSpec) => Promise<FleetGame> {
  const games = new Map<string, Promise<FleetGame>>();
  return (spec) => {
    const known = games.get(spec.game);
    if (known) return known;
    const made = (async (): Promise<FleetGame> => {
      const config: ResolvedConfig = {
        ...base.config,
        game: spec.game,
        tickMs: spec.tickMs ?? base.config.tickMs,
        seed: spec.seed ?? base.config.seed,
      };
      const setup = await setUpGame(config, base.fileLogger);
      if (setup.sim) cleanups.push(() => setup.sim?.close().catch(() => {}));
      return {
        target: setup.target,
        label: targetLabel(setup.target),
        clock: setup.clock,
        ...(setup.sim ? { registrationCode: setup.sim.registrationCode } : {}),
        ...(setup.tickStats ? { tickStats: setup.tickStats } : {}),
      };
    })();
    games.set(spec.game, made);
    return made;
  };
}

/** Remote models: one provider per model and endpoint, shared; the autopilot: one per captain, with the fleet's knowledge. */
function modelsFor(base: FleetBase, knowledge: FleetKnowledge): (spec: CaptainSpec) => CaptainModels {
  const shared = new Map<string, Provider>();
  return (spec) => ({
    model: (modelId) => {
      const config: ModelConfig = resolveModel(
        {
          model: modelId,
          ...((spec.baseUrl ?? base.config.baseUrl) ? { baseUrl: spec.baseUrl ?? base.config.baseUrl } : {}),
          ...((spec.apiKeyEnv ?? base.config.apiKeyEnv) ? { apiKeyEnv: spec.apiKeyEnv ?? base.config.apiKeyEnv } : {}),
          ...(base.config.price ? { price: base.config.price } : {}),
        },
        env(),
      );
      if ('apiKey' in config && config.apiKey) base.secretList.add(config.apiKey);
      const key = JSON.stringify([modelId, spec.baseUrl ?? '', spec.apiKeyEnv ?? '']);
      let provider = shared.get(key);
      if (!provider) {
        provider = createProvider(config, {
          logger: base.logger.child({ module: 'provider' }),
          seed: base.config.seed,
        });
        shared.set(key, provider);
      }
      return provider;
    },
    knowledgeBlock: () => fleetKnowledgeBlock({ knowledge, captain: spec.name }),
    autopilot: () =>
      createProvider(resolveModel({ model: 'builtin/autopilot' }, env()), {
        seed: seedOf(spec.name, base.config.seed),
        username: spec.username ?? spec.name,
        fleet: knowledge.port(spec.name),
        ...(spec.empire ? { empire: spec.empire } : {}),
      }),
  });
}

/** A seed per captain, stable across runs: captains of one fleet do not all make the same choices. */
function seedOf(name: string, seed: number): number {
  let hash = seed >>> 0;
  for (const char of name) hash = (Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0) % 2 ** 31;
  return hash;
}

function noticePrinter(base: FleetBase): (notice: CaptainNotice) => void {
  const { chalk, writeJson } = base;
  const width = Math.max(...base.spec.captains.map((captain) => captain.name.length));
  const paint: Record<CaptainNotice['kind'], (text: string) => string> = {
    captain: chalk.dim,
    ladder: chalk.yellow,
    watchdog: chalk.magenta,
    order: chalk.cyan,
  };
  return (notice) => {
    if (writeJson) {
      writeJson({
        type: 'captain',
        fleet: base.spec.name,
        captain: notice.captain,
        kind: notice.kind,
        text: notice.text,
        ...notice.data,
      });
      return;
    }
    const time = new Date().toTimeString().slice(0, 8);
    process.stdout.write(`${chalk.dim(time)} ${notice.captain.padEnd(width)}  ${paint[notice.kind](notice.text)}\n`);
  };
}

/** The database gone away and back: one line each (JSON: a `store` object), never its URL's password. */
function storeHealthPrinter(base: FleetBase): (health: StoreHealth) => void {
  return (health) => {
    const time = new Date().toTimeString().slice(0, 8);
    if (base.writeJson) {
      base.writeJson({
        type: 'store',
        fleet: base.spec.name,
        state: health.state,
        ...(health.state === 'down' ? { error: health.error } : {}),
      });
      return;
    }
    const line =
      health.state === 'down'
        ? base.chalk.yellow(`store unreachable (${health.error}): captains wait, reconnecting…`)
        : base.chalk.green('store back: captains play on');
    process.stdout.write(`${base.chalk.dim(time)} ${line}\n`);
  };
}

/** The file's `alerts:` with --alert-webhook over its webhook; every rule when only the flag asks for alerts. */
export function alertConfigOf(
  spec: FleetSpec,
  flags: Pick<FleetFlags, 'alertWebhook' | 'alertFormat'>,
): AlertConfig | undefined {
  if (!flags.alertWebhook) return spec.alerts;
  const base: AlertConfig = spec.alerts ?? { rules: allAlertRules(), format: 'json' };
  return { ...base, webhook: flags.alertWebhook, format: flags.alertFormat ?? formatForUrl(flags.alertWebhook) };
}

/** An alert on the terminal: one line (JSON: an `alert` object). */
function alertPrinter(base: FleetBase): (alert: Alert) => void {
  return (alert) => {
    if (base.writeJson) {
      base.writeJson({ ...alert, at: new Date(alert.at).toISOString() });
      return;
    }
    const time = new Date(alert.at).toTimeString().slice(0, 8);
    process.stdout.write(
      `${base.chalk.dim(time)} ${base.chalk.red.bold('ALERT')} ${alert.captain} ${base.chalk.red(`${alert.rule}: ${alert.text}`)} ${base.chalk.dim(alert.link)}\n`,
    );
  };
}

/** --json: each captain's turns, calls and stored messages, in the single session's vocabulary plus `captain`. */
function captainJson(write: JsonWriter): (captain: string, event: RunnerEvent) => void {
  return (captain, event) => {
    const json = runnerEventToJson(event);
    if (json) write({ ...json, captain });
  };
}

function alertOptions(
  base: FleetBase,
  flags: FleetFlags,
): Pick<FleetRunnerOptions, 'alerts' | 'onAlert' | 'onAlertFailure'> {
  const alerts = alertConfigOf(base.spec, flags);
  if (!alerts) return {};
  return {
    alerts,
    onAlert: alertPrinter(base),
    onAlertFailure: (line) => {
      if (base.writeJson)
        base.writeJson({ type: 'alert-webhook', fleet: base.spec.name, state: 'failing', text: line });
      else process.stdout.write(`${base.chalk.yellow(line)}\n`);
    },
  };
}

/** --worker: captains leased through PostgreSQL, at most --max-captains (the broker's share) on this host. */
function workerOptions(base: FleetBase, flags: FleetFlags): Pick<FleetRunnerOptions, 'worker' | 'broker'> {
  const broker =
    flags.maxCaptains !== undefined ? { broker: new FleetBroker({ captainShare: flags.maxCaptains }) } : {};
  if (!flags.worker) return broker;
  const leases = new WorkerLeases(base.store, {
    fleet: base.spec.name,
    holder: currentLeaseHolder(),
    logger: base.logger,
  });
  return { ...broker, worker: { leases } };
}

export async function runFleet(file: string, flags: FleetFlags): Promise<number> {
  const cleanups: Cleanup[] = [];
  const controller = new AbortController();
  let signals = 0;
  const onSignal = (): void => {
    signals += 1;
    if (signals === 1) {
      if (!flags.json) process.stdout.write('\n^C stopping the fleet (again to quit at once)…\n');
      controller.abort();
    } else process.exit(ExitCode.interrupted);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // For the fleet-end event: one loop plays every captain, so how late it ran is how late every captain's calls were.
  const loopDelay = watchEventLoopDelay();
  try {
    const base = await openBase(file, flags, cleanups);
    const knowledge = await FleetKnowledge.open({
      fleet: base.spec.name,
      store: base.store.fleets,
      onStoreError: (error) =>
        base.logger.warn(
          { error: error instanceof Error ? error.message : String(error) },
          'fleet: could not store a view',
        ),
    });
    cleanups.push(() => knowledge.settled());
    const runner = new FleetRunner({
      spec: base.spec,
      store: base.store,
      ...workerOptions(base, flags),
      logger: base.logger,
      game: gamesFor(base, cleanups),
      models: modelsFor(base, knowledge),
      secrets: () => base.secretList.list(),
      env: env(),
      notify: noticePrinter(base),
      onStoreHealth: storeHealthPrinter(base),
      ...alertOptions(base, flags),
      ...(base.writeJson ? { watchCaptain: captainJson(base.writeJson) } : {}),
    });
    if (base.writeJson)
      base.writeJson({ type: 'fleet-start', fleet: base.spec.name, captains: base.spec.captains.map((c) => c.name) });
    else {
      const place = storePlaceOf(flags);
      const note = passwordNote(place);
      process.stdout.write(
        base.chalk.dim(
          `skipper fleet ${base.spec.name} · ${base.spec.captains.length} captains · store ${base.store.path} · watch: ${invocation({ place })} fleet status ${base.spec.name}${note ? ` ${note}` : ''}\n`,
        ),
      );
    }
    // On a terminal, a line every 30 s says how the fleet does (notices say what changed in between).
    const progress = base.writeJson
      ? undefined
      : setInterval(() => {
          const time = new Date().toTimeString().slice(0, 8);
          fleetProgressLine(base.store, base.spec.name).then(
            (line) => process.stdout.write(`${base.chalk.dim(`${time} ${line}`)}\n`),
            () => undefined,
          );
        }, 30_000);
    const summary = await runner.run(controller.signal).finally(() => clearInterval(progress));
    if (base.writeJson)
      base.writeJson({
        type: 'fleet-end',
        ...(await fleetSummaryJson(summary, base.store)),
        event_loop_delay_ms: loopDelay.read(),
      });
    else for (const line of await fleetSummaryLines(summary, base.store, base.chalk)) process.stdout.write(`${line}\n`);
    if (controller.signal.aborted) return ExitCode.interrupted;
    // Honest outcome: a captain that failed (it could not log in, its turns kept failing) is a failed run, summary shown.
    return summary.captains.some((captain) => captain.state === 'failed') ? ExitCode.failure : ExitCode.ok;
  } finally {
    loopDelay.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

const FLEET_HELP = `
A fleet file (YAML or JSON) lists captains; each field is a play flag's long name in snake_case, a captain's fields
over \`defaults:\`:

  name: miners                  # the fleet's name (default: the file's name)
  budget_usd: 5                 # daily USD cap for the whole fleet
  defaults:
    game: embedded              # or a game URL (every embedded captain shares one minimolt world)
    model: builtin/autopilot
    max_ticks: 500
  captains:
    - name: ada
    - name: bob
      model: openai/gpt-4o-mini
      fallback_model: openai/gpt-4.1-nano
      budget_usd: 1             # its ladder: model → fallback → planner → autopilot → parked
      goal: get rich trading
    - name: cyd
      game: https://game.spacemolt.com/mcp
      username: CydTheMiner
      password_env: CYD_PASSWORD # never the password itself

Examples:
  $ skipper fleet fleet.yaml              play every captain in this process (Ctrl+C stops them all)
  $ skipper fleet status                  one line per captain of every fleet in this home
  $ skipper fleet park bob                park one captain (resume with: skipper fleet resume bob)
  $ skipper fleet order ada "sell your ore at the nearest station"
  $ skipper -s ada                        resume one captain's session alone (when its fleet is not running)
  $ skipper fleet fleet.yaml --alert-webhook https://discord.com/api/webhooks/ID/TOKEN

Alerts (each once per captain until its condition clears, to the terminal, \`skipper web\` and a webhook):

  alerts:
    webhook: https://hooks.slack.com/services/…   # format guessed from the host; or format: json|discord|slack
    page: http://127.0.0.1:8080/                  # skipper web's address: links in alerts become absolute
    rules:                                        # all of them (with these thresholds) when rules: is absent
      stalled: { ticks: 30 }                      # no game action for 30 ticks
      parked: true                                # by the watchdog, the governor or an order
      error_streak: { turns: 3, captains: [bob] } # 3 failed turns in a row, for bob only
      budget_step: true                           # the governor's ladder moved
      attacked: true
      spoken_to: true                             # someone's words in the game name the captain
      done: false
`;

export function registerFleetCommands(program: Command): void {
  const homeOption = (): Option =>
    new Option('--home <dir>', 'data directory (default $SKIPPER_HOME or ~/.local/share/skipper)');
  const fleet = commandFrom(program, FLEET)
    .argument('[file]', 'the fleet file')
    .addOption(homeOption())
    .option('--db <url>', 'the store on PostgreSQL (postgres://USER@HOST:PORT/DB; default $SKIPPER_DATABASE_URL)')
    .option('--worker', 'one worker among several (any hosts) sharing the fleet through --db: captains are leased')
    .addOption(
      new Option('--max-captains <n>', "captains this host plays at most: its broker's share (default 50)").argParser(
        positiveWhole,
      ),
    )
    .option(
      '--json',
      'one JSON object per line: fleet-start, captain notices, fleet-end (with how late the event loop ran: event_loop_delay_ms)',
    )
    .option('--log-level <level>', 'log file level: debug, info, warn, error')
    .addOption(
      new Option(
        '--alert-webhook <url>',
        "post alerts (stalled, parked, error streak, budget step, attacked, spoken to, done) to this URL; every rule unless the file's alerts: names some",
      ).argParser(webhookUrl),
    )
    .addOption(
      new Option('--alert-format <format>', "the webhook's format (default: guessed from its host, else json)").choices(
        ['json', 'discord', 'slack'],
      ),
    )
    .addHelpText('after', FLEET_HELP)
    .action(async (file: string | undefined, options: FleetFlags) => {
      if (!file) {
        fleet.outputHelp();
        process.exitCode = ExitCode.usage;
        return;
      }
      process.exitCode = await runFleet(file, options);
    });
  // A subcommand's own --home and --db, else those given to `fleet` before it (`fleet --db URL status`).
  const placeFor = (own: StorePlace): StorePlace => ({
    ...storePlaceOf(fleet.opts<FleetFlags>()),
    ...storePlaceOf(own),
  });
  const storeAt = (place: StorePlace): Promise<Store> => openStoreAt(place, { existing: true });
  fleet
    .command('status')
    .description('one line per captain: state, place, credits, net worth, cost today, ladder step, watchdog state')
    .argument('[fleet]', 'one fleet (default: every fleet in this home)')
    .addOption(homeOption())
    .option('--json', 'one JSON object per captain')
    .option('--db <url>', "the fleet's PostgreSQL store (default $SKIPPER_DATABASE_URL): every worker's captains")
    .action(async (name: string | undefined, options: StorePlace & { json?: boolean }) => {
      const place = placeFor(options);
      const store = await storeAt(place);
      try {
        const view = { ...(name ? { fleet: name } : {}), place };
        const lines = options.json
          ? (await fleetStatusJson(store, view)).map((row) => JSON.stringify(row))
          : await fleetStatusLines(store, view);
        for (const line of lines) process.stdout.write(`${line}\n`);
      } finally {
        await store.close();
      }
    });
  registerOrderCommands(fleet, { storeAt, placeFor, homeOption });
}

interface OrderCommandDeps {
  storeAt: (place: StorePlace) => Promise<Store>;
  placeFor: (own: StorePlace) => StorePlace;
  homeOption: () => Option;
}

const orderDbOption = (): Option =>
  new Option('--db <url>', "the fleet's PostgreSQL store (default $SKIPPER_DATABASE_URL, else SQLite in the home)");

/** `fleet stop|park|resume CAPTAIN` and `fleet order CAPTAIN TEXT`: orders for a running fleet (or its stored rows). */
function registerOrderCommands(fleet: Command, deps: OrderCommandDeps): void {
  const { storeAt, placeFor, homeOption } = deps;
  const orders: Array<{ command: FleetCommand; description: string }> = [
    {
      command: 'stop',
      description: 'stop one captain for this run of its fleet (it plays again when the fleet starts again)',
    },
    { command: 'park', description: 'park one captain: it plays nothing (its game session kept alive) until resumed' },
    { command: 'resume', description: 'resume a parked (or stopped) captain' },
  ];
  for (const order of orders) {
    fleet
      .command(order.command)
      .description(order.description)
      .argument('<captain>', 'the captain, by name')
      .option('--fleet <name>', 'the fleet (when several have a captain of that name)')
      .addOption(homeOption())
      .addOption(orderDbOption())
      .action(async (captain: string, options: StorePlace & { fleet?: string }) => {
        const place = placeFor(options);
        const store = await storeAt(place);
        try {
          process.stdout.write(
            `${await fleetOrder(store, { captain, command: order.command, place, ...(options.fleet ? { fleet: options.fleet } : {}) })}\n`,
          );
        } finally {
          await store.close();
        }
      });
  }
  fleet
    .command('order')
    .description("give one captain of a running fleet an order: a line handed to its next turn (as chat's lines are)")
    .argument('<captain>', 'the captain, by name')
    .argument('<text...>', 'the order')
    .option('--fleet <name>', 'the fleet (when several have a captain of that name)')
    .addOption(homeOption())
    .addOption(orderDbOption())
    .action(async (captain: string, text: string[], options: StorePlace & { fleet?: string }) => {
      const place = placeFor(options);
      const store = await storeAt(place);
      try {
        process.stdout.write(
          `${await fleetOrder(store, { captain, command: 'order', text: text.join(' '), place, ...(options.fleet ? { fleet: options.fleet } : {}) })}\n`,
        );
      } finally {
        await store.close();
      }
    });
}

function webhookUrl(value: string): string {
  try {
    if (['http:', 'https:'].includes(new URL(value).protocol)) return value;
  } catch {
    // said below
  }
  throw new InvalidArgumentError('an http(s) URL, like https://discord.com/api/webhooks/ID/TOKEN');
}

function positiveWhole(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('a whole number of captains, 1 or more');
  return number;
}

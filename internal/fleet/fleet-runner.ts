// The fleet runner: every captain of a fleet file played in this process, each a full session (captain.ts), sharing
// one store, one broker for the machine's game limits, one budget governor, the fleet's knowledge and one log. It
// leases its captains from the store (each session's lease, rule 19), so a second runner cannot play them beside it;
// one process holds them all today, and the same leases let a later step spread them over machines. A periodic look
// (twice a second) hands out the orders people gave (`skipper fleet park NAME`, the web page), lets each watchdog
// act, rolls the budgets over at midnight UTC and writes the broker's IP health.
import { defaultMaxListeners, setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { processExists, type FleetCaptainRecord, type Store, type StoreHealth } from '../store/index.js';
import { UsageError, type Logger } from '../shared/index.js';
import { isStoreUnavailable, type RunnerEvent, type TurnSummary } from '../session/index.js';
import { FleetBroker } from './broker.js';
import { WorkerLoop, type FleetWorkerOptions } from './fleet-worker.js';
import { FleetCaptain, type CaptainModels, type CaptainNotice, type CaptainResult } from './captain.js';
import type { CaptainLease, FleetGame } from './captain-session.js';
import { BudgetGovernor, type GovernorCaptain } from './governor.js';
import type { CaptainSpec, FleetSpec, LadderChange } from './types.js';
import type { Watchdog } from './watchdog.js';
import { AlertEngine, type Alert, type AlertConfig, type AlertFact } from './alerts.js';
import { AlertWebhook } from './alert-webhook.js';

/** Waits one captain may have on the fleet's signal at once (a few in practice; room to spare). */
const LISTENERS_PER_CAPTAIN = 8;

export interface FleetRunnerOptions {
  spec: FleetSpec;
  store: Store;
  logger: Logger;
  /** The game a captain plays (the caller shares one per distinct game: embedded captains share one world). */
  game: (spec: CaptainSpec) => Promise<FleetGame>;
  /** The providers a captain may use. */
  models: (spec: CaptainSpec) => CaptainModels;
  /** Whether the built-in autopilot can fly a captain's game (the ladder's autopilot step needs it). */
  canAutopilot?: (spec: CaptainSpec) => boolean;
  secrets: () => string[];
  env: Record<string, string | undefined>;
  broker?: FleetBroker;
  watchdog?: Partial<ConstructorParameters<typeof Watchdog>[0]>;
  /** Every runner event of every captain (the --json stream). */
  watchCaptain?: (captain: string, event: RunnerEvent) => void;
  /** Every notice (captain started, ladder and watchdog steps, orders), also stored as fleet events. */
  notify?: (notice: CaptainNotice) => void;
  inspectEveryMs?: number;
  now?: () => number;
  /** A worker among others (PostgreSQL store): captains leased one by one up to this host's share, not all played here. */
  worker?: FleetWorkerOptions;
  /** Told when the database goes away and when it is back (the terminal says so in one line each). */
  onStoreHealth?: (health: StoreHealth) => void;
  /** The alerts to raise (default: the fleet file's `alerts:` block; none without one). */
  alerts?: AlertConfig;
  /** Every alert raised (the terminal's line, the --json stream); it is also stored and posted to the webhook. */
  onAlert?: (alert: Alert) => void;
  /** Told once when the alert webhook starts failing. */
  onAlertFailure?: (line: string) => void;
  /** The webhook's fetch (tests). */
  fetch?: typeof fetch;
}

export interface FleetSummary {
  fleet: string;
  captains: CaptainResult[];
  wallMs: number;
  health: ReturnType<FleetBroker['health']>;
  costUsd: number;
}

/** Midnight UTC of the day `now` falls in (epoch ms): a captain's spend "today" counts from there. */
export function startOfUtcDay(now: number): number {
  const day = new Date(now);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
}

export class FleetRunner {
  readonly broker: FleetBroker;
  readonly governor: BudgetGovernor;
  private readonly captains = new Map<string, FleetCaptain>();
  private readonly now: () => number;
  private readonly alerts: AlertEngine | undefined;
  private readonly webhook: AlertWebhook | undefined;

  constructor(private readonly options: FleetRunnerOptions) {
    this.now = options.now ?? Date.now;
    this.broker = options.broker ?? new FleetBroker();
    const alerts = options.alerts ?? options.spec.alerts;
    if (alerts) {
      this.alerts = new AlertEngine({ fleet: options.spec.name, config: alerts, now: this.now });
      if (alerts.webhook)
        this.webhook = new AlertWebhook({
          url: alerts.webhook,
          format: alerts.format,
          logger: options.logger,
          ...(options.onAlertFailure ? { onFailure: options.onAlertFailure } : {}),
          ...(options.fetch ? { fetch: options.fetch } : {}),
        });
    }
    const canAutopilot = options.canAutopilot ?? (() => true);
    this.governor = new BudgetGovernor({
      captains: options.spec.captains.map((spec): GovernorCaptain => ({
        name: spec.name,
        ...(spec.budgetUsd !== undefined ? { budgetUsd: spec.budgetUsd } : {}),
        hasFallback: spec.fallbackModel !== undefined,
        canPlan: canAutopilot(spec) && !spec.model.startsWith('builtin/'),
        canAutopilot: canAutopilot(spec),
        isBuiltin: spec.model.startsWith('builtin/'),
      })),
      ...(options.spec.budgetUsd !== undefined ? { fleetBudgetUsd: options.spec.budgetUsd } : {}),
      now: this.now,
    });
  }

  /** Refuses a fleet another live process on this host runs (its captains' leases would refuse them one by one). */
  private async claimFleet(): Promise<void> {
    const { spec, store } = this.options;
    const row = await store.fleets.getFleet(spec.name);
    if (
      row?.state === 'running' &&
      row.pid !== null &&
      row.pid !== process.pid &&
      row.host === hostname() &&
      processExists(row.pid)
    )
      throw new UsageError(
        `fleet ${spec.name} is already running (pid ${row.pid}); watch it with \`skipper fleet status ${spec.name}\` or stop that process first`,
      );
    await store.fleets.startFleet({ name: spec.name, file: spec.file, pid: process.pid, host: hostname() });
  }

  /** Fleet events, written one after another in the order they happened; a failure is logged, the fleet goes on. */
  private events: Promise<void> = Promise.resolve();

  private notify(notice: CaptainNotice): void {
    const { spec, store, logger } = this.options;
    const event = {
      fleet: spec.name,
      captain: notice.captain,
      kind: notice.kind,
      text: notice.text,
      ...(notice.data ? { data: notice.data } : {}),
    };
    this.events = this.events
      .then(async () => {
        await store.fleets.addEvent(event);
      })
      .catch((error: unknown) => this.storeWarning('could not store a fleet event', error));
    // The logger is the fleet's child already: it says `fleet` once.
    logger.info({ captain: notice.captain, kind: notice.kind, ...notice.data }, notice.text);
    this.options.notify?.(notice);
    const data = notice.data as { from?: LadderChange['from']; to?: LadderChange['to'] } | undefined;
    if (notice.kind === 'ladder' && data?.from && data.to)
      this.observe({ type: 'ladder', captain: notice.captain, from: data.from, to: data.to, reason: notice.text });
  }

  /** A fact for the alert rules; each alert it raises is stored (a fleet event), logged, shown and posted. */
  private observe(fact: AlertFact): void {
    if (!this.alerts) return;
    for (const alert of this.alerts.observe(fact)) this.raise(alert);
  }

  private raise(alert: Alert): void {
    const { store, logger } = this.options;
    this.events = this.events
      .then(async () => {
        await store.fleets.addEvent({
          fleet: alert.fleet,
          captain: alert.captain,
          kind: 'alert',
          text: alert.text,
          data: { rule: alert.rule, link: alert.link, ...(alert.turn !== undefined ? { turn: alert.turn } : {}) },
        });
      })
      .catch((error: unknown) => this.storeWarning('could not store an alert', error));
    logger.info({ captain: alert.captain, rule: alert.rule, link: alert.link }, `alert: ${alert.text}`);
    this.options.onAlert?.(alert);
    this.webhook?.send(alert);
  }

  /** What a captain's runner says that the alert rules read: its turns and the game's events. */
  private watchFor(spec: CaptainSpec): ((event: RunnerEvent) => void) | undefined {
    const outer = this.options.watchCaptain;
    if (!this.alerts) return outer ? (event) => outer(spec.name, event) : undefined;
    const names = [spec.name, ...(spec.username && spec.username !== spec.name ? [spec.username] : [])];
    return (event) => {
      outer?.(spec.name, event);
      if (event.type === 'turn-start') this.observe({ type: 'turn-start', captain: spec.name, turn: event.turn });
      else if (event.type === 'turn-end')
        this.observe({
          type: 'turn-end',
          captain: spec.name,
          turn: event.summary.turn,
          failed: turnFailed(event.summary),
        });
      else if (event.type === 'game-events')
        this.observe({ type: 'game-events', captain: spec.name, events: event.events.events, names });
    };
  }

  private storeWarning(what: string, error: unknown): void {
    const line = { error: error instanceof Error ? error.message : String(error) };
    // The database away is said once, when it goes and when it is back (watchStore), not by every write it refused.
    if (isStoreUnavailable(error)) this.options.logger.debug(line, `fleet: ${what}`);
    else this.options.logger.warn(line, `fleet: ${what}`);
  }

  /** One line when the database goes away and one when it is back; captains wait meanwhile (autoplay's store). */
  private watchStore(): () => void {
    const { store, logger } = this.options;
    return store.onHealth((health) => {
      if (health.state === 'down')
        logger.warn({ error: health.error }, 'fleet: the store is unreachable; captains wait');
      else logger.info({}, 'fleet: the store is back; captains play on');
      this.options.onStoreHealth?.(health);
    });
  }

  private async makeCaptain(
    spec: CaptainSpec,
    game: FleetGame,
    previous: FleetCaptainRecord | undefined,
    lease?: CaptainLease,
  ): Promise<FleetCaptain> {
    const { store, logger } = this.options;
    const fleet = this.options.spec.name;
    const watch = this.watchFor(spec);
    await store.fleets.upsertCaptain(fleet, spec.name, { sessionName: spec.session, model: spec.model });
    const dayStart = startOfUtcDay(this.now());
    const spent = await store.fleets.sessionCostSince(spec.session, dayStart);
    // A captain parked (or finished) before this process was already said then: its state as stored is where its
    // alert episode stands, so a restart does not alert `parked` again (issue 49: each alert once).
    if (previous) this.alerts?.restore(spec.name, previous.state);
    const restored = this.governor.restore(spec.name, {
      costToday: spent,
      costDay: new Date(dayStart).toISOString().slice(0, 10),
    });
    const captain = new FleetCaptain({
      fleet,
      spec,
      store,
      game,
      broker: this.broker,
      governor: this.governor,
      models: this.options.models(spec),
      logger,
      secrets: this.options.secrets,
      env: this.options.env,
      notify: (notice) => this.notify(notice),
      ...(watch ? { watch } : {}),
      onState: (state, note) =>
        this.observe({ type: 'state', captain: spec.name, state, ...(note !== undefined ? { note } : {}) }),
      canAutopilot: (this.options.canAutopilot ?? (() => true))(spec),
      ...(previous ? { previous } : {}),
      ...(this.options.watchdog ? { watchdogOptions: this.options.watchdog } : {}),
      now: this.now,
      ...(lease ? { lease } : {}),
    });
    if (restored) captain.onLadder(restored);
    return captain;
  }

  /** Hands out orders, lets the watchdogs act, rolls budgets over; writes the IP health every few looks. */
  private async look(round: number): Promise<void> {
    const { spec, store } = this.options;
    for (const order of await store.fleets.takeOrders(spec.name)) {
      const captain = this.captains.get(order.captain);
      if (captain && this.playing(order.captain)) captain.onOrder(order);
      else if (this.options.worker && spec.captains.some((known) => known.name === order.captain))
        // Another worker plays it: the order goes back for that worker's next look.
        await store.fleets.addOrder({
          fleet: spec.name,
          captain: order.captain,
          command: order.command,
          ...(order.text ? { text: order.text } : {}),
        });
      else this.options.logger.warn({ order }, 'fleet order for a captain not in this fleet');
    }
    for (const change of this.governor.rollover()) this.ladder(change);
    for (const captain of this.captains.values()) {
      captain.inspect();
      this.observe({ type: 'progress', captain: captain.name, ...captain.progress() });
    }
    if (round % 10 === 0) await store.fleets.setHealth(spec.name, { ...this.broker.health() });
  }

  /** Whether this process plays the captain now (a worker holds only its leased ones). */
  private playing(name: string): boolean {
    return this.options.worker === undefined || this.options.worker.leases.heldCaptains().has(name);
  }

  private ladder(change: LadderChange): void {
    this.captains.get(change.captain)?.onLadder(change);
  }

  async run(signal: AbortSignal): Promise<FleetSummary> {
    // Every captain waits on the fleet's signal, several times at once (its staggered start, the broker's pacing,
    // its own loop): Node's leak warning at 11 listeners would fire for any fleet of more than a few captains.
    setMaxListeners(Math.max(defaultMaxListeners, LISTENERS_PER_CAPTAIN * this.options.spec.captains.length), signal);
    const unwatch = this.watchStore();
    try {
      return this.options.worker ? await this.runWorker(signal, this.options.worker) : await this.runHere(signal);
    } finally {
      unwatch();
    }
  }

  /** Every captain of the fleet, played in this process. */
  private async runHere(signal: AbortSignal): Promise<FleetSummary> {
    const { spec, store } = this.options;
    const started = this.now();
    await this.claimFleet();
    const previous = new Map((await store.fleets.captains(spec.name)).map((row) => [row.name, row]));
    for (const captainSpec of spec.captains) {
      const game = await this.options.game(captainSpec);
      this.captains.set(captainSpec.name, await this.makeCaptain(captainSpec, game, previous.get(captainSpec.name)));
    }
    // Restored one by one, the captains' spend adds up to the fleet's only now: a fleet cap may move them all.
    for (const change of this.governor.reviewAll()) this.ladder(change);
    const stopLooking = this.startLooking();
    try {
      const results = await Promise.all([...this.captains.values()].map((captain) => captain.run(signal)));
      return this.summary(results, started);
    } finally {
      await stopLooking();
      await this.events;
      await this.webhook?.settled();
      await store.fleets
        .stopFleet(spec.name)
        .catch((error: unknown) => this.storeWarning('could not mark the fleet stopped', error));
    }
  }

  /**
   * A worker: joins the fleet's workers, takes free captains up to its share and plays each as `run` does. The first
   * worker of a run marks the fleet started; the last one out does not stop it (others may still play).
   */
  private async runWorker(signal: AbortSignal, worker: FleetWorkerOptions): Promise<FleetSummary> {
    const { spec, store } = this.options;
    const started = this.now();
    await worker.leases.join();
    const row = await store.fleets.getFleet(spec.name);
    if (!row || (await worker.leases.liveWorkers()) === 1)
      await store.fleets.startFleet({ name: spec.name, file: spec.file, pid: process.pid, host: hostname() });
    const runStartedAt = (await store.fleets.getFleet(spec.name))?.startedAt ?? started;
    const loop = new WorkerLoop({
      ...worker,
      spec,
      store,
      brokerShare: this.broker.captainShare,
      logger: this.options.logger,
      runStartedAt,
      play: (captainSpec, captainSignal, lease) => this.playLeased(captainSpec, captainSignal, lease),
    });
    const stopLooking = this.startLooking();
    try {
      return this.summary(await loop.run(signal), started);
    } finally {
      await stopLooking();
      await this.events;
      await this.webhook?.settled();
      await worker.leases.leave();
    }
  }

  /** One leased captain, its row read now (another worker may have played it until a moment ago). */
  private async playLeased(captainSpec: CaptainSpec, signal: AbortSignal, lease: CaptainLease): Promise<CaptainResult> {
    const { spec, store } = this.options;
    try {
      const game = await this.options.game(captainSpec);
      const previous = await store.fleets.captain(spec.name, captainSpec.name);
      const captain = await this.makeCaptain(captainSpec, game, previous, lease);
      this.captains.set(captainSpec.name, captain);
      for (const change of this.governor.reviewAll()) this.ladder(change);
      return await captain.run(signal);
    } catch (error) {
      // A lease lost (another worker took the captain over) or a store that went away: this worker stops playing it.
      const note = error instanceof Error ? error.message : String(error);
      this.options.logger.warn({ captain: captainSpec.name, error: note }, 'fleet worker: captain ended');
      return { name: captainSpec.name, state: 'failed', note, turns: 0, actions: 0, ticks: 0, costUsd: 0 };
    } finally {
      this.captains.delete(captainSpec.name);
    }
  }

  private summary(results: CaptainResult[], started: number): FleetSummary {
    return {
      fleet: this.options.spec.name,
      captains: results,
      wallMs: this.now() - started,
      health: this.broker.health(),
      costUsd: this.governor.fleetSpentToday(),
    };
  }

  /** The periodic look (orders, watchdogs, budgets, IP health), one at a time (the next is timed from the end of the
   * last: a slow database never piles looks up); returns its stop, which writes the health once more. */
  private startLooking(): () => Promise<void> {
    const { spec, store } = this.options;
    const everyMs = this.options.inspectEveryMs ?? 500;
    let round = 0;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let looking: Promise<void> = Promise.resolve();
    const lookNow = (): void => {
      looking = this.look(round)
        .catch((error: unknown) => this.storeWarning('periodic look failed', error))
        .finally(() => {
          round += 1;
          if (!stopped) timer = setTimeout(lookNow, everyMs);
        });
    };
    lookNow();
    return async () => {
      stopped = true;
      clearTimeout(timer);
      await looking;
      await store.fleets
        .setHealth(spec.name, { ...this.broker.health() })
        .catch((error: unknown) => this.storeWarning('last health write failed', error));
    };
  }
}

/** A turn that failed outright, or whose every game call failed: what the error-streak rule counts. */
function turnFailed(summary: TurnSummary): boolean {
  return summary.outcome === 'failed' || (summary.toolCalls > 0 && summary.failedToolCalls === summary.toolCalls);
}

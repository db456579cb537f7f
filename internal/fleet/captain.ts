// One captain of a running fleet: a full Skipper session (captain-session.ts) played in stretches of autoplay. A
// stretch runs with the captain's mode of the moment — its model, its fallback model, planner mode or the autopilot,
// as the budget ladder and the watchdog decide — and ends when a limit is reached, when the mode must change (the
// running turn is aborted, as Ctrl+C would), or when a person parks or stops the captain. Parked, it plays nothing and
// only renews its game session before the server drops it.
import {
  isStoreUnavailable,
  actionClassifier,
  runAutoplay,
  storedFigures,
  stopReasonText,
  SPACEMOLT_TICK_MS,
  type AutoplayLimits,
  type AutoplaySummary,
  type Captain,
  type RunnerEvent,
  type StopReason,
  type StoredFigures,
} from '../session/index.js';
import type { CaptainState, FleetCaptainRecord, FleetOrder, Store } from '../store/index.js';
import { AbortedError, isBuiltinProvider, type Logger, type Provider } from '../shared/index.js';
import type { FleetBroker } from './broker.js';
import { openFleetCaptain, type CaptainLease, type FleetGame } from './captain-session.js';
import { CaptainStatus } from './captain-status.js';
import type { BudgetGovernor } from './governor.js';
import type { CaptainSpec, LadderChange, LadderStep, WatchdogAction, WatchdogStep } from './types.js';
import { Watchdog } from './watchdog.js';
import { parkedPause } from './parked-pause.js';

/** How often a parked captain looks at the game's tick and its limits (its session is renewed far less often). */
const PARKED_LOOK_MS = 1000;

/** How a captain's providers are made: remote models shared per endpoint by the fleet, the autopilot its own. */
export interface CaptainModels {
  model: (modelId: string) => Provider;
  autopilot: () => Provider;
  /** What the fleet-mates learned, as a block of the model's system prompt (a model captain's only). */
  knowledgeBlock?: () => string | undefined;
}

/** A line for the fleet's log, terminal and --json stream. */
export interface CaptainNotice {
  captain: string;
  kind: 'captain' | 'ladder' | 'watchdog' | 'order';
  text: string;
  data?: Record<string, unknown>;
}

export interface FleetCaptainOptions {
  fleet: string;
  spec: CaptainSpec;
  store: Store;
  game: FleetGame;
  broker: FleetBroker;
  governor: BudgetGovernor;
  models: CaptainModels;
  logger: Logger;
  secrets: () => string[];
  env: Record<string, string | undefined>;
  notify: (notice: CaptainNotice) => void;
  /** The built-in autopilot can fly this captain's game (the watchdog's autopilot step needs it). */
  canAutopilot?: boolean;
  /** Every event of the captain's runner (the fleet's --json stream carries them with the captain's name). */
  watch?: (event: RunnerEvent) => void;
  /** The row as the last run left it (ladder, watchdog, parked), when there was one. */
  previous?: FleetCaptainRecord;
  watchdogOptions?: Partial<ConstructorParameters<typeof Watchdog>[0]>;
  now?: () => number;
  /** A fleet worker's lease on the captain: lost, the captain stops at once and writes nothing more. */
  lease?: CaptainLease;
  /** Each change of the captain's state, with why when it is known (who parked it, what finished it): alerts. */
  onState?: (state: CaptainState, note: string | undefined) => void;
}

export interface CaptainResult {
  name: string;
  state: CaptainState;
  note?: string;
  turns: number;
  actions: number;
  ticks: number;
  costUsd: number;
  /** Busy ticks ÷ ticks alive of its last stretch, as the game counts them (when it says). */
  tickUtilisation?: number;
}

type Halt = 'switch' | 'park' | 'stop';

export class FleetCaptain {
  readonly name: string;
  state: CaptainState = 'starting';
  private captain: Captain | undefined;
  private status: CaptainStatus | undefined;
  private watchdog: Watchdog | undefined;
  private autopilotProvider: Provider | undefined;
  private forcedAutopilot = false;
  private readonly orders: string[] = [];
  private stretch: AbortController | undefined;
  private halt: Halt | undefined;
  private wake: (() => void) | undefined;
  private readonly totals = { turns: 0, ticks: 0 };
  private utilisation: number | undefined;
  /** The turn this fleet run's first stretch started after, and the session: where its stored figures begin. */
  private span: { sessionId: string; fromTurn: number } | undefined;
  /** This run's figures as the store holds them (storedFigures, as `report` reads them), read when the run ends. */
  private stored: StoredFigures | undefined;
  private startedAt = 0;
  private note: string | undefined;
  /** Row writes made outside the status (before it exists, at the end), one after another. */
  private rowWrites: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  constructor(private readonly options: FleetCaptainOptions) {
    this.name = options.spec.name;
    this.now = options.now ?? Date.now;
  }

  /** The game's tick as known (0 before the clock has read one). */
  private tick(): number {
    return this.options.game.clock.now() ?? 0;
  }

  get ladder(): LadderStep {
    return this.options.governor.step(this.name);
  }

  /** The game's tick and the captain's game actions so far, for the fleet's periodic look (alerts). */
  progress(): { tick: number; actions: number; state: CaptainState } {
    return { tick: this.tick(), actions: this.status?.actions ?? 0, state: this.state };
  }

  get watchdogStep(): WatchdogStep {
    return this.watchdog?.step ?? 'ok';
  }

  /** Plays until a limit, a stop order or the fleet's end (`signal`); never throws for the captain's own failures. */
  async run(fleetSignal: AbortSignal): Promise<CaptainResult> {
    const { store, fleet, spec } = this.options;
    this.setState(this.options.previous?.state === 'parked' ? 'parked' : 'starting');
    // Until the session is open only the worker's lease (if any) can be lost; from then on the session's too.
    let signal = this.options.lease ? AbortSignal.any([fleetSignal, this.options.lease.lost]) : fleetSignal;
    try {
      await this.options.broker.admitStart(signal);
      await this.open(signal);
      if (this.captain) signal = AbortSignal.any([signal, this.captain.lost]);
      await this.loop(signal);
    } catch (error) {
      if (!(error instanceof AbortedError) && !signal.aborted) {
        this.note = error instanceof Error ? error.message : String(error);
        this.setState('failed');
        this.options.logger.warn({ captain: spec.name, error: this.note }, 'fleet captain failed');
        this.options.notify({ captain: this.name, kind: 'captain', text: `failed: ${this.note}` });
      }
    } finally {
      if (!this.held()) this.note = 'taken over by another worker: this one stopped playing it';
      this.status?.flush(true);
      await this.captain?.close();
      if (this.state === 'playing' || this.state === 'starting') this.setState('stopped');
      this.writeRow(async () => {
        await store.fleets.upsertCaptain(fleet, spec.name, { note: this.note ?? null });
      });
      await this.status?.settled();
      await this.rowWrites;
      this.stored = await this.storedSpan();
    }
    return this.result();
  }

  /** The figures of this run's span from the store; undefined when nothing was played or the store is away (the
   * result then says the captain's own counts). */
  private async storedSpan(): Promise<StoredFigures | undefined> {
    if (!this.span) return undefined;
    try {
      return await storedFigures(this.options.store, this.span.sessionId, { fromTurn: this.span.fromTurn });
    } catch (error) {
      this.storeError(error);
      return undefined;
    }
  }

  /** Whether this process still holds the captain (no lease of it was taken over). */
  private held(): boolean {
    return this.captain?.lost.aborted !== true && this.options.lease?.lost.aborted !== true;
  }

  /** A row write outside the status's own, in order, never once the captain is held elsewhere; a failure is logged. */
  private writeRow(write: () => Promise<void>): void {
    this.rowWrites = this.rowWrites
      .then(() => (this.held() ? write() : undefined))
      .catch((error: unknown) => this.storeError(error));
  }

  private storeError(error: unknown): void {
    // The database away is said once by the fleet (watchStore); the row is written again with the next flush.
    if (isStoreUnavailable(error)) return;
    this.options.logger.warn(
      { captain: this.name, error: error instanceof Error ? error.message : String(error) },
      'fleet captain: could not write its row',
    );
  }

  /**
   * What the fleet summary says of the captain: the stored figures of its run when they could be read — the same
   * turns, ticks, actions and busy share `report` and the web card show, parked stretches and resumes included
   * (issue 48) — else its own counts.
   */
  private result(): CaptainResult {
    const stored = this.stored;
    const utilisation = stored ? stored.utilisation?.value : this.utilisation;
    return {
      name: this.name,
      state: this.state,
      ...(this.note ? { note: this.note } : {}),
      turns: stored?.turns ?? this.totals.turns,
      actions: stored
        ? this.span?.fromTurn === 0
          ? stored.actions
          : stored.actionsInSpan
        : (this.status?.actions ?? 0),
      ticks: stored?.figures.ticks ?? this.totals.ticks,
      costUsd: this.options.governor.spentToday(this.name),
      ...(utilisation !== undefined && utilisation !== null ? { tickUtilisation: utilisation } : {}),
    };
  }

  private async open(signal: AbortSignal): Promise<void> {
    const { spec, store, fleet } = this.options;
    const captain = await openFleetCaptain({
      spec,
      store,
      game: this.options.game,
      broker: this.options.broker,
      provider: this.providerFor(this.mode()),
      flier: () => this.providerFor({ modelId: 'builtin/autopilot' }),
      logger: this.options.logger,
      secrets: this.options.secrets,
      env: this.options.env,
      signal,
      onWait: (text) => this.options.notify({ captain: this.name, kind: 'captain', text }),
      onStoreError: (error) => this.storeError(error),
      ...(this.options.models.knowledgeBlock ? { knowledgeBlock: this.options.models.knowledgeBlock } : {}),
      ...(this.options.lease ? { captainLease: this.options.lease } : {}),
    });
    this.captain = captain;
    const { runner, tools } = captain;
    const clock = this.options.game.clock;
    this.watchdog = new Watchdog(
      {
        canReplan: this.plannerWanted(),
        canAutopilot: this.options.canAutopilot !== false,
        isAutopilot: () => isBuiltinProvider(runner.player),
        ...wallTimeFloors(clock.tickMs),
        ...this.options.watchdogOptions,
      },
      { tick: this.tick(), at: this.now() },
    );
    if (this.options.previous && this.options.previous.watchdog !== 'ok') {
      this.watchdog.restore(this.options.previous.watchdog);
      if (this.options.previous.watchdog === 'autopilot') this.forcedAutopilot = true;
    }
    this.status = new CaptainStatus({
      fleet,
      captain: spec.name,
      store: store.fleets,
      isAction: actionClassifier(tools),
      tick: () => this.tick(),
      onSpend: (usd) => this.options.governor.record(this.name, usd).forEach((change) => this.onLadder(change)),
      onWatch: (event) => this.watchdog?.observe(event),
      now: this.now,
      held: () => this.held(),
      onError: (error) => this.storeError(error),
    });
    this.status.restore(this.options.previous?.actions ?? 0);
    captain.on(this.status.listener);
    const watch = this.options.watch;
    if (watch) captain.on((event) => watch(event));
    this.startedAt = this.now();
    this.options.notify({
      captain: this.name,
      kind: 'captain',
      text: `${captain.resumed ? 'resumed' : 'started'} session ${captain.session().name} as ${captain.connection.username() ?? '(not logged in yet)'}`,
    });
  }

  private plannerWanted(): boolean {
    return this.options.spec.planner || this.ladder === 'planner';
  }

  /** The provider and planner mode for the captain's ladder step and the watchdog's say. */
  private mode(): { modelId: string; planner: boolean } {
    const { spec } = this.options;
    const builtin = 'builtin/autopilot';
    if (this.forcedAutopilot || this.ladder === 'autopilot' || spec.model.startsWith('builtin/'))
      return { modelId: spec.model.startsWith('builtin/') ? spec.model : builtin, planner: false };
    if (this.ladder === 'planner') return { modelId: spec.fallbackModel ?? spec.model, planner: true };
    if (this.ladder === 'fallback' && spec.fallbackModel) return { modelId: spec.fallbackModel, planner: spec.planner };
    return { modelId: spec.model, planner: spec.planner };
  }

  private providerFor(mode: { modelId: string }): Provider {
    if (mode.modelId === 'builtin/autopilot') {
      this.autopilotProvider ??= this.options.models.autopilot();
      return this.autopilotProvider;
    }
    return this.options.models.model(mode.modelId);
  }

  private async loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (this.state === 'parked' || this.ladder === 'parked') {
        this.setState('parked');
        await this.waitParked(signal);
        if (signal.aborted || this.state === 'stopped') return;
      }
      const limits = this.limits();
      if ('reached' in limits) {
        const parked = this.state === 'parked' ? ` while parked (${this.note ?? 'parked'})` : '';
        this.note = `${stopReasonText(limits.reached)}${parked}`;
        return this.setState('finished');
      }
      const summary = await this.playStretch(signal, limits.left);
      const halt = this.halt;
      this.halt = undefined;
      if (signal.aborted || halt === 'stop') return this.setState('stopped');
      if (halt === 'park') {
        this.setState('parked');
        continue;
      }
      if (halt === 'switch') continue;
      const done = this.afterStretch(summary);
      if (done) return;
    }
  }

  /** Decides after a stretch that ended on its own: true when the captain is done. */
  private afterStretch(summary: AutoplaySummary): boolean {
    const reason = summary.stopReason;
    if (reason.code === 'budget_exceeded') {
      // The stretch was given what the governor allows before its next step, so the step has changed by now; a
      // budget spent with nothing left to step down to parks the captain (never a silent overspend).
      if (this.options.governor.allowance(this.name) > 0 || this.mode().modelId.startsWith('builtin/')) return false;
      this.note = `budget spent: ${stopReasonText(reason)}`;
      this.setState('parked');
      return false;
    }
    if (reason.code === 'failures') {
      this.note = stopReasonText(reason);
      this.setState('failed');
      return true;
    }
    if (reason.code === 'cancelled') return false;
    this.note = stopReasonText(this.asFiled(reason));
    this.setState('finished');
    return true;
  }

  /**
   * A stretch is given what is left of the captain's limits; the stop is said with the limit the fleet file set (a
   * captain parked for a while and resumed reached its --max-ticks 300, not the 212 its last stretch had left).
   */
  private asFiled(reason: StopReason): StopReason {
    const { spec } = this.options;
    if (reason.code === 'max_ticks' && spec.maxTicks !== undefined) return { ...reason, limit: spec.maxTicks };
    if (reason.code === 'max_turns' && spec.maxTurns !== undefined) return { ...reason, limit: spec.maxTurns };
    if (reason.code === 'duration' && spec.duration !== undefined) return { ...reason, limitMs: spec.duration };
    return reason;
  }

  /** What is left of the captain's limits for this run, or the limit it has reached in earlier stretches. */
  private limits(): { left: AutoplayLimits } | { reached: StopReason } {
    const { spec } = this.options;
    const left: AutoplayLimits = {};
    if (spec.maxTicks !== undefined) {
      left.maxTicks = spec.maxTicks - this.totals.ticks;
      if (left.maxTicks <= 0) return { reached: { code: 'max_ticks', limit: spec.maxTicks } };
    }
    if (spec.maxTurns !== undefined) {
      left.maxTurns = spec.maxTurns - this.totals.turns;
      if (left.maxTurns <= 0) return { reached: { code: 'max_turns', limit: spec.maxTurns } };
    }
    if (spec.duration !== undefined) {
      left.durationMs = spec.duration - (this.now() - this.startedAt);
      if (left.durationMs <= 0) return { reached: { code: 'duration', limitMs: spec.duration } };
    }
    if (spec.budgetTokens !== undefined) left.budgetTokens = spec.budgetTokens;
    return { left };
  }

  private async playStretch(signal: AbortSignal, limits: AutoplayLimits): Promise<AutoplaySummary> {
    const captain = this.captain as Captain;
    const mode = this.mode();
    captain.useModel(this.providerFor(mode));
    const model = captain.model;
    const stretch = new AbortController();
    this.stretch = stretch;
    const onAbort = (): void => stretch.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    this.setState('playing');
    this.status?.update({ model: model.id, ladder: this.ladder });
    this.status?.flush(true);
    const allowance = this.options.governor.allowance(this.name);
    if (!isBuiltinProvider(model) && Number.isFinite(allowance)) limits.budgetUsd = allowance;
    try {
      const summary = await runAutoplay({
        captain,
        limits,
        signal: stretch.signal,
        takeOrders: () => this.orders.splice(0),
        ...(mode.planner ? { planner: true } : {}),
      });
      this.totals.turns += summary.turns;
      this.totals.ticks += summary.ticks ?? 0;
      if (summary.tickUtilisation !== undefined) this.utilisation = summary.tickUtilisation;
      this.span ??= { sessionId: captain.record.session().id, fromTurn: summary.startTurn };
      // The game's busy ticks of the stretch stored with the session, as a single run stores them: report and the
      // fleet summary then read the same share.
      await captain.storeServerTicks(summary).catch((error: unknown) => this.storeError(error));
      return summary;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.stretch = undefined;
    }
  }

  /**
   * Parked: renews the game session now and then, until resumed, stopped, the fleet ends or the captain's own limits
   * are reached. Game ticks pass while it is parked and count toward its tick limit, as wall time counts toward its
   * duration: a fleet run for 300 ticks ends after 300 ticks, parked captains included.
   */
  private async waitParked(signal: AbortSignal): Promise<void> {
    this.status?.flush(true);
    const clock = this.options.game.clock;
    let tickSeen = this.tick();
    let renewedAt = this.now();
    while (!signal.aborted && this.state === 'parked') {
      const ms = Math.min(this.options.broker.renewMs, PARKED_LOOK_MS);
      await parkedPause({ ms, signal, wake: (resolve) => (this.wake = resolve) });
      this.wake = undefined;
      if (this.state !== 'parked' || signal.aborted) return;
      await clock.refresh(signal);
      const tick = this.tick();
      if (tick > tickSeen) this.totals.ticks += tick - tickSeen;
      tickSeen = Math.max(tickSeen, tick);
      if ('reached' in this.limits()) return;
      if (this.now() - renewedAt >= this.options.broker.renewMs) {
        await this.renewSession(signal);
        renewedAt = this.now();
      }
    }
  }

  private async renewSession(signal: AbortSignal): Promise<void> {
    await this.captain?.refreshState(signal).catch(() => undefined);
  }

  private setState(state: CaptainState): void {
    if (this.state === state && state !== 'starting') return;
    this.state = state;
    this.options.onState?.(state, this.note);
    // The row says why with the state (parked by order, by the watchdog, by the budget), as the page and
    // `skipper fleet status` show it, not only once the captain ends.
    const fields = { state, note: this.note ?? null };
    this.status?.update(fields);
    this.status?.flush(true);
    if (!this.status)
      this.writeRow(async () => {
        await this.options.store.fleets.upsertCaptain(this.options.fleet, this.name, fields);
      });
  }

  private abortStretch(halt: Halt): void {
    this.halt = halt;
    this.stretch?.abort();
  }

  /** A ladder step the governor took for this captain. */
  onLadder(change: LadderChange): void {
    this.options.notify({
      captain: this.name,
      kind: 'ladder',
      text: change.reason,
      data: { from: change.from, to: change.to },
    });
    this.status?.update({ ladder: change.to });
    this.status?.flush(true);
    if (change.to === 'parked') {
      this.note = change.reason;
      this.abortStretch('park');
    } else if (this.stretch) this.abortStretch('switch');
  }

  /** An order from `skipper fleet stop|park|resume|order` or the web page. */
  onOrder(order: FleetOrder): void {
    this.options.notify({
      captain: this.name,
      kind: 'order',
      text: `order: ${order.command}${order.text ? ` — ${order.text}` : ''}`,
    });
    if (order.command === 'order' && order.text) this.orders.push(order.text);
    else if (order.command === 'park') {
      this.note = 'parked by order';
      if (this.stretch) this.abortStretch('park');
      else this.setState('parked');
    } else if (order.command === 'stop') {
      this.note = 'stopped by order';
      this.abortStretch('stop');
      if (this.state === 'parked') this.setState('stopped');
      this.wake?.();
    } else if (order.command === 'resume' && this.ladder === 'parked') {
      this.options.notify({
        captain: this.name,
        kind: 'order',
        text: 'stays parked: its budget for today is spent (it plays again after midnight UTC)',
      });
    } else if (order.command === 'resume' && this.state === 'parked') {
      if (this.watchdog?.step === 'parked') this.watchdog.restore('ok');
      this.note = undefined;
      this.setState('playing');
      this.wake?.();
    }
  }

  /** The fleet's periodic look: the watchdog's step, if any, is taken here. */
  inspect(): void {
    if (!this.watchdog || this.state !== 'playing') return;
    const action = this.watchdog.check(this.now(), this.tick());
    if (action) this.onWatchdog(action);
    this.status?.flush(false);
  }

  private onWatchdog(action: WatchdogAction): void {
    this.options.notify({
      captain: this.name,
      kind: 'watchdog',
      text: `${action.kind}: ${action.reason}`,
      data: { step: action.kind },
    });
    this.status?.update({ watchdog: this.watchdog?.step ?? 'ok' });
    this.status?.flush(true);
    if (action.kind === 'nudge') this.orders.push(action.text);
    else if (action.kind === 'replan')
      this.orders.push(`Watchdog: ${action.reason}. Make a new plan now (set_plan) that gets the ship acting again.`);
    else if (action.kind === 'autopilot') {
      this.forcedAutopilot = true;
      this.abortStretch('switch');
    } else if (action.kind === 'park') {
      this.note = `parked by the watchdog: ${action.reason}`;
      this.abortStretch('park');
    }
  }
}

/**
 * The watchdog counts in ticks; on a fast game (minimolt's half-second, a test's 40 ms) 20 ticks are no time at all. Its
 * tick figures are raised to at least a minute (no action) and fifteen seconds (grace) of the game's time.
 */
function wallTimeFloors(tickMs: number | undefined): { noActionTicks: number; graceTicks: number } {
  const tick = Math.max(1, tickMs ?? SPACEMOLT_TICK_MS);
  return { noActionTicks: Math.max(20, Math.ceil(60_000 / tick)), graceTicks: Math.max(5, Math.ceil(15_000 / tick)) };
}

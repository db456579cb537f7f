// Planner mode: a language model sets a flight plan through the local `set_plan` tool and the built-in autopilot
// flies it every tick. The model is woken only when something needs it: no plan yet, the plan done or stuck (the
// same error twice), an event that needs judgement (chat addressed to the captain, an attack, a new system), a
// check-in every N ticks, or the commander's orders. Each wake is a normal turn whose prompt states the reason.
import type { LocalTool } from '../llm/index.js';
import { eventLine } from '../game/index.js';
import { type GameEvent, type GameEvents, type Provider, type ToolResult } from '../shared/index.js';
import { describePlan, flightPlanArgs, planFlierOf, planFromArgs, type FlightPlan } from '../spacemolt/index.js';
import { z } from 'zod';
import type { GameState } from './game-state.js';
import type { TurnSummary } from './events.js';

export const SET_PLAN_TOOL = 'set_plan';
export const DEFAULT_CHECK_IN_TICKS = 360;

/** Errors that come and go on their own: never a sign that the plan is stuck. */
const TRANSIENT: ReadonlySet<string> = new Set([
  'rate_limited',
  'action_pending',
  'in_transit',
  'timeout',
  'cancelled',
  'stalled',
]);

export type WakeReason =
  | { kind: 'no-plan' }
  | { kind: 'plan-done'; why: string }
  | { kind: 'plan-stuck'; code: string }
  | { kind: 'attacked'; line: string }
  | { kind: 'hailed'; line: string }
  | { kind: 'new-system'; system: string }
  | { kind: 'check-in'; ticks: number }
  | { kind: 'orders'; orders: string[] }
  | { kind: 'resumed' };

export function wakeText(reason: WakeReason): string {
  switch (reason.kind) {
    case 'no-plan':
      return 'there is no plan yet';
    case 'plan-done':
      return `the plan is done (${reason.why})`;
    case 'plan-stuck':
      return `the plan looks impossible: the game answered ${reason.code} twice in a row`;
    case 'attacked':
      return `the ship was attacked: ${reason.line}`;
    case 'hailed':
      return `someone spoke to the captain: ${reason.line}`;
    case 'new-system':
      return `the ship reached a system not seen before (${reason.system})`;
    case 'check-in':
      return `scheduled check-in (${reason.ticks} ticks since the last one)`;
    case 'orders':
      return 'the commander gave orders';
    case 'resumed':
      return 'the session was resumed';
  }
}

export interface PlannerOptions {
  /** The language model that plans. */
  model: Provider;
  /** The captain that flies (the built-in autopilot). */
  flier: Provider;
  /** Ticks between check-ins (default 360). */
  everyTicks?: number;
  /** A plan to start from (a resumed session's). */
  plan?: FlightPlan;
  /** Keeps a newly set plan (the session's record, the captain's memory). */
  onPlan?: (plan: FlightPlan) => void;
  /** The captain's name, for telling chat addressed to it from the rest. */
  username?: () => string | undefined;
}

export interface PlannedTurn {
  provider: Provider;
  /** Set when the model is woken: why. */
  wake?: WakeReason;
}

export class Planner {
  private current: FlightPlan | undefined;
  private readonly options: PlannerOptions;
  private readonly everyTicks: number;
  private lastWakeTick: number | undefined;
  private readonly seenSystems = new Set<string>();
  /** Systems seen since the plan was set (the `systems_visited` stop condition). */
  private readonly planSystems = new Set<string>();
  private previousCodes = new Set<string>();
  private stuck: string | undefined;
  private pendingResume: boolean;
  /** Wakes in a row after which the model still had set no plan. */
  private unanswered = 0;
  private state: GameState | undefined;
  private tick: number | undefined;
  private model_: Provider;

  constructor(options: PlannerOptions) {
    this.options = options;
    this.model_ = options.model;
    this.everyTicks = Math.max(1, options.everyTicks ?? DEFAULT_CHECK_IN_TICKS);
    this.current = options.plan;
    this.pendingResume = options.plan !== undefined;
    planFlierOf(options.flier)?.setFlightPlan(options.plan);
  }

  get plan(): FlightPlan | undefined {
    return this.current;
  }

  /** The model that plans (the captain again once autoplay ends). */
  get model(): Provider {
    return this.model_;
  }

  /** Another model plans from now on (chat's /model between two /autoplay runs). */
  useModel(model: Provider): void {
    this.model_ = model;
  }

  get checkInTicks(): number {
    return this.everyTicks;
  }

  /** The local tool the model sets the plan with. */
  tool(): LocalTool {
    return {
      spec: {
        name: SET_PLAN_TOOL,
        description:
          "Planner mode: set the plan Skipper's autopilot flies every tick until you are called back. strategy " +
          '"mine" runs the mining loop (travel, mine, dock, sell, refuel, repair), optionally on one resource, selling ' +
          'at one station, within some systems; "explore" visits new systems. stop_when says when the plan is done ' +
          '(you are called back then). Handled by Skipper, not the game; free.',
        inputSchema: setPlanSchema,
        readOnly: false,
        kind: 'free',
      },
      run: async (args) => this.set(args),
    };
  }

  /** Reads the game's state after a turn (the stop conditions and new systems are judged on it). */
  observe(state: GameState | undefined, tick: number | undefined): void {
    this.state = state;
    this.tick = tick;
    if (this.lastWakeTick === undefined && tick !== undefined) this.lastWakeTick = tick;
  }

  /** Who plays the next turn, and why the model is woken when it is. */
  next(input: { orders: readonly string[]; events?: GameEvents | undefined }): PlannedTurn {
    const wake = this.wakeReason(input);
    if (!wake) return { provider: this.options.flier };
    return { provider: this.model_, wake };
  }

  /** After a turn: error codes that repeat mark the plan stuck; a wake that set no plan is counted. */
  afterTurn(
    summary: Pick<TurnSummary, 'errorsByCode'>,
    woke: WakeReason | undefined,
    planBefore: FlightPlan | undefined,
  ): void {
    if (woke) {
      this.lastWakeTick = this.tick ?? this.lastWakeTick;
      this.previousCodes = new Set();
      this.stuck = undefined;
      this.pendingResume = false;
      if (this.current === planBefore) {
        this.unanswered += 1;
        // Called back because the plan was done, and the model kept it: it runs on without that condition.
        if (woke.kind === 'plan-done' && this.current)
          this.current = { ...this.current, stopWhen: undefined } as FlightPlan;
        if (this.unanswered >= 2 && !this.current) {
          // A model that will not plan must not be asked every tick: the autopilot flies its own plan meanwhile.
          this.adopt({ strategy: 'mine', intent: "the autopilot's own mining loop (no plan was set)" });
        }
      } else {
        this.unanswered = 0;
      }
      return;
    }
    const codes = new Set(Object.keys(summary.errorsByCode).filter((code) => !TRANSIENT.has(code)));
    for (const [code, count] of Object.entries(summary.errorsByCode)) {
      if (TRANSIENT.has(code)) continue;
      if (count >= 2 || this.previousCodes.has(code)) this.stuck = code;
    }
    this.previousCodes = codes;
  }

  /** Why the model is woken for the next turn, the most pressing reason first; undefined lets the flier fly on. */
  private wakeReason(input: { orders: readonly string[]; events?: GameEvents | undefined }): WakeReason | undefined {
    if (input.orders.length > 0) return { kind: 'orders', orders: [...input.orders] };
    if (!this.current) return this.unanswered >= 2 ? undefined : { kind: 'no-plan' };
    if (this.pendingResume) return { kind: 'resumed' };
    if (this.stuck) return { kind: 'plan-stuck', code: this.stuck };
    const event = judgementEvent(input.events, this.options.username?.());
    if (event) return event;
    const arrived = this.newSystemWake(this.current);
    if (arrived) return arrived;
    const done = doneBecause(this.current, this.state, this.tick, this.planSystems.size);
    if (done) return { kind: 'plan-done', why: done };
    return this.checkInWake();
  }

  /** Notes the system the ship is in; wakes the model on one it has not seen, unless the plan took it there. */
  private newSystemWake(plan: FlightPlan): WakeReason | undefined {
    const system = this.state?.systemId;
    if (system === undefined) return undefined;
    const fresh = !this.seenSystems.has(system);
    const first = this.seenSystems.size === 0;
    this.seenSystems.add(system);
    this.planSystems.add(system);
    // Systems passed through on the way (the autopilot looks around before it settles) wake the model at most
    // once per sixth of a check-in; the next wake shows where the ship got to anyway.
    const quiet =
      this.tick === undefined ||
      this.lastWakeTick === undefined ||
      this.tick - this.lastWakeTick >= this.everyTicks / 6;
    const planned = plan.systems?.some((s) => s.toLowerCase() === system.toLowerCase()) === true;
    if (!fresh || first || !quiet || plan.strategy === 'explore' || planned) return undefined;
    return { kind: 'new-system', system: this.state?.location ? `${this.state.location}, ${system}` : system };
  }

  /** The regular call-back: every `everyTicks` ticks since the last wake. */
  private checkInWake(): WakeReason | undefined {
    if (this.tick === undefined || this.lastWakeTick === undefined) return undefined;
    const ticks = this.tick - this.lastWakeTick;
    return ticks >= this.everyTicks ? { kind: 'check-in', ticks } : undefined;
  }

  private set(args: Record<string, unknown>): ToolResult {
    const parsed = flightPlanArgs.safeParse(args);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`)
        .join('; ');
      return {
        text: `invalid_params: ${issues}. strategy is "mine" or "explore"; intent says why in a sentence.`,
        isError: true,
        code: 'invalid_params',
      };
    }
    const plan = planFromArgs(parsed.data, {
      ...(this.tick !== undefined ? { tick: this.tick } : {}),
      ...(this.state?.credits !== undefined ? { credits: this.state.credits } : {}),
    });
    const already = doneBecause(plan, this.state, this.tick, this.state?.systemId ? 1 : 0);
    if (already) {
      return {
        text: `invalid_params: stop_when is already met (${already}): the plan would end at once. Set a condition still ahead, or leave stop_when out to fly until the next check-in.`,
        isError: true,
        code: 'invalid_params',
      };
    }
    this.adopt(plan);
    return {
      text: `Plan set: ${describePlan(plan)}. The autopilot flies it from the next tick; you will be called back when it is done or stuck, on events, or every ${this.everyTicks} ticks.`,
      isError: false,
    };
  }

  private adopt(plan: FlightPlan): void {
    this.current = plan;
    this.planSystems.clear();
    if (this.state?.systemId) this.planSystems.add(this.state.systemId);
    planFlierOf(this.options.flier)?.setFlightPlan(plan);
    this.options.onPlan?.(plan);
  }
}

/** The prompt of a wake turn: why, the plan in force, what to do. */
export function wakePrompt(options: {
  reason: WakeReason;
  plan: FlightPlan | undefined;
  goal: string;
  everyTicks: number;
  events?: string;
}): string {
  const lines = [`Planner check-in: ${wakeText(options.reason)}.`, `Goal: ${options.goal}.`];
  lines.push(options.plan ? `Plan in force: ${describePlan(options.plan)}.` : 'No plan is in force.');
  if (options.reason.kind === 'orders')
    lines.push(`Orders from your commander (the person at the keyboard): ${options.reason.orders.join(' / ')}`);
  if (options.events) lines.push(options.events);
  lines.push(
    `You plan; Skipper's autopilot flies your plan every tick. Look at the game if you need to (queries are free), then ` +
      `call ${SET_PLAN_TOOL} once with the plan to fly until the next check-in (in ${options.everyTicks} ticks at most), ` +
      'and answer with one line saying why.',
  );
  return lines.join('\n');
}

/** Kinds of event that say the ship was attacked (by their start: `pirates`, `attacked`…). */
const ATTACK_KINDS = /^(combat|attack|pirate)/i;

/** Whether a game event says the ship was attacked (the planner wakes the model for it; the fleet alerts on it). */
export function isAttackEvent(event: GameEvent): boolean {
  return event.type !== 'unread' && ATTACK_KINDS.test(event.kind);
}
const PRIVATE_CHANNELS = new Set(['private', 'whisper', 'direct', 'dm', 'tell']);

/** Chat addressed to the captain (on a private channel, or naming it) and attacks, read from the game's events. */
export function judgementEvent(events: GameEvents | undefined, username: string | undefined): WakeReason | undefined {
  for (const event of events?.events ?? []) {
    if (event.type === 'unread') continue;
    const line = eventLine(event).slice(0, 200);
    if (isAttackEvent(event)) return { kind: 'attacked', line };
    if (event.type !== 'said' || event.kind.toLowerCase() !== 'chat' || event.channel === undefined) continue;
    const words = `${event.from} ${event.text}`.toLowerCase();
    const named = username !== undefined && username.length >= 3 && words.includes(username.toLowerCase());
    if (PRIVATE_CHANNELS.has(event.channel.toLowerCase()) || named) return { kind: 'hailed', line };
  }
  return undefined;
}

/** Why the plan is done, or undefined while it runs. */
export function doneBecause(
  plan: FlightPlan,
  state: GameState | undefined,
  tick: number | undefined,
  systemsSeen: number,
): string | undefined {
  const stop = plan.stopWhen;
  if (!stop) return undefined;
  if (stop.creditsAtLeast !== undefined && (state?.credits ?? 0) >= stop.creditsAtLeast)
    return `credits ${state?.credits} ≥ ${stop.creditsAtLeast}`;
  if (
    stop.ticks !== undefined &&
    tick !== undefined &&
    plan.setAtTick !== undefined &&
    tick - plan.setAtTick >= stop.ticks
  )
    return `${stop.ticks} ticks flown`;
  if (stop.systemsVisited !== undefined && systemsSeen >= stop.systemsVisited) return `${systemsSeen} systems visited`;
  if (
    stop.cargoFull &&
    state?.cargoUsed !== undefined &&
    state.cargoCapacity !== undefined &&
    state.cargoUsed >= state.cargoCapacity
  )
    return 'the hold is full';
  return undefined;
}

const setPlanSchema = ((): Record<string, unknown> & { type: string } => {
  const { $schema: _schema, ...schema } = z.toJSONSchema(flightPlanArgs) as Record<string, unknown> & { type: string };
  return schema;
})();

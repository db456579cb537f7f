// Planner mode's flight plan: what a model decides (through the local `set_plan` tool) and the built-in autopilot
// flies tick by tick. Part of the game domain because the session engine stores and shows it and the autopilot (a
// provider) reads it; the two meet through PlanFlier, so the generic Provider interface knows nothing of plans.
import { z } from 'zod';

export const PLAN_STRATEGIES = ['mine', 'explore'] as const;

/** The schema the model's `set_plan` arguments are checked against (snake_case, as models write JSON). */
export const flightPlanArgs = z
  .object({
    strategy: z.enum(PLAN_STRATEGIES),
    intent: z.string().trim().min(1).max(300),
    resource: z.string().trim().min(1).max(60).optional(),
    sell_at: z.string().trim().min(1).max(80).optional(),
    systems: z.array(z.string().trim().min(1).max(80)).max(20).optional(),
    stop_when: z
      .object({
        credits_at_least: z.number().int().positive().optional(),
        ticks: z.number().int().positive().max(100_000).optional(),
        systems_visited: z.number().int().positive().max(1000).optional(),
        cargo_full: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type FlightPlanArgs = z.infer<typeof flightPlanArgs>;

export interface StopWhen {
  creditsAtLeast?: number;
  ticks?: number;
  systemsVisited?: number;
  cargoFull?: boolean;
}

export interface FlightPlan {
  strategy: (typeof PLAN_STRATEGIES)[number];
  /** The model's own words: why, and what it expects. */
  intent: string;
  /** Item to mine (e.g. iron_ore); the autopilot picks where. */
  resource?: string;
  /** Station (POI id or name) to sell at. */
  sellAt?: string;
  /** Systems to visit or stay within (ids or names). */
  systems?: string[];
  /** When the plan is done and the model is called back. */
  stopWhen?: StopWhen;
  /** Game tick when it was set (the clock's), for `ticks` and the status line. */
  setAtTick?: number;
  /** Credits when it was set. */
  setAtCredits?: number;
}

/** A captain that flies the plans a model sets (planner mode): the built-in autopilot. */
export interface PlanFlier {
  /** The plan to fly from now on; undefined = the captain's own choices. */
  setFlightPlan(plan: FlightPlan | undefined): void;
}

/** The provider itself seen as a PlanFlier when it flies plans (it has `setFlightPlan`), else undefined. */
export function planFlierOf(provider: object): PlanFlier | undefined {
  const candidate = provider as Partial<PlanFlier>;
  return typeof candidate.setFlightPlan === 'function' ? (candidate as PlanFlier) : undefined;
}

export function planFromArgs(args: FlightPlanArgs, at: { tick?: number; credits?: number } = {}): FlightPlan {
  const stop = args.stop_when;
  const stopWhen: StopWhen = {
    ...(stop?.credits_at_least !== undefined ? { creditsAtLeast: stop.credits_at_least } : {}),
    ...(stop?.ticks !== undefined ? { ticks: stop.ticks } : {}),
    ...(stop?.systems_visited !== undefined ? { systemsVisited: stop.systems_visited } : {}),
    ...(stop?.cargo_full !== undefined ? { cargoFull: stop.cargo_full } : {}),
  };
  return {
    strategy: args.strategy,
    intent: args.intent,
    ...(args.resource ? { resource: args.resource } : {}),
    ...(args.sell_at ? { sellAt: args.sell_at } : {}),
    ...(args.systems && args.systems.length > 0 ? { systems: args.systems } : {}),
    ...(Object.keys(stopWhen).length > 0 ? { stopWhen } : {}),
    ...(at.tick !== undefined ? { setAtTick: at.tick } : {}),
    ...(at.credits !== undefined ? { setAtCredits: at.credits } : {}),
  };
}

/** A stored plan read back (session extra, memory): undefined unless it has the shape of one. */
export function readFlightPlan(value: unknown): FlightPlan | undefined {
  const parsed = storedPlan.safeParse(value);
  return parsed.success ? (parsed.data as FlightPlan) : undefined;
}

const storedPlan = z.object({
  strategy: z.enum(PLAN_STRATEGIES),
  intent: z.string(),
  resource: z.string().optional(),
  sellAt: z.string().optional(),
  systems: z.array(z.string()).optional(),
  stopWhen: z
    .object({
      creditsAtLeast: z.number().optional(),
      ticks: z.number().optional(),
      systemsVisited: z.number().optional(),
      cargoFull: z.boolean().optional(),
    })
    .optional(),
  setAtTick: z.number().optional(),
  setAtCredits: z.number().optional(),
});

/** One line: `mine iron_ore → sell at base_sol · until 5,000cr · "fill the hold, then upgrade"`. */
export function describePlan(plan: FlightPlan): string {
  const parts = [plan.strategy === 'mine' ? `mine${plan.resource ? ` ${plan.resource}` : ''}` : 'explore'];
  if (plan.sellAt) parts[0] += ` → sell at ${plan.sellAt}`;
  if (plan.systems?.length) parts.push(`systems ${plan.systems.join(', ')}`);
  const stop = plan.stopWhen;
  const until: string[] = [];
  if (stop?.creditsAtLeast !== undefined) until.push(`${stop.creditsAtLeast.toLocaleString('en-US')}cr`);
  if (stop?.ticks !== undefined) until.push(`${stop.ticks} ticks`);
  if (stop?.systemsVisited !== undefined) until.push(`${stop.systemsVisited} systems`);
  if (stop?.cargoFull) until.push('hold full');
  if (until.length > 0) parts.push(`until ${until.join(' or ')}`);
  parts.push(JSON.stringify(plan.intent));
  return parts.join(' · ');
}

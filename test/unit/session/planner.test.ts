// Planner mode's decisions: who plays the next turn and why the model is woken, the set_plan tool's checks, the
// plan handed to the flier, and the stop conditions.
import { describe, expect, it } from 'vitest';
import { Planner, doneBecause, judgementEvent, wakePrompt, type WakeReason } from '../../../internal/session/index.js';
import type { CompletionResponse, GameEvent, GameEvents, Provider } from '../../../internal/shared/index.js';
import type { FlightPlan } from '../../../internal/spacemolt/index.js';

class FakeFlier implements Provider {
  readonly id = 'fake/flier';
  readonly capabilities = { builtin: true, fliesPlans: true };
  plans: Array<FlightPlan | undefined> = [];
  setFlightPlan(plan: FlightPlan | undefined): void {
    this.plans.push(plan);
  }
  complete(): Promise<CompletionResponse> {
    throw new Error('not used');
  }
}

const model: Provider = { id: 'fake/model', complete: () => Promise.reject(new Error('not used')) };
const noErrors = { errorsByCode: {} };

function planner(options: { everyTicks?: number; plan?: FlightPlan } = {}): {
  planner: Planner;
  flier: FakeFlier;
  saved: FlightPlan[];
} {
  const flier = new FakeFlier();
  const saved: FlightPlan[] = [];
  const made = new Planner({
    model,
    flier,
    ...options,
    onPlan: (plan) => saved.push(plan),
    username: () => 'captain_ab12',
  });
  return { planner: made, flier, saved };
}

async function setPlan(p: Planner, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  return p.tool().run(args);
}

describe('Planner', () => {
  it('wakes the model when there is no plan, then lets the flier fly the plan it set', async () => {
    const { planner: p, flier, saved } = planner();
    p.observe({ credits: 100, systemId: 'sol' }, 10);
    const first = p.next({ orders: [] });
    expect(first.provider).toBe(model);
    expect(first.wake).toEqual({ kind: 'no-plan' });
    const result = await setPlan(p, { strategy: 'mine', resource: 'iron_ore', intent: 'fill the hold with iron' });
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/^Plan set: mine iron_ore/);
    p.afterTurn(noErrors, first.wake, undefined);
    expect(flier.plans.at(-1)).toMatchObject({
      strategy: 'mine',
      resource: 'iron_ore',
      setAtTick: 10,
      setAtCredits: 100,
    });
    expect(saved).toHaveLength(1);
    p.observe({ credits: 120, systemId: 'sol' }, 11);
    const second = p.next({ orders: [] });
    expect(second.provider).toBe(flier);
    expect(second.wake).toBeUndefined();
  });

  it('refuses a bad plan with a result the model can read, and keeps none', async () => {
    const { planner: p, flier } = planner();
    const result = await setPlan(p, { strategy: 'trade_everything', intent: '' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^invalid_params: strategy/);
    expect(p.plan).toBeUndefined();
    expect(flier.plans).toEqual([undefined]);
  });

  it('calls back when the plan is done, and a kept plan runs on without that condition', async () => {
    const { planner: p } = planner();
    p.observe({ credits: 100, systemId: 'sol' }, 0);
    await setPlan(p, { strategy: 'mine', intent: 'get to 500', stop_when: { credits_at_least: 500 } });
    p.afterTurn(noErrors, { kind: 'no-plan' }, undefined);
    p.observe({ credits: 499, systemId: 'sol' }, 30);
    expect(p.next({ orders: [] }).wake).toBeUndefined();
    p.observe({ credits: 510, systemId: 'sol' }, 40);
    const done = p.next({ orders: [] });
    expect(done.wake).toEqual({ kind: 'plan-done', why: 'credits 510 ≥ 500' });
    const kept = p.plan;
    p.afterTurn(noErrors, done.wake, kept);
    expect(p.plan?.stopWhen).toBeUndefined();
    expect(p.next({ orders: [] }).wake).toBeUndefined();
  });

  it('calls back when the same error comes twice in a row, not on transient ones', async () => {
    const { planner: p } = planner({ plan: { strategy: 'mine', intent: 'x' } });
    p.observe({ systemId: 'sol' }, 0);
    p.afterTurn(noErrors, p.next({ orders: [] }).wake, p.plan); // the resume wake
    p.afterTurn({ errorsByCode: { rate_limited: 1 } }, undefined, p.plan);
    p.afterTurn({ errorsByCode: { rate_limited: 1 } }, undefined, p.plan);
    expect(p.next({ orders: [] }).wake).toBeUndefined();
    p.afterTurn({ errorsByCode: { no_resources: 1 } }, undefined, p.plan);
    expect(p.next({ orders: [] }).wake).toBeUndefined();
    p.afterTurn({ errorsByCode: { no_resources: 1 } }, undefined, p.plan);
    expect(p.next({ orders: [] }).wake).toEqual({ kind: 'plan-stuck', code: 'no_resources' });
  });

  it('checks in every N ticks, wakes at once for orders, and says a resumed plan is back', async () => {
    const { planner: p, flier } = planner({ everyTicks: 100, plan: { strategy: 'mine', intent: 'resumed' } });
    expect(flier.plans[0]).toMatchObject({ intent: 'resumed' });
    p.observe({ systemId: 'sol' }, 1000);
    const resumed = p.next({ orders: [] });
    expect(resumed.wake).toEqual({ kind: 'resumed' });
    p.afterTurn(noErrors, resumed.wake, p.plan);
    p.observe({ systemId: 'sol' }, 1099);
    expect(p.next({ orders: [] }).wake).toBeUndefined();
    p.observe({ systemId: 'sol' }, 1100);
    expect(p.next({ orders: [] }).wake).toEqual({ kind: 'check-in', ticks: 100 });
    expect(p.next({ orders: ['sell everything'] }).wake).toEqual({ kind: 'orders', orders: ['sell everything'] });
  });

  it('wakes for a new system outside the plan, once, and not while exploring', async () => {
    const { planner: p } = planner({ everyTicks: 60 });
    p.observe({ systemId: 'sol' }, 0);
    await setPlan(p, { strategy: 'mine', intent: 'x', systems: ['Sol', 'Vega'] });
    p.afterTurn(noErrors, { kind: 'no-plan' }, undefined);
    expect(p.next({ orders: [] }).wake).toBeUndefined();
    p.observe({ systemId: 'vega' }, 20);
    expect(p.next({ orders: [] }).wake).toBeUndefined();
    p.observe({ systemId: 'rigel', location: 'Rigel Belt' }, 30);
    expect(p.next({ orders: [] }).wake).toEqual({ kind: 'new-system', system: 'Rigel Belt, rigel' });
    expect(p.next({ orders: [] }).wake).toBeUndefined();
    await setPlan(p, { strategy: 'explore', intent: 'see the galaxy' });
    p.observe({ systemId: 'deneb' }, 50);
    expect(p.next({ orders: [] }).wake).toBeUndefined();
  });

  it('after two wakes without a plan the autopilot flies its own loop instead of waking the model every tick', () => {
    const { planner: p, flier } = planner();
    p.observe({ systemId: 'sol' }, 0);
    const one = p.next({ orders: [] }).wake;
    p.afterTurn(noErrors, one, undefined);
    const two = p.next({ orders: [] }).wake;
    expect(two).toEqual({ kind: 'no-plan' });
    p.afterTurn(noErrors, two, undefined);
    expect(p.plan?.strategy).toBe('mine');
    expect(flier.plans.at(-1)?.intent).toMatch(/autopilot's own/);
    expect(p.next({ orders: [] }).wake).toBeUndefined();
  });
});

describe('planner helpers', () => {
  it('reads attacks and chat addressed to the captain from the events block, not public chat', () => {
    const one = (event: GameEvent): GameEvents => ({ events: [event], more: 0 });
    const attack = judgementEvent(
      one({ type: 'happened', kind: 'combat', tick: 5, text: 'Pirates ambushed you in Vega: 30 hull damage' }),
      'captain_ab12',
    );
    expect(attack).toEqual({
      kind: 'attacked',
      line: '[tick 5] combat: Pirates ambushed you in Vega: 30 hull damage',
    });
    const said = { type: 'said', kind: 'chat', from: 'Vole' } as const;
    const hail = judgementEvent(one({ ...said, channel: 'system', text: 'captain_ab12, sell me ore' }), 'captain_ab12');
    expect(hail?.kind).toBe('hailed');
    const whisper = judgementEvent(one({ ...said, channel: 'private', text: 'hello' }), 'captain_ab12');
    expect(whisper?.kind).toBe('hailed');
    expect(judgementEvent(one({ ...said, channel: 'system', text: 'prices are up' }), 'captain_ab12')).toBeUndefined();
    // A line the game layer could not read is never a reason to wake the model, whatever it says.
    expect(
      judgementEvent(one({ type: 'unread', text: 'combat: captain_ab12 attacked' }), 'captain_ab12'),
    ).toBeUndefined();
  });

  it('stop conditions: ticks flown, systems visited, a full hold', () => {
    const plan: FlightPlan = {
      strategy: 'mine',
      intent: 'x',
      setAtTick: 100,
      stopWhen: { ticks: 50, cargoFull: true },
    };
    expect(doneBecause(plan, { cargoUsed: 10, cargoCapacity: 50 }, 149, 1)).toBeUndefined();
    expect(doneBecause(plan, { cargoUsed: 10, cargoCapacity: 50 }, 150, 1)).toBe('50 ticks flown');
    expect(doneBecause(plan, { cargoUsed: 50, cargoCapacity: 50 }, 120, 1)).toBe('the hold is full');
    expect(doneBecause({ strategy: 'explore', intent: 'x', stopWhen: { systemsVisited: 3 } }, {}, 0, 3)).toBe(
      '3 systems visited',
    );
  });

  it('the wake prompt states the reason, the plan in force and what to do', () => {
    const reason: WakeReason = { kind: 'plan-stuck', code: 'no_fuel' };
    const text = wakePrompt({
      reason,
      plan: { strategy: 'mine', intent: 'iron', resource: 'iron_ore' },
      goal: 'get rich',
      everyTicks: 360,
    });
    expect(text).toContain('Planner check-in: the plan looks impossible: the game answered no_fuel twice in a row.');
    expect(text).toContain('Plan in force: mine iron_ore · "iron".');
    expect(text).toContain('call set_plan once');
  });
});

describe('set_plan guards', () => {
  it('refuses a plan whose stop condition is already met, so a done plan cannot wake the model every tick', async () => {
    const { planner: p } = planner();
    p.observe({ credits: 30_000, systemId: 'sol' }, 500);
    const refused = await p.tool().run({ strategy: 'mine', intent: 'to 20k', stop_when: { credits_at_least: 20_000 } });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/stop_when is already met \(credits 30000 ≥ 20000\)/);
    expect(p.plan).toBeUndefined();
    const accepted = await p
      .tool()
      .run({ strategy: 'mine', intent: 'to 50k', stop_when: { credits_at_least: 50_000 } });
    expect(accepted.isError).toBe(false);
  });

  it('a done plan the model does not replace runs on without its condition: one wake, not one per turn', async () => {
    const { planner: p } = planner({ plan: { strategy: 'mine', intent: 'x', stopWhen: { creditsAtLeast: 100 } } });
    p.observe({ credits: 50, systemId: 'sol' }, 0);
    p.afterTurn(noErrors, p.next({ orders: [] }).wake, p.plan); // resumed
    p.observe({ credits: 150, systemId: 'sol' }, 10);
    const done = p.next({ orders: [] });
    expect(done.wake?.kind).toBe('plan-done');
    p.afterTurn(noErrors, done.wake, p.plan);
    for (let tick = 11; tick < 20; tick += 1) {
      p.observe({ credits: 150 + tick, systemId: 'sol' }, tick);
      expect(p.next({ orders: [] }).wake).toBeUndefined();
    }
  });
});

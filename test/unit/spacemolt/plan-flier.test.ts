// PlanFlier: planner mode reaches the captain that flies plans through the game domain, not through the generic
// Provider interface; a wrapper that measures a provider (the tokens bench) must still hand the plan on.
import { describe, expect, it } from 'vitest';
import { emptyCounts, measuringProvider } from '../../../internal/bench/tokens-diet.js';
import { createAutopilotProvider, createRandomProvider } from '../../../internal/provider/builtin/index.js';
import type { Provider } from '../../../internal/shared/index.js';
import { planFlierOf, type FlightPlan } from '../../../internal/spacemolt/index.js';

const plan: FlightPlan = { strategy: 'mine', intent: 'fill the hold with iron', resource: 'iron_ore' };

describe('planFlierOf', () => {
  it('finds the autopilot a flier and the random captain not', () => {
    expect(planFlierOf(createAutopilotProvider({ seed: 1 }))).toBeDefined();
    expect(planFlierOf(createRandomProvider({ seed: 1 }))).toBeUndefined();
  });

  it('the flier is the provider itself: a plan set through it reaches the provider', () => {
    const plans: Array<FlightPlan | undefined> = [];
    const provider: Provider & { setFlightPlan(plan: FlightPlan | undefined): void } = {
      id: 'test/flier',
      complete: () => Promise.reject(new Error('not called')),
      setFlightPlan(next) {
        expect(this).toBe(provider);
        plans.push(next);
      },
    };
    planFlierOf(provider)?.setFlightPlan(plan);
    planFlierOf(provider)?.setFlightPlan(undefined);
    expect(plans).toEqual([plan, undefined]);
  });

  it("the tokens bench's measuring wrapper forwards plans to a flier and adds no flier to others", () => {
    const plans: Array<FlightPlan | undefined> = [];
    const flier: Provider & { setFlightPlan(plan: FlightPlan | undefined): void } = {
      id: 'test/flier',
      complete: () => Promise.reject(new Error('not called')),
      setFlightPlan: (next) => plans.push(next),
    };
    planFlierOf(measuringProvider(flier, emptyCounts()))?.setFlightPlan(plan);
    expect(plans).toEqual([plan]);
    expect(planFlierOf(measuringProvider(createRandomProvider({ seed: 1 }), emptyCounts()))).toBeUndefined();
  });
});

describe('measuringProvider', () => {
  it('measures what a model would be sent: the autopilot behind it is not handed the latest turns alone', () => {
    const autopilot = createAutopilotProvider({ seed: 1 });
    expect(autopilot.capabilities?.contextOnDemand).toBe(true);
    const measured = measuringProvider(autopilot, emptyCounts());
    expect(measured.capabilities).toMatchObject({ builtin: true, contextOnDemand: false });
  });
});

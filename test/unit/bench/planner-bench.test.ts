// The planner bench measures plans: its scripted planner names loops of its own (not the autopilot's choice), and a
// planner that always names the worst-paying loop is reported as the loss it is, its gain ratio missing the target.
import { describe, expect, it } from 'vitest';
import { benchPlanner } from '../../../internal/bench/planner.js';
import { ScriptedPlanner } from '../../../internal/bench/planner-model.js';
import { benchWorld, miningLoops, seededPlans, worstPlans } from '../../../internal/bench/planner-plans.js';
import { formatTable } from '../../../internal/bench/figure-table.js';

const GAIN_FIGURE = 'planner: net-worth gain ÷ pure autopilot (worst world)';

describe('planner bench plans', () => {
  const loops = miningLoops(benchWorld(42), 'sol');

  it('knows several loops near the start, best-paying first', () => {
    expect(loops.length).toBeGreaterThan(1);
    for (let i = 1; i < loops.length; i += 1) expect(loops[i - 1]!.bid).toBeGreaterThanOrEqual(loops[i]!.bid);
  });

  it('the seeded planner names a loop every time, and not always the same one', () => {
    const choose = seededPlans(loops, 42);
    const plans = Array.from({ length: 12 }, (_, checkIn) => choose(checkIn));
    for (const plan of plans) {
      expect(plan.resource).toBeTruthy();
      expect(plan.sell_at).toBeTruthy();
      expect(plan.systems).toHaveLength(1);
    }
    expect(new Set(plans.map((plan) => `${plan.resource}@${plan.sell_at}`)).size).toBeGreaterThan(1);
    expect(choose(3)).toEqual(seededPlans(loops, 42)(3));
  });

  it('the worst planner names the lowest bid', () => {
    const plan = worstPlans(loops)(0);
    const worst = loops.at(-1)!;
    expect([plan.resource, plan.sell_at]).toEqual([worst.resource, worst.station]);
  });

  it('the scripted model sends the chooser its plan through set_plan', async () => {
    const model = new ScriptedPlanner({ plans: worstPlans(loops) });
    const reply = await model.complete({
      messages: [{ role: 'user', content: 'Planner check-in: no plan is in force.\nGoal: earn credits.' }],
      tools: [{ name: 'set_plan', description: 'set the plan', parameters: { type: 'object' } }],
    } as never);
    const call = reply.message.toolCalls?.[0];
    expect(call?.name).toBe('set_plan');
    expect(JSON.parse(String(call?.arguments))).toMatchObject({ strategy: 'mine', sell_at: loops.at(-1)!.station });
    expect(model.proposed).toHaveLength(1);
  });
});

describe('planner bench with a bad planner', () => {
  it('reports the loss: the gain ratio well below 1 and the figure MISSED', async () => {
    const figures = await benchPlanner({ runs: 1, ticks: 300, plans: (near) => worstPlans(near) });
    const gain = figures.find((figure) => figure.name === GAIN_FIGURE);
    expect(gain?.value).toBeLessThan(0.6);
    const row = formatTable(figures).find((line) => line.includes(GAIN_FIGURE));
    expect(row).toMatch(/MISSED$/);
    const named = figures.find((figure) => figure.name === 'planner: plans naming a loop of their own');
    expect(named?.value).toBeGreaterThanOrEqual(1);
  }, 120_000);
});

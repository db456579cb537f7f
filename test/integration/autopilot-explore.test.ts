// The autopilot in explore mode plays real minimolt in-process (turbo): given an explore goal it visits many distinct
// systems, keeps fuel for the next jump (refuelling docked at stations) and stays alive.
import { afterEach, describe, expect, it } from 'vitest';
import { createAutopilotProvider } from '../../internal/provider/builtin/index.js';
import { createMinimolt, type Minimolt } from '../../internal/sim/index.js';
import type { Message } from '../../internal/shared/index.js';
import { SimGame, TestSession, playTurn, type TurnOutcome } from '../fakes/sim-game.js';

const GOAL = 'visit as many distinct star systems as you can without dying; refuel when you need to';

let minimolt: Minimolt | undefined;
let game: SimGame | undefined;

afterEach(async () => {
  await game?.close();
  await minimolt?.close();
  game = undefined;
  minimolt = undefined;
});

function systemsSeen(history: readonly Message[]): string[] {
  const seen: string[] = [];
  for (const message of history) {
    const data = message.data as { location?: { system_id?: unknown } } | undefined;
    const id = data?.location?.system_id;
    if (message.role === 'tool' && !message.isError && typeof id === 'string' && !seen.includes(id)) seen.push(id);
  }
  return seen;
}

describe('autopilot explore mode on minimolt', () => {
  it('visits at least 6 distinct systems in 300 ticks, refuels instead of running dry, and survives', async () => {
    minimolt = await createMinimolt({ tickMs: 0, worldDb: ':memory:', seed: 42 });
    game = await SimGame.connect(minimolt);
    const session = new TestSession();
    const provider = createAutopilotProvider({ seed: 42 });
    const outcomes: TurnOutcome[] = [];
    const start = minimolt.tick;
    for (let turn = 1; turn <= 400 && minimolt.tick - start < 300; turn += 1) {
      outcomes.push(await playTurn({ provider, game, session, prompt: `Autoplay turn ${turn}. Goal: ${GOAL}.` }));
    }
    const me = minimolt.stats().players[0]!;
    const systems = systemsSeen(session.history);
    expect(minimolt.tick - start).toBeGreaterThanOrEqual(300);
    expect(systems.length - 1).toBeGreaterThanOrEqual(6);
    expect(me.deaths).toBeLessThanOrEqual(1);
    expect(me.errors.no_fuel ?? 0).toBeLessThanOrEqual(1);
    expect(me.errors.invalid_params ?? 0).toBe(0);
    expect(outcomes.filter((o) => o.outcome !== 'answered')).toEqual([]);
    // The op of each call, on the v2 face the embedded game plays (`spacemolt {action: "jump"}`).
    const calls = session.history
      .flatMap((m) => m.toolCalls ?? [])
      .map((c) => {
        const args = JSON.parse(c.arguments || '{}') as { action?: unknown };
        return { name: typeof args.action === 'string' ? args.action : c.name };
      });
    const jumps = calls.filter((c) => c.name === 'jump').length;
    expect(jumps).toBeGreaterThanOrEqual(6);
    // Exploring is not mining: the goal changed what the autopilot does.
    expect(calls.filter((c) => c.name === 'mine').length).toBeLessThan(jumps);
    // Whatever the tank held at the start, 300 ticks of jumping needed at least one refuel.
    expect(calls.some((c) => c.name === 'refuel')).toBe(true);
    for (const answer of outcomes.map((o) => o.answer ?? '')) expect(answer).not.toContain('\n');
  });
});

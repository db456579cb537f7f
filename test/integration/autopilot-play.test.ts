// The autopilot and the random floor play real minimolt in-process (turbo) through a test loop.
import { afterEach, describe, expect, it } from 'vitest';
import { createAutopilotProvider, createRandomProvider } from '../../internal/provider/builtin/index.js';
import { createMinimolt, type Minimolt } from '../../internal/sim/index.js';
import { type Provider, callKind } from '../../internal/shared/index.js';
import { SimGame, TestSession, playTurn, type TurnOutcome } from '../fakes/sim-game.js';

let minimolt: Minimolt | undefined;
let game: SimGame | undefined;

afterEach(async () => {
  await game?.close();
  await minimolt?.close();
  game = undefined;
  minimolt = undefined;
});

async function play(
  provider: Provider,
  options: { ticks: number; maxTurns: number; face?: 'v1' | 'v2' },
): Promise<{
  outcomes: TurnOutcome[];
  answers: string[];
  session: TestSession;
}> {
  minimolt = await createMinimolt({ tickMs: 0, worldDb: ':memory:', seed: 42 });
  game = await SimGame.connect(minimolt, options.face ? { face: options.face } : {});
  const session = new TestSession();
  const outcomes: TurnOutcome[] = [];
  const start = minimolt.tick;
  for (let turn = 1; turn <= options.maxTurns && minimolt.tick - start < options.ticks; turn += 1) {
    outcomes.push(await playTurn({ provider, game, session, prompt: `Autoplay turn ${turn}. Goal: earn credits.` }));
  }
  return { outcomes, answers: outcomes.map((o) => o.answer ?? ''), session };
}

describe('builtin providers on minimolt', () => {
  it.each(['v2', 'v1'] as const)(
    'autopilot registers, mines and sells on the %s face: net worth rises over 300 ticks, no leaks, no invalid_params',
    async (face) => {
      const { outcomes, answers, session } = await play(createAutopilotProvider({ seed: 42 }), {
        ticks: 300,
        maxTurns: 400,
        face,
      });
      const stats = minimolt!.stats();
      const me = stats.players[0]!;
      expect(stats.players).toHaveLength(1);
      expect(me.username).toMatch(/^captain_[0-9a-f]{6}$/);
      expect(minimolt!.tick).toBeGreaterThanOrEqual(300);
      expect(me.net_worth).toBeGreaterThan(600);
      expect(me.deaths).toBeLessThanOrEqual(1);
      expect(me.leaks).toBe(0);
      expect(me.errors.invalid_params ?? 0).toBe(0);
      expect(me.busy_ticks / me.ticks_alive).toBeGreaterThan(0.9);
      expect(outcomes.filter((o) => o.outcome !== 'answered')).toEqual([]);
      expect(answers.some((a) => /^.*sold \d+ \w+ for \d+ cr/i.test(a))).toBe(true);
      for (const answer of answers) expect(answer).not.toContain('\n');
      // Queries are spent on what is new, plus one status to confirm each action (the real server's action answers
      // carry no state: `Docked at X.`). Per call: on v2 one tool holds queries and actions.
      const specs = new Map((await game!.listTools()).map((tool) => [tool.name, tool]));
      const calls = session.history.flatMap((m) => m.toolCalls ?? []);
      const kindOf = (c: { name: string; arguments: string }) =>
        callKind(specs.get(c.name), JSON.parse(c.arguments || '{}') as Record<string, unknown>);
      const queries = calls.filter((c) => kindOf(c) === 'query');
      const actions = calls.filter((c) => kindOf(c) === 'mutation');
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.length).toBeLessThanOrEqual(actions.length + 20);
      // The password never reaches anything the provider wrote.
      const password = [...game!.passwords.values()][0]!;
      expect(password).toMatch(/^[0-9a-f]{64}$/);
      for (const message of session.history) {
        if (message.role === 'assistant') expect(JSON.stringify(message)).not.toContain(password);
      }
    },
  );

  it('autopilot replays the same game given the same seed', async () => {
    const once = async (): Promise<string> => {
      const { answers } = await play(createAutopilotProvider({ seed: 5 }), { ticks: 100, maxTurns: 100 });
      const stats = JSON.stringify(minimolt!.stats());
      await game!.close();
      await minimolt!.close();
      game = undefined;
      minimolt = undefined;
      return `${stats} ${answers.join('|')}`;
    };
    expect(await once()).toBe(await once());
  });

  it('random plays without crashing', async () => {
    const { outcomes } = await play(createRandomProvider({ seed: 42 }), { ticks: 300, maxTurns: 150 });
    expect(outcomes.length).toBeGreaterThan(10);
    expect(outcomes.every((o) => o.outcome === 'answered' || o.outcome === 'loop_detected')).toBe(true);
    const stats = minimolt!.stats();
    expect(stats.players).toHaveLength(1);
    expect(stats.players[0]!.leaks).toBe(0);
  });
});

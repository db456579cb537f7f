// The autopilot through the real agent loop (runTurn, context building with stubs) and the real game layer
// (connectGame: credential capture, [saved], secret guard) on minimolt in-process, turbo.
import { afterEach, expect, it } from 'vitest';
import { connectGame, type GameConnection } from '../../internal/game/index.js';
import { createHistory, runTurn } from '../../internal/llm/index.js';
import { createAutopilotProvider } from '../../internal/provider/builtin/index.js';
import type { CredentialStore } from '../../internal/shared/index.js';
import { createMinimolt, type Minimolt } from '../../internal/sim/index.js';

let minimolt: Minimolt | undefined;
let game: GameConnection | undefined;

afterEach(async () => {
  await game?.close();
  await minimolt?.close();
});

function memoryCredentials(): CredentialStore & { all: Map<string, string> } {
  const all = new Map<string, string>();
  let last: string | undefined;
  let list: readonly string[] = [];
  return {
    all,
    get: (url, username) =>
      Promise.resolve(
        all.has(`${url} ${username}`) ? { username, password: all.get(`${url} ${username}`)! } : undefined,
      ),
    latest: (url) =>
      Promise.resolve(
        last && all.has(`${url} ${last}`) ? { username: last, password: all.get(`${url} ${last}`)! } : undefined,
      ),
    put: (url, username, password) => {
      all.set(`${url} ${username}`, password);
      last = username;
      list = Object.freeze([...all.values()]);
      return Promise.resolve();
    },
    passwordList: () => list,
  };
}

it('autopilot plays 150 ticks through the real loop and game layer: every turn answered, net worth up, no leaks', async () => {
  const mm = await createMinimolt({ tickMs: 0, worldDb: ':memory:', seed: 42 });
  minimolt = mm;
  const credentials = memoryCredentials();
  game = await connectGame({
    target: { kind: 'transport', label: 'embedded', url: 'embedded://test', connect: () => mm.connect() },
    credentials,
    registrationCode: mm.registrationCode,
  });
  const tools = await game.listTools();
  const history = createHistory();
  const provider = createAutopilotProvider({ seed: 9 });
  const outcomes: string[] = [];
  for (let turn = 1; turn <= 200 && mm.tick < 150; turn += 1) {
    const result = await runTurn({
      provider,
      game,
      tools,
      history,
      turn,
      input: { kind: 'autoplay', text: `Autoplay turn ${turn}. Goal: earn credits.` },
      systemPrompt: 'You are the captain.',
    });
    outcomes.push(result.outcome);
    if (result.outcome === 'answered') expect(result.answer).not.toContain('\n');
  }
  expect(mm.tick).toBeGreaterThanOrEqual(150);
  expect(outcomes.filter((o) => o !== 'answered')).toEqual([]);
  const me = mm.stats().players[0]!;
  expect(me.net_worth).toBeGreaterThan(1000);
  expect(me.leaks).toBe(0);
  expect(me.errors.invalid_params ?? 0).toBe(0);
  const password = [...credentials.all.values()][0]!;
  expect(password).toMatch(/^[0-9a-f]{64}$/);
  const transcript = JSON.stringify(history.snapshot());
  expect(transcript).not.toContain(password);
  expect(transcript).toContain('[saved]');
});

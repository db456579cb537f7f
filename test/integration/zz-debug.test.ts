import { it } from 'vitest';
import { createAutopilotProvider } from '../../internal/provider/builtin/index.js';
import { createMinimolt } from '../../internal/sim/index.js';
import { SimGame, TestSession, playTurn } from '../fakes/sim-game.js';
it('debug', async () => {
  const minimolt = await createMinimolt({ tickMs: 0, worldDb: ':memory:', seed: 42 });
  const game = await SimGame.connect(minimolt, { face: 'v2' });
  const session = new TestSession();
  const provider = createAutopilotProvider({ seed: 42 });
  for (let turn = 1; turn <= 12; turn += 1) {
    const o = await playTurn({ provider, game, session, prompt: `Autoplay turn ${turn}. Goal: earn credits.` });
    console.log('TURN', turn, o.outcome, o.answer);
  }
  for (const m of session.history.slice(-60)) {
    if (m.role === 'assistant') console.log('A', m.content, (m.toolCalls ?? []).map((c) => c.arguments).join(' '));
    if (m.role === 'tool') console.log('T', m.content.slice(0, 160).replace(/\n/g, ' / '));
  }
  await game.close(); await minimolt.close();
});

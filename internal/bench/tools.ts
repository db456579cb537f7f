// `npm run bench -- tools`: what the tool list costs per request on each SpaceMolt face minimolt serves, as the game
// layer lists it to a model (its own descriptions and schemas), before and after the turn fits it to a quarter of the
// default 16k context. Tokens are chars ÷ 4, the estimate the context builder uses.
import { fitToolList, toolTokens } from '../llm/index.js';
import { createMinimolt } from '../sim/index.js';
import { openStore } from '../store/index.js';
import { connectCaptainGame, serverClock } from '../session/index.js';
import { silentLogger } from '../shared/index.js';
import type { BenchFigure } from './types.js';

const CONTEXT = 16_000;

export async function benchTools(): Promise<BenchFigure[]> {
  const sim = await createMinimolt({ tickMs: 0, worldDb: ':memory:' });
  const store = await openStore({ path: ':memory:' });
  const figures: BenchFigure[] = [];
  try {
    for (const face of ['v2', 'v1'] as const) {
      const game = await connectCaptainGame({
        game: {
          target: {
            kind: 'transport',
            label: 'embedded',
            url: `embedded://${face}`,
            connect: () => sim.connect({ face }),
          },
          label: 'embedded',
          clock: serverClock(() => sim.tick, 0),
        },
        credentials: store.credentials,
        secrets: [],
        logger: silentLogger,
      });
      try {
        const tools = await game.listTools();
        const fitted = fitToolList(tools, CONTEXT / 4);
        figures.push({
          part: 'tools',
          name: `tool-schema tokens per request, minimolt ${face} face`,
          value: fitted.tokens,
          unit: 'tokens',
          target: CONTEXT / 4,
          better: 'lower',
          note:
            `${tools.length} tools, ${toolTokens(tools)} tokens as listed, ${fitted.tokens} as sent` +
            `${fitted.hidden.length ? ` (${fitted.hidden.length} behind game_tools)` : ''}; target a quarter of a ${CONTEXT}-token context`,
        });
      } finally {
        await game.close();
      }
    }
  } finally {
    await store.close();
    await sim.close();
  }
  return figures;
}

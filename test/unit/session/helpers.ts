// A SessionRunner for autoplay unit tests: no store (usage, snapshots and turns go nowhere), an in-memory history, the
// given provider and fake game.
import { createHistory } from '../../../internal/llm/index.js';
import { SessionRunner, type RunnerStore } from '../../../internal/session/index.js';
import { silentLogger, type Provider } from '../../../internal/shared/index.js';
import type { FakeGame } from '../../fakes/fake-game.js';

const nullStore: RunnerStore = {
  recordUsage: async () => {},
  recordSnapshot: async () => {},
  recordTurn: async () => {},
};

export function testRunner(options: { provider: Provider; game: FakeGame }): SessionRunner {
  const { provider, game } = options;
  return new SessionRunner({
    sessionId: 's',
    sessionName: 'test',
    store: nullStore,
    history: createHistory(),
    provider,
    game,
    tools: game.specs(),
    systemPrompt: () => 'test',
    maxRounds: 5,
    logger: silentLogger,
  });
}

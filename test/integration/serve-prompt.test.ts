// The game's paragraph of the system prompt comes from the profile detected from the server's tools, not from its
// label (issue 47): minimolt served by `skipper serve` speaks SpaceMolt's faces, so a captain playing it by URL — a
// label that names no game — is sent SpaceMolt's paragraph, on either face, in the request the model gets.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerServeCommand } from '../../internal/cli/serve.js';
import { connectGame, parseGameTarget, targetLabel } from '../../internal/game/index.js';
import { setUpSession } from '../../internal/session/index.js';
import { silentLogger, type CompletionRequest } from '../../internal/shared/index.js';
import { SPACEMOLT_PROMPT } from '../../internal/spacemolt/index.js';
import { openStore } from '../../internal/store/index.js';
import { ScriptedProvider } from '../fakes/scripted-provider.js';

/** The system message the model is sent on its first turn against the game at `url`. */
async function firstSystemMessage(url: string, registrationCode: string): Promise<{ label: string; system: string }> {
  const store = await openStore({ path: ':memory:' });
  const target = parseGameTarget(url);
  const game = await connectGame({ target, credentials: store.credentials, registrationCode });
  try {
    const tools = await game.listTools();
    const label = targetLabel(target);
    const session = await store.createSession({ game: label, model: 'scripted', goal: 'earn credits' });
    const requests: CompletionRequest[] = [];
    const provider = new ScriptedProvider([
      (request) => {
        requests.push(request);
        return { content: 'Looking around.' };
      },
    ]);
    const { runner } = await setUpSession({
      store,
      session,
      provider,
      game,
      tools,
      gameLabel: label,
      goal: () => 'earn credits',
      maxRounds: 2,
      memory: false,
      logger: silentLogger,
    });
    await runner.run({ kind: 'user', text: 'Start.' });
    return { label, system: requests[0]?.messages[0]?.content ?? '' };
  } finally {
    await game.close();
    await store.close();
  }
}

describe('the prompt of a captain playing `skipper serve`', () => {
  it('is SpaceMolt’s on both faces, though the label is a URL', async () => {
    const seen: Array<{ label: string; system: string }> = [];
    const root = new Command('skipper').exitOverride();
    registerServeCommand(root, {
      stdout: { write: () => true },
      stopSignal: async ({ url, v2Url, registrationCode }) => {
        seen.push(await firstSystemMessage(v2Url, registrationCode));
        seen.push(await firstSystemMessage(url, registrationCode));
        return 'SIGTERM';
      },
    }).exitOverride();
    await root.parseAsync(['node', 'skipper', 'serve', '--port', '0', '--tick-ms', '100']);
    expect(seen).toHaveLength(2);
    for (const { label, system } of seen) {
      expect(label).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp/);
      expect(label).not.toMatch(/spacemolt|minimolt|embedded/i);
      expect(system).toContain(SPACEMOLT_PROMPT);
      expect(system).not.toContain('Use the tools it offers');
    }
  }, 30_000);
});

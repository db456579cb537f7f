// Wiring of play: flags -> config -> logger -> store -> provider -> game -> session -> chat or autoplay. Each step
// (play-setup, play-session, play-modes) hands down what it built, and what must be closed goes on one list of
// cleanups, closed in reverse order however the run ends. The commands over stored sessions are wired apart, in
// ./store-commands.ts, so that they do not load what play needs.
import { modelConfigFor, openGame, openProviders, resolvePlay, type Cleanup, type PlayFlags } from './play-setup.js';
import { openSession } from './play-session.js';
import { runAutoplayMode, runChatMode } from './play-modes.js';

export type { PlayFlags } from './play-setup.js';

export async function runPlay(flags: PlayFlags): Promise<number> {
  const cleanups: Cleanup[] = [];
  try {
    const base = await resolvePlay(flags, cleanups);
    const { make, provider } = openProviders(base);
    const opened = await openGame(base, provider, cleanups);
    const open = await openSession(base, opened, provider, cleanups);
    const run = {
      base,
      opened,
      open,
      makeProvider: make,
      makeFlier: () => make(modelConfigFor(base.config, 'builtin/autopilot')),
    };
    return base.autoplay ? await runAutoplayMode(run) : await runChatMode(run);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

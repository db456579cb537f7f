// The play command: flags -> config -> logger -> store -> provider -> the captain (openPlayCaptain over openCaptain)
// -> chat or autoplay. What must be closed goes on one list of cleanups, closed in reverse order however the run ends.
// The commands over stored sessions are wired apart (./session-commands.ts), so that they do not load what play needs.
import { openProviders, resolvePlay, type Cleanup, type PlayFlags } from './play-setup.js';
import { openPlayCaptain } from './play-session.js';
import { runAutoplayMode, runChatMode } from './play-modes.js';

export type { PlayFlags } from './play-setup.js';

export async function runPlay(flags: PlayFlags): Promise<number> {
  const cleanups: Cleanup[] = [];
  try {
    const base = await resolvePlay(flags, cleanups);
    const { make, provider } = openProviders(base);
    const captain = await openPlayCaptain({ base, provider, make, cleanups });
    const run = { base, captain, makeProvider: make };
    return base.autoplay ? await runAutoplayMode(run) : await runChatMode(run);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

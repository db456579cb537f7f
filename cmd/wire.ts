// Wiring: flags -> config -> logger -> store -> provider -> game -> session -> chat or autoplay. With program.ts the
// only place that imports every module; each step (play-setup, play-session, play-modes) hands down what it built,
// and what must be closed goes on one list of cleanups, closed in reverse order however the run ends.
import type { Command } from 'commander';
import { openExistingHomeStore, openHomeStore, openHomeStoreForReading } from '../internal/cli/home.js';
import { collectSecrets, type SecretList } from '../internal/cli/secrets.js';
import { resolveConfig, type ResolvedConfig } from '../internal/cli/config.js';
import { registerStoreCommands } from '../internal/cli/sessions.js';
import { registerBenchCommand } from '../internal/cli/bench-command.js';
import { registerMemoryCommand } from '../internal/cli/memory-command.js';
import { registerReportCommand } from '../internal/cli/report.js';
import type { Store } from '../internal/store/index.js';
import type { StoreAccess } from '../internal/cli/sessions.js';
import {
  configSecrets,
  env,
  modelConfigFor,
  openGame,
  openProviders,
  resolvePlay,
  type Cleanup,
  type PlayFlags,
} from './play-setup.js';
import { openSession } from './play-session.js';
import { runAutoplayMode, runChatMode } from './play-modes.js';

export type { PlayFlags } from './play-setup.js';

export async function runPlay(flags: PlayFlags): Promise<number> {
  const cleanups: Cleanup[] = [];
  try {
    const base = resolvePlay(flags, cleanups);
    const { make, provider } = openProviders(base);
    const opened = await openGame(base, provider, cleanups);
    const open = openSession(base, opened, provider, cleanups);
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

export function registerSessionCommands(program: Command): void {
  const configAt = (home: string | undefined): ResolvedConfig => resolveConfig({ ...(home ? { home } : {}) }, env());
  const openStoreAt = (home: string | undefined, options: StoreAccess = {}): Store => {
    const config = configAt(home);
    const where = config.database ? { database: config.database } : {};
    if (options.readonly) return openHomeStoreForReading(config.home, config.database);
    return options.existing ? openExistingHomeStore(config.home, where) : openHomeStore(config.home, where);
  };
  const secretsAt = (store: Store, home: string | undefined): SecretList =>
    collectSecrets({ ...configSecrets(configAt(home)), store });
  registerStoreCommands(program, { openStore: openStoreAt, secrets: secretsAt });
  registerMemoryCommand(program, { openStore: openStoreAt });
  registerReportCommand(program, { openStore: openStoreAt });
  registerBenchCommand(program, { env });
}

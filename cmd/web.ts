// Wiring of `skipper web`: the command lives in internal/web; here it gets the home's store (resolved like every
// other command's: --home, SKIPPER_HOME, the XDG data dir), which must exist already.
import type { Command } from 'commander';
import { openExistingHomeStore } from '../internal/cli/home.js';
import { resolveConfig } from '../internal/cli/config.js';
import { registerWebCommand } from '../internal/web/index.js';
import { env } from './config-secrets.js';

export function registerWeb(program: Command): void {
  registerWebCommand(program, {
    openStore: (home) => {
      const config = resolveConfig({ ...(home ? { home } : {}) }, env());
      return openExistingHomeStore(config.home, config.database ? { database: config.database } : {});
    },
  });
}

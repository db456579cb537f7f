// The commands over stored sessions (sessions, replay, eval, export, rm…, memory, report): each opens the store of the
// home it is given, with the secrets of that home's config to redact. Wired apart from the play wiring (./wire.ts), so
// that they do not load the game, minimolt or the bench.
import type { Command } from 'commander';
import { openExistingHomeStore, openHomeStore, openHomeStoreForReading } from '../internal/cli/home.js';
import { collectSecrets, type SecretList } from '../internal/cli/secrets.js';
import { resolveConfig, type ResolvedConfig } from '../internal/cli/config.js';
import { registerStoreCommands, type StoreAccess } from '../internal/cli/sessions.js';
import { registerMemoryCommand } from '../internal/cli/memory-command.js';
import { registerReportCommand } from '../internal/cli/report.js';
import type { Store } from '../internal/store/index.js';
import { configSecrets, env } from './config-secrets.js';

export function registerSessionCommands(program: Command): void {
  const configAt = (home: string | undefined): ResolvedConfig => resolveConfig({ ...(home ? { home } : {}) }, env());
  const openStoreAt = async (home: string | undefined, options: StoreAccess = {}): Promise<Store> => {
    const config = configAt(home);
    const where = config.database ? { database: config.database } : {};
    if (options.readonly) return await openHomeStoreForReading(config.home, config.database);
    return options.existing ? await openExistingHomeStore(config.home, where) : await openHomeStore(config.home, where);
  };
  const secretsAt = (store: Store, home: string | undefined): Promise<SecretList> =>
    collectSecrets({ ...configSecrets(configAt(home)), store });
  registerStoreCommands(program, { openStore: openStoreAt, secrets: secretsAt });
  registerMemoryCommand(program, { openStore: openStoreAt });
  registerReportCommand(program, { openStore: openStoreAt });
}

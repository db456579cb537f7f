// The commands over stored sessions (sessions, replay, eval, export, rm…, memory, report): each opens the store of the
// --home and --db it is given (./store-place.ts), with the secrets of that home's config to redact. Wired apart from
// the play wiring (./wire.ts), so that they do not load the game, minimolt or the bench.
import type { Command } from 'commander';
import { collectSecrets, type SecretList } from './secrets.js';
import { registerStoreCommands } from './sessions.js';
import { registerMemoryCommand } from './memory-command.js';
import { registerReportCommand } from './report.js';
import { urlCredentials, type Store } from '../store/index.js';
import { configSecrets } from './config-secrets.js';
import { configAt, openStoreAt } from './store-at.js';
import { pgUrlWithoutPassword, type StorePlace } from '../shared/index.js';

export function registerSessionCommands(program: Command): void {
  const secretsAt = async (store: Store, place: StorePlace): Promise<SecretList> => {
    const config = configAt(place);
    const secrets = await collectSecrets({ ...configSecrets(config), store });
    // The database's password, should a stored text hold it (its user name alone is no secret).
    const database = config.database;
    if (database && pgUrlWithoutPassword(database) !== database) secrets.add(...urlCredentials(database));
    return secrets;
  };
  registerStoreCommands(program, { openStore: openStoreAt, secrets: secretsAt });
  registerMemoryCommand(program, { openStore: openStoreAt });
  registerReportCommand(program, { openStore: openStoreAt });
}

// Wiring of `skipper web`: the command lives in internal/web; here it gets the store of its --home and --db
// (./store-place.ts, as every other command resolves them), which must exist already.
import type { Command } from 'commander';
import { registerWebCommand } from '../internal/web/index.js';
import { openStoreAt } from '../internal/cli/store-at.js';

export function registerWeb(program: Command): void {
  registerWebCommand(program, { openStore: (place) => openStoreAt(place, { existing: true }) });
}

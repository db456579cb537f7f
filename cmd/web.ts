// Wiring of `skipper web`: the command lives in internal/web; here it gets the store of its --home and --db
// (./store-place.ts, as every other command resolves them), made when missing: the bridge may start before the
// first captain, and shows captains as they appear.
import type { Command } from 'commander';
import { registerWebCommand } from '../internal/web/index.js';
import { openStoreAt } from '../internal/cli/store-at.js';

export function registerWeb(program: Command): void {
  registerWebCommand(program, { openStore: (place) => openStoreAt(place) });
}

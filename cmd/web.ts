// The card of `skipper web` (internal/web cannot import internal/cli, which says where a command's store is): its
// stub from the web room's light module, and, when the command runs, the bridge given the store of its --home and --db
// (made when missing: the bridge starts on an empty home and shows captains as they appear).
import type { CommandCard } from '../internal/cli/index.js';
import { WEB } from '../internal/web/command-stub.js';

export const WEB_CARD: CommandCard = {
  stubs: [WEB],
  register: async (program) => {
    const [{ registerWebCommand }, { openStoreAt }] = await Promise.all([
      import('../internal/web/index.js'),
      import('../internal/cli/store-at.js'),
    ]);
    registerWebCommand(program, { openStore: (place) => openStoreAt(place) });
  },
};

// The store bench's replay/export process (forked by benchStore): a fresh process, as `skipper replay` and
// `skipper export` run, so its peak RSS is what a person would see. Figures go back over IPC.
import { replayAndExport } from './store.js';

const [file, count] = process.argv.slice(2);
if (!file) throw new Error('usage: store-child.js FILE COUNT');
process.send?.(await replayAndExport(file, Number(count ?? 100_000)));
process.disconnect?.();

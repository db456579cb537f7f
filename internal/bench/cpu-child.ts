// The CPU part's own process (forked by benchCpu): runs it and sends the figures back over IPC.
import { runCpu } from './cpu.js';

const ticks = Number(process.argv[2] ?? 1000);
const figures = await runCpu({
  ticks: Number.isInteger(ticks) && ticks > 0 ? ticks : 1000,
  memory: !process.argv.includes('--no-memory'),
});
process.send?.(figures);
process.disconnect?.();

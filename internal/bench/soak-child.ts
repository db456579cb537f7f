// The soak's own process (forked by benchSoak): runs one row and sends the figures back over IPC.
import { SOAK_TURNS, runSoak } from './soak.js';

const turns = Number(process.argv[2] ?? SOAK_TURNS);
const figures = await runSoak({
  turns: Number.isInteger(turns) && turns > 0 ? turns : SOAK_TURNS,
  memory: process.argv.includes('--memory'),
});
process.send?.(figures);
process.disconnect?.();

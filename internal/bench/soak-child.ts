// The soak's own process (forked by benchSoak): runs it and sends the figures back over IPC.
import { runSoak } from './soak.js';

const turns = Number(process.argv[2] ?? 10_000);
const figures = await runSoak({ turns: Number.isInteger(turns) && turns > 0 ? turns : 10_000, memory: process.argv.includes('--memory') });
process.send?.(figures);
process.disconnect?.();

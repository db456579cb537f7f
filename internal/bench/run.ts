// `npm run bench [-- PART…]`: runs the benchmark parts and prints one table of figures, each next to its target and
// as a ratio (>= 1 means the target is met). Figures are measured on this machine, never hard-coded.
import { formatTable } from './figure-table.js';
import type { BenchFigure, BenchPart } from './types.js';

const PARTS: Record<string, () => Promise<BenchPart>> = {
  sim: async () => (await import('./sim.js')).benchSim,
  loop: async () => (await import('./loop.js')).benchLoop,
  store: async () => (await import('./store.js')).benchStore,
  memory: async () => (await import('./memory.js')).benchMemory,
  autopilot: async () => (await import('./autopilot.js')).benchAutopilot,
  soak: async () => (await import('./soak.js')).benchSoak,
  tools: async () => (await import('./tools.js')).benchTools,
  cpu: async () => (await import('./cpu.js')).benchCpu,
  planner: async () => (await import('./planner.js')).benchPlanner,
  tokens: async () => (await import('./tokens-diet.js')).benchTokens,
};

async function main(argv: string[]): Promise<number> {
  const wanted = argv.filter((arg) => !arg.startsWith('-'));
  const names = wanted.length > 0 ? wanted : Object.keys(PARTS);
  const unknown = names.filter((name) => !(name in PARTS));
  if (unknown.length > 0) {
    process.stderr.write(`unknown benchmark part(s): ${unknown.join(', ')}; known: ${Object.keys(PARTS).join(', ')}\n`);
    return 2;
  }
  const figures: BenchFigure[] = [];
  const started = Date.now();
  for (const name of names) {
    const load = PARTS[name];
    if (!load) continue;
    process.stderr.write(`bench: ${name}…\n`);
    const partStarted = Date.now();
    try {
      const part = await load();
      const result = await part();
      figures.push(...result);
      process.stderr.write(`bench: ${name} done in ${((Date.now() - partStarted) / 1000).toFixed(1)} s\n`);
    } catch (error) {
      process.stderr.write(`bench: ${name} failed: ${(error as Error).message}\n`);
    }
  }
  process.stdout.write(
    `\nSkipper performance figures (${new Date().toISOString()}, node ${process.version}, ${((Date.now() - started) / 1000).toFixed(0)} s)\n\n`,
  );
  for (const line of formatTable(figures)) process.stdout.write(`${line}\n`);
  for (const figure of figures)
    if (figure.note) process.stdout.write(`  note (${figure.part} / ${figure.name}): ${figure.note}\n`);
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(figures)}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));

// `npm run bench [-- PART…]`: runs the benchmark parts and prints one table of figures, each next to its target and
// as a ratio (>= 1 means the target is met). Figures are measured on this machine, never hard-coded.
import { formatTable } from './figure-table.js';
import { snakeCaseKeys } from './json.js';
import type { BenchFigure, BenchPart } from './types.js';

const PARTS: Record<string, () => Promise<BenchPart>> = {
  sim: async () => (await import('./sim.js')).benchSim,
  loop: async () => (await import('./loop.js')).benchLoop,
  store: async () => (await import('./store-pg.js')).benchStoreBoth,
  memory: async () => (await import('./memory.js')).benchMemory,
  autopilot: async () => (await import('./autopilot.js')).benchAutopilot,
  drift: async () => (await import('./drift.js')).benchDrift,
  soak: async () => (await import('./soak.js')).benchSoak,
  tools: async () => (await import('./tools.js')).benchTools,
  cpu: async () => (await import('./cpu.js')).benchCpu,
  planner: async () => (await import('./planner.js')).benchPlanner,
  tokens: async () => (await import('./tokens-diet.js')).benchTokens,
  web: async () => (await import('./web.js')).benchWeb,
  fleet: async () => (await import('./fleet.js')).benchFleet,
  secrets: async () => (await import('./secrets.js')).benchSecrets,
};

/** What each part measures, for --help. */
const PART_HELP: Record<string, string> = {
  sim: 'minimolt: time per tick with 100 players, query calls/s over HTTP from 8 clients',
  loop: "Skipper's own time per round of a turn in sessions of 100, 10k and 100k messages",
  store:
    'SQLite append throughput, replay and export of a 100,000-message session, peak RSS; the same on PostgreSQL (BENCH_STORE_DATABASE_URL, BENCH_STORE_PG_APPEND, BENCH_STORE_PG_MESSAGES)',
  memory: 'captain memory retrieval per turn over 10,000 entries, and the cold first read',
  autopilot: 'the built-in autopilot against the random floor: net-worth gain per 100 ticks',
  drift:
    "the autopilot's gain on minimolt answering as other game versions would (--drift 1..7) ÷ its gain without, on /mcp/v2 and /mcp",
  soak: 'thousands of autopilot turns in one session, with captain memory on and off',
  tools: 'tokens the tool list costs per request on each SpaceMolt face, before and after fitting',
  cpu: 'process CPU time per game action for the autopilot',
  planner: 'planner mode against the pure autopilot: gain and model requests',
  tokens: 'the token diet: prompt tokens and requests per action a model would be sent',
  fleet:
    '50 autopilot captains in one `skipper fleet` process vs 50 processes: utilisation, RSS, CPU/action, logins, ' +
    'event-loop delay; the same fleet on PostgreSQL beside SQLite (BENCH_FLEET_DATABASE_URL, else ' +
    'BENCH_STORE_DATABASE_URL) (smaller: BENCH_FLEET_CAPTAINS, BENCH_FLEET_TICKS, BENCH_FLEET_TICK_MS; ' +
    "the fleet alone: BENCH_FLEET_PROCESSES=0; a parked captain's memory beside it for BENCH_FLEET_PARKED_S, 600 s, 0 leaves it out)",
  web: "the bridge page's first paint in Chromium over 200 sessions and 100,000 stored messages",
  secrets: 'the secret guard (revealsSecret) on a 30 KB outgoing text: every call a captain makes passes through it',
};

function helpText(): string {
  const width = Math.max(...Object.keys(PARTS).map((name) => name.length));
  return [
    'Usage: npm run bench [-- [PART…] [--json]]',
    '',
    'Runs the benchmark parts (all of them when none is named; the whole set takes minutes) and prints one table of',
    'figures, each next to its target and as a ratio (>= 1 means the target is met).',
    '',
    'Parts:',
    ...Object.keys(PARTS).map((name) => `  ${name.padEnd(width)}  ${PART_HELP[name] ?? ''}`),
    '',
    'Options:',
    '  --json      also print the figures as one JSON array',
    '  -h, --help  this help',
    '',
    'Example: npm run bench -- sim store --json',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${helpText()}\n`);
    return 0;
  }
  const badOptions = argv.filter((arg) => arg.startsWith('-') && arg !== '--json');
  if (badOptions.length > 0) {
    process.stderr.write(`unknown option(s): ${badOptions.join(', ')}; see npm run bench -- --help\n`);
    return 2;
  }
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
  for (const figure of figures) {
    if (figure.skipped) process.stdout.write(`  skipped (${figure.part} / ${figure.name}): ${figure.skipped}\n`);
    if (figure.note) process.stdout.write(`  note (${figure.part} / ${figure.name}): ${figure.note}\n`);
  }
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(snakeCaseKeys(figures))}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));

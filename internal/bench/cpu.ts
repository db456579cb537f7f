// `npm run bench -- cpu`: process CPU time (user + system, process.cpuUsage) per game action for the built-in
// autopilot through the shipped path — playCaptain: setUpSession + runAutoplay with captain memory on, the SQLite
// store a file in a temp dir (WAL) as in real play, minimolt turbo embedded — over 1,000 ticks on world seeds 42..44.
// A game action is a mutation call whose result was not an error (the autoplay summary's count, classified by the
// game layer). The embedded minimolt runs in this process, so its rules and its MCP server count too: a captain
// against a remote game spends less. Runs in a child process of its own, so nothing a part before it left (garbage,
// JIT state) lands on these figures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAutopilotProvider } from '../provider/builtin/index.js';
import { openStore } from '../store/index.js';
import { playCaptain, type CaptainResult } from './captain.js';
import { figuresFromChild } from './child.js';
import type { BenchFigure } from './types.js';

export interface CpuBenchOptions {
  ticks?: number;
  seeds?: number[];
  memory?: boolean;
}

export interface CpuRun {
  result: CaptainResult;
  cpuMs: number;
}

/** One captain run with its process CPU time (ms). */
export async function measureCpu(options: { seed: number; ticks: number; memory: boolean }): Promise<CpuRun> {
  const dir = mkdtempSync(join(tmpdir(), 'skipper-bench-cpu-'));
  const store = await openStore({ path: join(dir, 'skipper.db') });
  try {
    const from = process.cpuUsage();
    const result = await playCaptain({
      store,
      provider: createAutopilotProvider({ seed: options.seed }),
      scenario: 'grind',
      seed: options.seed,
      ticks: options.ticks,
      memory: options.memory,
    });
    const used = process.cpuUsage(from);
    return { result, cpuMs: (used.user + used.system) / 1000 };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures, measured in this process. */
export async function runCpu(options: CpuBenchOptions = {}): Promise<BenchFigure[]> {
  const ticks = options.ticks ?? 1000;
  const seeds = options.seeds ?? [42, 43, 44];
  const memory = options.memory !== false;
  const runs: CpuRun[] = [];
  for (const seed of seeds) runs.push(await measureCpu({ seed, ticks, memory }));
  const cpuMs = runs.reduce((sum, run) => sum + run.cpuMs, 0);
  const actions = runs.reduce((sum, run) => sum + run.result.actions, 0);
  const turns = runs.reduce((sum, run) => sum + run.result.turns, 0);
  const calls = runs.reduce((sum, run) => sum + run.result.toolCalls, 0);
  const perRun = runs
    .map(
      ({ result, cpuMs: ms }) =>
        `seed ${result.seed}: ${result.actions} actions, ${result.turns} turns, ${result.ticks} ticks, ` +
        `${(ms / Math.max(1, result.actions)).toFixed(2)} ms/action, ${(result.wallMs / 1000).toFixed(1)} s wall`,
    )
    .join('; ');
  return [
    {
      part: 'cpu',
      name: 'CPU per game action, autopilot',
      value: actions > 0 ? cpuMs / actions : cpuMs,
      unit: 'ms',
      better: 'lower',
      note:
        `process CPU (user + system) over playCaptain (setUpSession + runAutoplay, SQLite file store, captain memory ` +
        `${memory ? 'on' : 'off'}, embedded minimolt turbo in the same process), ${ticks} ticks on seeds ${seeds.join(', ')}; ` +
        `an action = a mutation call whose result was not an error; ${perRun}`,
    },
    {
      part: 'cpu',
      name: 'CPU per tool call, autopilot',
      value: calls > 0 ? cpuMs / calls : cpuMs,
      unit: 'ms',
      better: 'lower',
      note: `${calls} tool calls (queries and actions) over ${turns} turns`,
    },
  ];
}

/** `npm run bench -- cpu`: the runs in a fresh child process (./cpu-child.js), figures back over IPC. */
export async function benchCpu(options: CpuBenchOptions = {}): Promise<BenchFigure[]> {
  const args = [String(options.ticks ?? 1000), ...(options.memory === false ? ['--no-memory'] : [])];
  return figuresFromChild(new URL('./cpu-child.js', import.meta.url), args);
}

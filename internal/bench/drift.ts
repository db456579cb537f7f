// `npm run bench -- drift`: the built-in autopilot's gain on minimolt answering as other game versions would
// (`skipper serve --drift SEED`: renamed, reordered and extra columns, a table left out, a get_map nobody can read,
// refusals in words, another greeting, renamed JSON keys), as a ratio to its gain on the same world without drift, same
// world seed and ticks — on each face: /mcp/v2 (text dashboards) and /mcp (JSON, session_id on every call). Played
// through the real captain (SessionRunner + runAutoplay over the real game connection), turbo ticks. Target: the mean
// ratio over the drift seeds ≥ 0.8 on both faces; the worst seed is printed beside it.
import { createAutopilotProvider } from '../provider/builtin/index.js';
import { playCaptain, type CaptainResult } from './captain.js';
import type { BenchFigure } from './types.js';

export interface DriftBenchOptions {
  /** Drift seeds to play (each a different "game version"). */
  drifts?: readonly number[];
  ticks?: number;
  worldSeed?: number;
}

type Face = 'v1' | 'v2';

const FACE_LABEL: Readonly<Record<Face, string>> = { v2: '/mcp/v2 text', v1: '/mcp JSON' };

async function play(face: Face, options: { drift?: number; ticks: number; worldSeed: number }): Promise<CaptainResult> {
  return playCaptain({
    provider: createAutopilotProvider({ seed: options.worldSeed }),
    scenario: 'grind',
    seed: options.worldSeed,
    ticks: options.ticks,
    memory: false,
    face,
    ...(options.drift !== undefined ? { drift: options.drift } : {}),
  });
}

const gain = (result: CaptainResult): number => result.netWorthEnd - result.netWorthStart;

async function benchFace(face: Face, options: Required<DriftBenchOptions>): Promise<BenchFigure> {
  const { drifts, ticks, worldSeed } = options;
  const plain = gain(await play(face, { ticks, worldSeed }));
  const ratios: Array<{ drift: number; gain: number; ratio: number }> = [];
  for (const drift of drifts) {
    const drifted = gain(await play(face, { drift, ticks, worldSeed }));
    ratios.push({ drift, gain: drifted, ratio: plain > 0 ? drifted / plain : 0 });
  }
  const mean = ratios.reduce((sum, r) => sum + r.ratio, 0) / Math.max(1, ratios.length);
  const worst = ratios.reduce(
    (low, r) => (r.ratio < low.ratio ? r : low),
    ratios[0] ?? { drift: 0, gain: 0, ratio: 0 },
  );
  return {
    part: 'drift',
    name: `autopilot gain under drift ÷ without (${FACE_LABEL[face]}, mean of ${ratios.length} drift seeds)`,
    value: mean,
    unit: '×',
    better: 'higher',
    target: 0.8,
    note:
      `world seed ${worldSeed}, ${ticks} turbo ticks; without drift +${plain.toFixed(0)} cr; ` +
      ratios.map((r) => `drift ${r.drift}: +${r.gain.toFixed(0)} (${r.ratio.toFixed(2)})`).join(', ') +
      `; worst drift ${worst.drift} at ${worst.ratio.toFixed(2)}`,
  };
}

export async function benchDrift(options: DriftBenchOptions = {}): Promise<BenchFigure[]> {
  const resolved: Required<DriftBenchOptions> = {
    drifts: options.drifts ?? [1, 2, 3, 4, 5, 6, 7],
    ticks: options.ticks ?? 600,
    worldSeed: options.worldSeed ?? 42,
  };
  return [await benchFace('v2', resolved), await benchFace('v1', resolved)];
}

// `npm run bench -- secrets`: the secret guard's time on one long outgoing text. Every call a captain makes passes
// through revealsSecret, so a 30 KB memory entry (the longest a captain writes) must be checked well within a turn;
// this figure was a unit test's 200 ms ceiling, which a busy machine could fail without anything being wrong.
import { revealsSecret } from '../game/index.js';
import { createSeededRng } from '../spacemolt/index.js';
import type { BenchFigure } from './types.js';

const PASSWORD = '3f1c9a7be0d24c6f8a5e19b7c3d0f2a4e6b8c1d3f5a7092b4d6e8f0a1c3e5b79';
const WORDS = ['mined', 'sold', 'iron', 'ore', 'credits', 'at', 'station', 'jumped', 'to', 'sol', 'tick', 'route'];
const RUNS = 20;

/** A seeded 30 KB log: words and 40-digit hex ids, nothing that is a secret. */
function longEntry(): string {
  const rng = createSeededRng(7);
  return Array.from({ length: 500 }, () => `${rng.pick(WORDS)} ${rng.hex(40)}`)
    .join('\n')
    .slice(0, 30_000);
}

export async function benchSecrets(): Promise<BenchFigure[]> {
  const entry = longEntry();
  const secrets = [PASSWORD, 'sk-live-ABCDEF0123456789xyz'];
  const recent = 'x'.repeat(2000);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    if (revealsSecret({ entry }, secrets, recent)) throw new Error('the secret guard refused a text with no secret');
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  return [
    {
      part: 'secrets',
      name: 'secret guard on a 30 KB outgoing text (median)',
      value: Math.round(median * 10) / 10,
      unit: 'ms',
      target: 200,
      better: 'lower',
      note: `${RUNS} runs, slowest ${times.at(-1)?.toFixed(1)} ms; two secrets and 2,000 characters of recent text`,
    },
  ];
}

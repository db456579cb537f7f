// The --json form of the benchmarks' output (`skipper bench --json`, its results.json, `npm run bench -- --json`):
// every field name in snake_case, like every other --json output of Skipper (README, "For scripts").
import { snakeCaseKeys, type SnakeCased } from '../shared/index.js';
import type { BenchResults } from './bench.js';

// The snake_case converter is the shared vocabulary's (shared/vocabulary.ts); bench's callers import it from here too.
export { snakeCase, snakeCaseKeys, type SnakeCased, type SnakeName } from '../shared/index.js';

/** A bench's results as `skipper bench --json` prints them and results.json holds them. */
export type BenchResultsJson = SnakeCased<BenchResults>;

export function benchResultsJson(results: BenchResults): BenchResultsJson {
  return snakeCaseKeys(results);
}

// The built-in providers: `builtin/autopilot` (a competent non-LLM SpaceMolt/minimolt captain, on either MCP face)
// and `builtin/random` (the benchmark floor). Both answer through the shared Provider interface, indistinguishable from a model for the loop.
import type { Provider } from '../../shared/index.js';
import { AutopilotProvider, type AutopilotOptions } from './autopilot.js';
import { RandomProvider } from './random.js';

export { AutopilotProvider, type AutopilotOptions } from './autopilot.js';
export { RandomProvider } from './random.js';
export { summarizeTurn } from './summary.js';
export { canAutopilot, type CanAutopilot } from './face.js';

export function createAutopilotProvider(options: AutopilotOptions = {}): Provider {
  return new AutopilotProvider(options);
}

/** Accepts `{seed}` or a bare seed number. */
export function createRandomProvider(options: { seed?: number } | number = {}): Provider {
  return new RandomProvider(typeof options === 'number' ? { seed: options } : options);
}

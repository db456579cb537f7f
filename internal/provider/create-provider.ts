// Picks the provider for a resolved model: the built-in autopilot/random policies, or the OpenAI-compatible one.
import type { Provider } from '../shared/index.js';
import type { FleetKnowledgePort } from '../spacemolt/index.js';
import type { EmpireId } from '../spacemolt/index.js';
import { createAutopilotProvider, createRandomProvider } from './builtin/index.js';
import { isBuiltinModel, type ModelConfig } from './models.js';
import { createOpenAIProvider, type OpenAIProviderOptions } from './openai-provider.js';

export interface CreateProviderOptions extends OpenAIProviderOptions {
  /** Seed for the built-in policies (reproducible runs and benchmarks). */
  seed?: number;
  /** The name the built-in policies register under (default: `captain_` + hex drawn from the seed). */
  username?: string;
  /** The fleet's shared knowledge, for a built-in captain of a fleet. */
  fleet?: FleetKnowledgePort;
  /** The empire the built-in autopilot registers with (solarian by default). */
  empire?: EmpireId;
}

export function createProvider(config: ModelConfig, options: CreateProviderOptions = {}): Provider {
  if (isBuiltinModel(config)) {
    const seed = options.seed !== undefined ? { seed: options.seed } : {};
    return config.builtin === 'autopilot'
      ? createAutopilotProvider({
          ...seed,
          ...(options.username ? { username: options.username } : {}),
          ...(options.fleet ? { fleet: options.fleet } : {}),
          ...(options.empire ? { empire: options.empire } : {}),
        })
      : createRandomProvider(seed);
  }
  const { seed: _seed, username: _username, fleet: _fleet, empire: _empire, ...openaiOptions } = options;
  return createOpenAIProvider(config, openaiOptions);
}

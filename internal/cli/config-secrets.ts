// What every command reads from outside itself: the environment, and the secrets a config names (its API key
// variables and registration codes), which are redacted wherever text is shown or stored. Light on purpose: the store
// commands use it without loading the play wiring.
import { readConfigFile, type ResolvedConfig } from './config.js';

export const env = (): Record<string, string | undefined> => process.env;

export function configSecrets(config: ResolvedConfig): {
  env: Record<string, string | undefined>;
  apiKeyEnvs: Array<string | undefined>;
  registrationCodes: Array<string | undefined>;
} {
  const file = readConfigFile(config.configFile);
  return {
    env: env(),
    apiKeyEnvs: [config.apiKeyEnv, file.apiKeyEnv],
    registrationCodes: [config.registrationCode, file.registrationCode],
  };
}

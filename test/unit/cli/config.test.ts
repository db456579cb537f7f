// Configuration precedence: flags > environment > config file > defaults, and validation of each source.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig, resolveHome } from '../../../internal/cli/config.js';
import { parseDuration } from '../../../internal/cli/flags.js';
import { UsageError } from '../../../internal/shared/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function home(file?: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'skipper-config-'));
  dirs.push(dir);
  if (file) writeFileSync(join(dir, 'config.json'), JSON.stringify(file));
  return dir;
}

describe('resolveConfig', () => {
  it('takes flags over the environment over the file over defaults, and says where each came from', () => {
    const dir = home({ model: 'ollama/from-file', game: 'spacemolt', tickMs: 250, captainsLog: false });
    const fromFile = resolveConfig({ home: dir }, {});
    expect(fromFile.model).toBe('ollama/from-file');
    expect(fromFile.game).toBe('spacemolt');
    expect(fromFile.tickMs).toBe(250);
    expect(fromFile.captainsLog).toBe(false);
    expect(fromFile.sources.model).toBe('file');
    const fromEnv = resolveConfig({ home: dir }, { SKIPPER_MODEL: 'groq/from-env', SKIPPER_TICK_MS: '100' });
    expect(fromEnv.model).toBe('groq/from-env');
    expect(fromEnv.tickMs).toBe(100);
    expect(fromEnv.sources.model).toBe('env');
    const fromFlag = resolveConfig(
      { home: dir, model: 'openai/from-flag', tickMs: 0 },
      { SKIPPER_MODEL: 'groq/from-env' },
    );
    expect(fromFlag.model).toBe('openai/from-flag');
    expect(fromFlag.tickMs).toBe(0);
    expect(fromFlag.sources.model).toBe('flag');
    const defaults = resolveConfig({ home: home() }, {});
    expect(defaults.model).toBeUndefined();
    expect(defaults.game).toBe('embedded');
    expect(defaults.tickMs).toBe(500);
    expect(defaults.maxRounds).toBe(20);
    expect(defaults.captainsLog).toBe(true);
  });

  it('refuses unknown settings and bad values in the file, naming them', () => {
    expect(() => resolveConfig({ home: home({ modle: 'x' }) }, {})).toThrow(/modle|Unrecognized/);
    expect(() => resolveConfig({ home: home({ systems: 3 }) }, {})).toThrow(/systems/);
    expect(() => resolveConfig({ home: home() }, { SKIPPER_TICK_MS: 'soon' })).toThrow(/SKIPPER_TICK_MS/);
  });

  it('says what is wrong with each setting, in the words of the source it came from', () => {
    const dir = home({ modle: 'x' });
    expect(() => resolveConfig({ home: dir }, {})).toThrow(
      `${dir}/config.json has invalid settings: "modle" is not a setting (the settings are: model, `,
    );
    expect(() => resolveConfig({ home: home({ tickMs: 'slow', systems: 3 }) }, {})).toThrow(
      /tickMs: must be a number, not "slow"; systems: must be at least 6$/,
    );
    expect(() => resolveConfig({ home: home({ toolClasses: { 'a.b.c': 'query' } }) }, {})).toThrow(
      /toolClasses: "a\.b\.c" is not a tool name or "tool\.action"/,
    );
    expect(() => resolveConfig({ home: home() }, { SKIPPER_TICK_MS: 'soon' })).toThrow(
      new UsageError('SKIPPER_TICK_MS=soon is not a number'),
    );
    expect(() => resolveConfig({ home: home() }, { SKIPPER_SEED: 'x' })).toThrow(
      new UsageError('SKIPPER_SEED=x is not a number'),
    );
    expect(() => resolveConfig({ home: home() }, { SKIPPER_TICK_MS: '1.5' })).toThrow(
      new UsageError('tick length must be a whole number of milliseconds ≥ 0, got 1.5'),
    );
    expect(() => resolveConfig({ home: home(), maxRounds: 0 }, {})).toThrow(
      new UsageError('--max-rounds: must be at least 1'),
    );
    expect(() => resolveConfig({ home: home(), tickMs: -1 }, {})).toThrow(
      /--tick-ms: tick length must be a whole number of milliseconds ≥ 0, got -1/,
    );
  });

  it('reads numbers from the environment, and takes an empty variable as unset', () => {
    const config = resolveConfig({ home: home() }, { SKIPPER_TICK_MS: '', SKIPPER_SEED: '7', SKIPPER_MODEL: '' });
    expect(config.tickMs).toBe(500);
    expect(config.sources.tickMs).toBe('default');
    expect(config.seed).toBe(7);
    expect(config.sources.seed).toBe('env');
    expect(config.model).toBeUndefined();
  });

  it('finds its home in SKIPPER_HOME, else XDG_DATA_HOME, else ~/.local/share', () => {
    expect(resolveHome(undefined, { SKIPPER_HOME: '/x/skipper' })).toBe('/x/skipper');
    expect(resolveHome(undefined, { XDG_DATA_HOME: '/xdg' })).toBe('/xdg/skipper');
    expect(resolveHome(undefined, { HOME: '/home/nova' })).toBe('/home/nova/.local/share/skipper');
    expect(resolveHome('/flag', { SKIPPER_HOME: '/env' })).toBe('/flag');
  });
});

describe('parseDuration', () => {
  it('reads seconds, minutes, hours and combinations', () => {
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(() => parseDuration('soon')).toThrow(/not a duration/);
    expect(() => parseDuration('5x')).toThrow(/not a duration/);
  });
});

describe('registration code and call kinds', () => {
  it('takes the registration code from the flag, SKIPPER_REGISTRATION_CODE or the file', () => {
    const dir = home({ registrationCode: 'from-file' });
    expect(resolveConfig({ home: dir }, {}).registrationCode).toBe('from-file');
    expect(resolveConfig({ home: dir }, { SKIPPER_REGISTRATION_CODE: 'from-env' }).registrationCode).toBe('from-env');
    expect(
      resolveConfig({ home: dir, registrationCode: 'from-flag' }, { SKIPPER_REGISTRATION_CODE: 'from-env' })
        .registrationCode,
    ).toBe('from-flag');
    expect(resolveConfig({ home: home() }, { SKIPPER_REGISTRATION_CODE: '' }).registrationCode).toBeUndefined();
  });

  it("takes the game's API key from --api-key or SKIPPER_GAME_API_KEY (trimmed), never from the file", () => {
    expect(resolveConfig({ home: home() }, { SKIPPER_GAME_API_KEY: ' env-key\n' }).gameApiKey).toBe('env-key');
    const both = resolveConfig({ home: home(), apiKey: 'flag-key' }, { SKIPPER_GAME_API_KEY: 'env-key' });
    expect([both.gameApiKey, both.sources.gameApiKey]).toEqual(['flag-key', 'flag']);
    expect(resolveConfig({ home: home() }, { SKIPPER_GAME_API_KEY: '' }).gameApiKey).toBeUndefined();
    // A secret like the password, which has no place in the config file either.
    expect(() => resolveConfig({ home: home({ apiKey: 'file-key' }) }, {})).toThrow(/"apiKey" is not a setting/);
  });

  it('accepts toolClasses for a tool or one action of a grouped tool, and rejects anything else', () => {
    const dir = home({ toolClasses: { mine: 'mutation', 'spacemolt.scan': 'query', chat: 'free' } });
    expect(resolveConfig({ home: dir }, {}).toolClasses).toEqual({
      mine: 'mutation',
      'spacemolt.scan': 'query',
      chat: 'free',
    });
    expect(() => resolveConfig({ home: home({ toolClasses: { mine: 'sometimes' } }) }, {})).toThrow(/toolClasses/);
    expect(() => resolveConfig({ home: home({ toolClasses: { 'a.b.c': 'query' } }) }, {})).toThrow(/toolClasses/);
  });
});

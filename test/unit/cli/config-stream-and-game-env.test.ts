// The two options added for the provider and the game connection: `streamIdleTimeoutMs` (config.json) and
// `--game-env KEY=VALUE` (stdio games only).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../internal/cli/config.js';
import { FatalError, UsageError } from '../../../internal/shared/index.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
function homeWith(config: unknown): string {
  const home = mkdtempSync(join(tmpdir(), 'skipper-config-'));
  homes.push(home);
  writeFileSync(join(home, 'config.json'), JSON.stringify(config));
  return home;
}

describe('streamIdleTimeoutMs and --game-env', () => {
  it('reads streamIdleTimeoutMs from config.json and rejects a silly value', () => {
    expect(resolveConfig({ home: homeWith({ streamIdleTimeoutMs: 200 }) }, {}).streamIdleTimeoutMs).toBe(200);
    expect(resolveConfig({ home: homeWith({}) }, {}).streamIdleTimeoutMs).toBeUndefined();
    expect(() => resolveConfig({ home: homeWith({ streamIdleTimeoutMs: 5 }) }, {})).toThrow(FatalError);
  });

  it('reads "vision" from config.json: true, false, or unset (then guessed from the model id)', () => {
    expect(resolveConfig({ home: homeWith({ vision: true }) }, {}).vision).toBe(true);
    expect(resolveConfig({ home: homeWith({ vision: false }) }, {}).vision).toBe(false);
    expect(resolveConfig({ home: homeWith({}) }, {}).vision).toBeUndefined();
    expect(() => resolveConfig({ home: homeWith({ vision: 'yes' }) }, {})).toThrow(FatalError);
  });

  it('keeps --game-env for a stdio game and refuses it for any other', () => {
    const home = homeWith({});
    expect(resolveConfig({ home, game: 'stdio:node game.js', gameEnv: { TOKEN: 'a' } }, {}).gameEnv).toEqual({
      TOKEN: 'a',
    });
    expect(() => resolveConfig({ home, game: 'spacemolt', gameEnv: { TOKEN: 'a' } }, {})).toThrow(UsageError);
  });
});

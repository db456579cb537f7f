// A failed call's code is worked out once (fromCallResult) and kept in the observation the message stores, so every
// later reader of the stored message finds the very code the loop counted.
import { describe, expect, it } from 'vitest';
import { detectProfile, withObservation } from '../../../internal/game/profile.js';
import { fromCallResult } from '../../../internal/game/result.js';
import { errorCodeOf } from '../../../internal/shared/index.js';
import * as S from '../../fixtures/spacemolt/text-samples.js';

const tool = (name: string) => ({ name, inputSchema: { type: 'object', properties: {} } });
const profile = detectProfile({ tools: ['register', 'login', 'get_status', 'mine', 'travel', 'sell'].map(tool) });

function stored(text: string): { code: string | undefined; kept: string } {
  const result = withObservation(profile, 'sell', fromCallResult({ content: [{ type: 'text', text }], isError: true }));
  const message = { content: result.text, data: JSON.parse(JSON.stringify(result.data)) as unknown, toolName: 'sell' };
  return { code: result.code, kept: errorCodeOf(message) };
}

describe('error codes travel with the message', () => {
  it('keeps the code the result layer found, also where the text reader knows no code', () => {
    expect(stored(S.ERROR_NOT_DOCKED)).toEqual({ code: 'not_docked', kept: 'not_docked' });
    expect(stored(S.ERROR_RATE_LIMITED)).toEqual({ code: 'rate_limited', kept: 'rate_limited' });
    // Worded, MCP-numbered and prefixed errors: only fromCallResult knows these.
    expect(stored('Error: too many requests, slow down')).toEqual({ code: 'rate_limited', kept: 'rate_limited' });
    expect(stored('MCP error -32602: Input validation error: quantity must be a number')).toEqual({
      code: 'invalid_params',
      kept: 'invalid_params',
    });
    expect(stored('no_fuel: the tank is empty')).toEqual({ code: 'no_fuel', kept: 'no_fuel' });
  });
});

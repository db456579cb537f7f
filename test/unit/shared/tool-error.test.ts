// errorCodeOf: the code kept with a stored tool message wins; messages stored before codes were kept are read from
// their text the same way for every reader (autopilot, lessons, reports, benchmark logs).
import { describe, expect, it } from 'vitest';
import { CANCELLED_RESULT_TEXT, errorCodeOf } from '../../../internal/shared/index.js';

const of = (content: string, data?: unknown, toolName?: string): string =>
  errorCodeOf({ content, ...(data !== undefined ? { data } : {}), ...(toolName !== undefined ? { toolName } : {}) });

describe('errorCodeOf', () => {
  it('reads the code kept with the message before anything the text says', () => {
    expect(of('Error: not_docked: dock first', { op: 'sell', error: { code: 'rate_limited', message: 'm' } })).toBe(
      'rate_limited',
    );
    // A piece that does not fit is not trusted: the text decides.
    expect(of('no_fuel: tank empty', { error: { code: 7 } })).toBe('no_fuel');
  });

  it('reads older messages from their text', () => {
    expect(of('not_docked: dock first')).toBe('not_docked');
    expect(of('Error: station_fuel_empty: no fuel here')).toBe('station_fuel_empty');
    expect(of('[deposit_too_sparse]: try elsewhere')).toBe('deposit_too_sparse');
    expect(of('{"error":"rate_limited","message":"slow down"}')).toBe('rate_limited');
    expect(of('unknown tool "fly"; available tools: mine')).toBe('unknown_tool');
    expect(of('arguments are not valid JSON: {')).toBe('invalid_arguments');
    expect(of('remember: invalid arguments — text is required', undefined, 'remember')).toBe('invalid_params');
    expect(of(CANCELLED_RESULT_TEXT)).toBe('cancelled');
    expect(of('The trip was cancelled.')).toBe('cancelled');
  });

  it('never takes the tool’s own name or a bare "Error:" for a code', () => {
    expect(of('jump: something odd', undefined, 'jump')).toBe('error');
    expect(of('Error: something broke')).toBe('error');
    expect(of('Something odd happened')).toBe('error');
  });
});

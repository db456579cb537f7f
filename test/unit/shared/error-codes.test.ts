// One vocabulary for Skipper's own error codes: every code in one union, snake_case like the game's, each with a kind
// whose exit code is in one table; a code outside the union is a type error (checked by `tsc -p tsconfig.test.json`).
import { describe, expect, it } from 'vitest';
import {
  EXIT_CODE_BY_KIND,
  ExitCode,
  FatalError,
  SKIPPER_ERROR_CODES,
  SkipperError,
  UsageError,
  exitCodeFor,
  type SkipperErrorCode,
} from '../../../internal/shared/index.js';

describe('SkipperErrorCode', () => {
  it('lists every code in snake_case', () => {
    const codes = Object.keys(SKIPPER_ERROR_CODES);
    expect(codes.length).toBeGreaterThan(40);
    expect(codes.filter((code) => !/^[a-z]+(_[a-z]+)*$/.test(code))).toEqual([]);
  });

  it('gives each kind its exit code from one table', () => {
    expect(EXIT_CODE_BY_KIND).toEqual({ failure: 1, usage: 2, interrupted: 130 });
    expect(exitCodeFor('usage')).toBe(ExitCode.usage);
    expect(exitCodeFor('config')).toBe(ExitCode.usage);
    expect(exitCodeFor('cancelled')).toBe(ExitCode.interrupted);
    expect(exitCodeFor('store_busy')).toBe(ExitCode.failure);
    expect(exitCodeFor('session_leased')).toBe(ExitCode.failure);
  });

  it('ends the program with the exit code of its code', () => {
    expect(new FatalError('config', 'the config file is not valid JSON').exitCode).toBe(2);
    expect(new FatalError('store_duplicate', 'a session of that name exists').exitCode).toBe(1);
    const usage = new UsageError('--max-turns takes a number');
    expect([usage.code, usage.exitCode]).toEqual(['usage', 2]);
  });

  it('refuses a code outside the union at compile time', () => {
    // @ts-expect-error -- kebab-case is not a Skipper error code any more
    const typo = new SkipperError('store-duplicate', 'x');
    const code: SkipperErrorCode = 'store_duplicate';
    expect([typo.code, new SkipperError(code, 'x').code]).toEqual(['store-duplicate', 'store_duplicate']);
  });
});

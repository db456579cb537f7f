// Flag values: whole numbers, numbers and durations as typed, checked by zod schemas whose first issue becomes the
// InvalidArgumentError commander prints after the flag's name (exit code 2, no stack trace).
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { integerFlag, numberFlag, parseDuration } from '../../../internal/cli/flags.js';

describe('integerFlag', () => {
  it('reads whole numbers, blanks around them too, and refuses anything else by name', () => {
    expect(integerFlag()('42')).toBe(42);
    expect(integerFlag()(' -3 ')).toBe(-3);
    expect(() => integerFlag()('fast')).toThrow(new InvalidArgumentError('"fast" is not a whole number.'));
    expect(() => integerFlag()('1.5')).toThrow(/"1\.5" is not a whole number/);
    expect(() => integerFlag()('')).toThrow(/is not a whole number/);
  });

  it('keeps to its bounds and says which one was crossed', () => {
    const ticks = integerFlag({ min: 0, max: 600_000 });
    expect(ticks('0')).toBe(0);
    expect(ticks('600000')).toBe(600_000);
    expect(() => ticks('-1')).toThrow(new InvalidArgumentError('must be at least 0.'));
    expect(() => ticks('600001')).toThrow(new InvalidArgumentError('must be at most 600000.'));
  });
});

describe('numberFlag', () => {
  it('reads finite numbers within bounds', () => {
    expect(numberFlag()('0.25')).toBe(0.25);
    expect(numberFlag()('1e3')).toBe(1000);
    expect(() => numberFlag()('cheap')).toThrow(new InvalidArgumentError('"cheap" is not a number.'));
    expect(() => numberFlag()('')).toThrow(/is not a number/);
    expect(() => numberFlag()('Infinity')).toThrow(/is not a number/);
    expect(() => numberFlag({ min: 0.01, max: 1000 })('0')).toThrow(new InvalidArgumentError('must be at least 0.01.'));
  });
});

describe('parseDuration', () => {
  it('says what a duration looks like, and that it must be positive', () => {
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(() => parseDuration('soon')).toThrow(
      new InvalidArgumentError('"soon" is not a duration: use e.g. 90s, 5m, 1h30m.'),
    );
    expect(() => parseDuration('0s')).toThrow(new InvalidArgumentError('the duration must be positive.'));
  });
});

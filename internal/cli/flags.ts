// Parsers for command-line values. They throw commander's InvalidArgumentError, which cmd/skipper.ts turns into a
// clear message and exit code 2.
import { InvalidArgumentError } from 'commander';

export function integerFlag(options: { min?: number; max?: number } = {}): (value: string) => number {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`"${value}" is not a whole number.`);
    const number = Number(value);
    if (options.min !== undefined && number < options.min) throw new InvalidArgumentError(`must be at least ${options.min}.`);
    if (options.max !== undefined && number > options.max) throw new InvalidArgumentError(`must be at most ${options.max}.`);
    return number;
  };
}

export function numberFlag(options: { min?: number; max?: number } = {}): (value: string) => number {
  return (value: string): number => {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) throw new InvalidArgumentError(`"${value}" is not a number.`);
    if (options.min !== undefined && number < options.min) throw new InvalidArgumentError(`must be at least ${options.min}.`);
    if (options.max !== undefined && number > options.max) throw new InvalidArgumentError(`must be at most ${options.max}.`);
    return number;
  };
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "90" (seconds), "90s", "5m", "1h30m", "250ms" -> milliseconds. */
export function parseDuration(value: string): number {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) {
    throw new InvalidArgumentError(`"${value}" is not a duration: use e.g. 90s, 5m, 1h30m.`);
  }
  let total = 0;
  for (const part of parts) total += Number(part[1]) * (UNITS[part[2] ?? 's'] ?? 1000);
  if (total <= 0) throw new InvalidArgumentError('the duration must be positive.');
  return Math.round(total);
}

export function durationFlag(value: string): number {
  return parseDuration(value);
}

// Command-line values as zod schemas: numbers with their bounds (shared with the config file's schema, so a setting
// has one range wherever it is given), whole numbers, numbers and durations as typed. The parsers commander calls
// throw its InvalidArgumentError with the first issue's message, which cmd/skipper.ts turns into a clear message
// and exit code 2. Also the options many commands share (`--db`).
import { InvalidArgumentError, Option } from 'commander';
import { z } from 'zod';
import { DB_OPTION_HELP } from '../shared/index.js';

export interface Bounds {
  min?: number;
  max?: number;
}

/** How a value that is not a number reads in a message: strings quoted, everything else as JSON. */
function shown(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** A number within bounds (whole when `whole`), with messages that say what is wrong: "must be at least 6.". */
export function boundedNumber(bounds: Bounds = {}, options: { whole?: boolean } = {}): z.ZodNumber {
  let schema = z.number({
    error: (issue) => {
      if (issue.code !== 'invalid_type') return undefined;
      if (issue.expected === 'int' && typeof issue.input === 'number')
        return `must be a whole number, not ${issue.input}.`;
      return `must be a number, not ${shown(issue.input)}.`;
    },
  });
  if (options.whole) schema = schema.int();
  if (bounds.min !== undefined) schema = schema.min(bounds.min, { error: `must be at least ${bounds.min}.` });
  if (bounds.max !== undefined) schema = schema.max(bounds.max, { error: `must be at most ${bounds.max}.` });
  return schema;
}

/** A whole number as typed ("42", "-3"), within bounds. */
export function integerText(bounds: Bounds = {}): z.ZodType<number, string> {
  return z
    .string()
    .refine((text) => /^-?\d+$/.test(text.trim()), {
      error: (issue) => `"${String(issue.input)}" is not a whole number.`,
    })
    .transform(Number)
    .pipe(boundedNumber(bounds, { whole: true }));
}

/** A finite number as typed ("0.5", "1e3"), within bounds. */
export function numberText(bounds: Bounds = {}): z.ZodType<number, string> {
  return z
    .string()
    .refine((text) => text.trim() !== '' && Number.isFinite(Number(text)), {
      error: (issue) => `"${String(issue.input)}" is not a number.`,
    })
    .transform(Number)
    .pipe(boundedNumber(bounds));
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "90" (seconds), "90s", "5m", "1h30m", "250ms" -> milliseconds. */
export const durationText: z.ZodType<number, string> = z.string().transform((value, context) => {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) {
    context.addIssue({ code: 'custom', message: `"${value}" is not a duration: use e.g. 90s, 5m, 1h30m.` });
    return z.NEVER;
  }
  let total = 0;
  for (const part of parts) total += Number(part[1]) * (UNITS[part[2] ?? 's'] ?? 1000);
  if (total <= 0) {
    context.addIssue({ code: 'custom', message: 'the duration must be positive.' });
    return z.NEVER;
  }
  return Math.round(total);
});

/** A commander parser for a schema: the value, or InvalidArgumentError with what is wrong with it. */
export function flagParser<T>(schema: z.ZodType<T, string>): (value: string) => T {
  return (value: string): T => {
    const result = schema.safeParse(value);
    if (!result.success) throw new InvalidArgumentError(result.error.issues[0]?.message ?? `"${value}" is not valid.`);
    return result.data;
  };
}

export function integerFlag(bounds: Bounds = {}): (value: string) => number {
  return flagParser(integerText(bounds));
}

export function numberFlag(bounds: Bounds = {}): (value: string) => number {
  return flagParser(numberText(bounds));
}

/** "90" (seconds), "90s", "5m", "1h30m", "250ms" -> milliseconds; InvalidArgumentError when it is none of those. */
export function parseDuration(value: string): number {
  return flagParser(durationText)(value);
}

export function durationFlag(value: string): number {
  return parseDuration(value);
}

/** `--db URL` of every command that reads or writes the store; its URL is checked where the store is resolved. */
export function dbOption(): Option {
  return new Option('--db <url>', DB_OPTION_HELP);
}

// "Did you mean": a mistyped command (`skipper sesions`) is a word close to a command name where the root command
// expects none, so commander would only say "too many arguments". These pure helpers find that word among the
// arguments (skipping options and their values) and the command it was probably meant to be.
import type { Command } from 'commander';

/** Levenshtein distance, with an early exit past `limit` (the words are short). */
export function editDistance(a: string, b: string, limit = Infinity): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = row;
    if (Math.min(...row) > limit) return limit + 1;
  }
  return previous[b.length] ?? 0;
}

/** The command name within `maxDistance` edits of `word` (the closest; ties go to the first listed). */
export function closestCommand(word: string, names: readonly string[], maxDistance = 2): string | undefined {
  const lower = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(lower, name, maxDistance);
    if (distance <= maxDistance && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

interface OptionShape {
  long?: string | undefined;
  short?: string | undefined;
  required: boolean;
  optional: boolean;
}

/**
 * The first argument that is neither an option nor an option's value: where a command name goes. `--autoplay [goal]`
 * takes the word after it as its goal, as commander does.
 */
export function firstOperand(args: readonly string[], options: readonly OptionShape[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--') return args[index + 1];
    if (!arg.startsWith('-') || arg === '-') return arg;
    if (arg.includes('=')) continue;
    const option = options.find((candidate) => candidate.long === arg || candidate.short === arg);
    const next = args[index + 1];
    if (option?.required && next !== undefined) index++;
    else if (option?.optional && next !== undefined && !next.startsWith('-')) index++;
  }
  return undefined;
}

/**
 * "unknown command 'sesions' — did you mean 'sessions'?" when the first operand is one word close to a command and not
 * a command itself; undefined otherwise (a goal with spaces, a real command, a word nowhere near one).
 */
export function unknownCommandMessage(program: Command, args: readonly string[]): string | undefined {
  const word = firstOperand(args, program.options);
  if (!word || /\s/.test(word)) return undefined;
  const names = program.commands.flatMap((command) => [command.name(), ...command.aliases()]);
  if (names.includes(word)) return undefined;
  // Two edits for a word of five letters or more, fewer for shorter ones (`go` is not a typo of `rm`).
  const meant = closestCommand(
    word,
    names.filter((name) => name !== 'help'),
    Math.min(2, Math.ceil(word.length / 3)),
  );
  return meant ? `unknown command '${word}' — did you mean '${meant}'?` : undefined;
}

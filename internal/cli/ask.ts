// Asking the person a yes/no question on the terminal (on stderr, so stdout stays clean for pipes).
import { createInterface } from 'node:readline';

/** True only for an explicit yes; false when stdin is not a terminal (scripts must pass --yes). */
export async function askYesNo(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** The same question, telling a "no" (false) from nobody to ask (undefined: stdin is not a terminal). */
export async function askOnTerminal(question: string): Promise<boolean | undefined> {
  if (!process.stdin.isTTY) return undefined;
  return askYesNo(question);
}

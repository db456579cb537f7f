// "Did you mean": a mistyped command is found among the arguments (options and their values skipped, a goal after
// --autoplay left alone) and matched to the nearest command within two edits; a sentence or a far word is not.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  closestCommand,
  editDistance,
  firstOperand,
  unknownCommandMessage,
} from '../../../internal/cli/did-you-mean.js';

function program(): Command {
  const root = new Command('skipper');
  root.option('--model <id>').option('--autoplay [goal]').option('--json').option('-s, --session <name>');
  for (const name of ['sessions', 'replay', 'export', 'memory', 'rm', 'completion']) root.command(name);
  return root;
}

describe('did you mean', () => {
  it('counts edits (insertions, deletions, substitutions)', () => {
    expect(editDistance('sesions', 'sessions')).toBe(1);
    expect(editDistance('repaly', 'replay')).toBe(2);
    expect(editDistance('memroy', 'memory')).toBe(2);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('', 'rm')).toBe(2);
  });

  it('picks the closest command within the limit, nothing beyond it', () => {
    expect(closestCommand('sesions', ['sessions', 'replay'])).toBe('sessions');
    expect(closestCommand('exprot', ['sessions', 'export'])).toBe('export');
    expect(closestCommand('trade', ['sessions', 'replay'])).toBeUndefined();
  });

  it('finds the first operand past options and their values', () => {
    const { options } = program();
    expect(firstOperand(['--model', 'x/y', 'sesions'], options)).toBe('sesions');
    expect(firstOperand(['--json', 'repaly', 'NAME'], options)).toBe('repaly');
    expect(firstOperand(['--model=x/y', 'memroy'], options)).toBe('memroy');
    // --autoplay [goal] takes the next word as its goal, as commander does.
    expect(firstOperand(['--autoplay', 'sesions'], options)).toBeUndefined();
    expect(firstOperand(['-s', 'my-run', '--autoplay'], options)).toBeUndefined();
  });

  it('says "unknown command … did you mean" for a near miss, and nothing for commands, goals or far words', () => {
    const root = program();
    expect(unknownCommandMessage(root, ['sesions'])).toBe("unknown command 'sesions' — did you mean 'sessions'?");
    expect(unknownCommandMessage(root, ['--json', 'repaly', 'x'])).toBe(
      "unknown command 'repaly' — did you mean 'replay'?",
    );
    expect(unknownCommandMessage(root, ['sessions'])).toBeUndefined();
    expect(unknownCommandMessage(root, ['--autoplay', 'mine iron and sell it'])).toBeUndefined();
    expect(unknownCommandMessage(root, ['mine iron'])).toBeUndefined();
    expect(unknownCommandMessage(root, ['wander'])).toBeUndefined();
    // Short words need to be closer: `go` is no typo of `rm`, `rn` is.
    expect(unknownCommandMessage(root, ['go'])).toBeUndefined();
    expect(unknownCommandMessage(root, ['rn'])).toBe("unknown command 'rn' — did you mean 'rm'?");
  });
});

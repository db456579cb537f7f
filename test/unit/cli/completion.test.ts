// `skipper completion bash|zsh|fish`: the script is read from the commander program, so every command (and its
// options, subcommands and argument choices) is in it for each shell.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  COMPLETION_SHELLS,
  completionScript,
  completionSpec,
  registerCompletionCommand,
} from '../../../internal/cli/completion.js';

function program(): { root: Command; printed: string[] } {
  const printed: string[] = [];
  const root = new Command('skipper').exitOverride();
  root.option('--model <provider/model>', 'who plays: openai/…').option('--json', "JSONL events, it's for scripts");
  root
    .command('sessions')
    .description('list stored sessions')
    .option('--home <dir>', 'data directory')
    .command('rm')
    .description('delete one');
  root.command('replay').description('show a stored session again').option('--speed <x>', 'replay speed');
  root
    .command('memory')
    .description('what your captains remember: list, rm ID, clear')
    .command('list')
    .description('entries');
  registerCompletionCommand(root, (text) => printed.push(text));
  for (const command of root.commands) command.exitOverride();
  return { root, printed };
}

describe('completion', () => {
  it('reads commands, their options, subcommands and argument choices from the program', () => {
    const spec = completionSpec(program().root);
    expect(spec.commands.map((command) => command.name)).toEqual(['sessions', 'replay', 'memory', 'completion']);
    expect(spec.options.map((option) => option.long)).toEqual(['--model', '--json', '--help']);
    const sessions = spec.commands[0];
    expect(sessions?.subcommands.map((sub) => sub.name)).toEqual(['rm']);
    expect(sessions?.options.find((option) => option.long === '--home')?.takesValue).toBe(true);
    expect(spec.commands[2]?.description).toBe('what your captains remember');
    expect(spec.commands[3]?.choices).toEqual(['bash', 'zsh', 'fish']);
  });

  it.each(COMPLETION_SHELLS)('the %s script names every command and option', (shell) => {
    const script = completionScript(shell, completionSpec(program().root));
    for (const word of ['sessions', 'replay', 'memory', 'completion', 'speed', 'model', 'home'])
      expect(script).toContain(word);
    expect(script).toContain(
      shell === 'fish'
        ? 'complete -c skipper'
        : shell === 'zsh'
          ? 'compdef _skipper skipper'
          : 'complete -o default -F _skipper skipper',
    );
  });

  it('quotes descriptions for each shell (an apostrophe, a colon)', () => {
    const spec = completionSpec(program().root);
    expect(completionScript('fish', spec)).toContain("-l json -d 'JSONL events, it\\'s for scripts'");
    // zsh _describe: the first colon separates name and description; later ones are escaped.
    const withColon = {
      ...spec,
      commands: [{ name: 'serve', description: 'play: here', options: [], subcommands: [], choices: [] }],
    };
    expect(completionScript('zsh', withColon)).toContain("'serve:play\\: here'");
  });

  it('`completion SHELL` prints the script; another shell is refused by commander (a usage error)', async () => {
    const { root, printed } = program();
    await root.parseAsync(['completion', 'fish'], { from: 'user' });
    expect(printed.join('')).toContain(
      "complete -c skipper -n __fish_use_subcommand -a sessions -d 'list stored sessions'",
    );
    await expect(
      program()
        .root.configureOutput({ writeErr: () => undefined })
        .parseAsync(['completion', 'tcsh'], { from: 'user' }),
    ).rejects.toThrow(/Allowed choices are bash, zsh, fish/);
  });
});

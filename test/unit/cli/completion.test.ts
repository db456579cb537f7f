// `skipper completion bash|zsh|fish`: the script is read from the commander program, so every command (and its
// options, subcommands and argument choices) is in it for each shell.
import { execFileSync, spawnSync } from 'node:child_process';
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

  it.skipIf(spawnSync('bash', ['-c', 'exit 0']).status !== 0)(
    'bash completes session names after -s/--session, replay, export, report and sessions rm',
    () => {
      const root = new Command('skipper').option('-s, --session <name>', 'resume this session');
      root.option('--home <dir>', 'data directory');
      const sessions = root.command('sessions').option('--json', 'JSON');
      sessions.command('rm').argument('<name>', 'session name').option('-y, --yes', 'do not ask');
      for (const name of ['replay', 'export', 'report'])
        root.command(name).argument('<name>', 'session name (see `skipper sessions`)').option('--home <dir>', 'home');
      root.command('memory').command('rm').argument('<id>', 'entry id');
      const spec = completionSpec(root);
      expect(spec.commands.filter((command) => command.takesSession).map((command) => command.name)).toEqual([
        'replay',
        'export',
        'report',
      ]);
      const script = completionScript('bash', spec);
      // A stand-in for the real skipper: `sessions --names` lists two sessions (and says which home it was asked for).
      const fake = `skipper() { [[ "$*" == *"sessions --names"* ]] || return 1; [[ "$*" == *"--home other"* ]] && { echo elsewhere; return; }; echo voyage; echo vega-run; echo 'noise' >&2; }`;
      const complete = (line: string): string[] => {
        const words = line.split(' ');
        const program = `${fake}\n${script}\nCOMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _skipper; printf '%s\\n' "\${COMPREPLY[@]}"`;
        return execFileSync('bash', ['-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
      };
      expect(complete('skipper -s v')).toEqual(['voyage', 'vega-run']);
      expect(complete('skipper --autoplay --session voy')).toEqual(['voyage']);
      expect(complete('skipper replay ')).toEqual(['voyage', 'vega-run']);
      expect(complete('skipper export ve')).toEqual(['vega-run']);
      expect(complete('skipper report --home other ')).toEqual(['elsewhere']);
      expect(complete('skipper sessions rm ')).toEqual(['voyage', 'vega-run']);
      expect(complete('skipper sessions rm --y')).toEqual(['--yes']);
      expect(complete('skipper replay --h')).toEqual(['--home', '--help']);
      expect(complete('skipper sessions ')).toEqual(['rm', '--json', '--help', '-h']);
      expect(complete('skipper memory rm ')).not.toContain('voyage');
    },
  );
});

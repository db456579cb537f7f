// The built CLI's command line as a new user meets it: a mistyped command gets "did you mean" (exit 2) while a goal
// sentence still plays; `skipper completion SHELL` prints a script naming every command, and the bash one, loaded
// into a real bash, completes commands, a command's options and the shells of `completion`.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();
const installed = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const COMMANDS = ['serve', 'sessions', 'replay', 'eval', 'export', 'memory', 'report', 'bench', 'completion'];

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = runCli(args, { home: newHome() });
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

describe('mistyped commands', () => {
  it('says "did you mean" and exits 2, options before the word or not', async () => {
    const typo = await run(['sesions']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("skipper: unknown command 'sesions' — did you mean 'sessions'?");
    const later = await run(['--json', 'repaly', 'some-session']);
    expect(later.code).toBe(2);
    expect(later.stderr).toContain("did you mean 'replay'?");
  });

  it('a stray word near no command says how to give a goal (exit 2); a quoted goal sentence still plays', async () => {
    const stray = await run(['mine', 'iron']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('A goal goes after --autoplay, in quotes');
    expect(stray.stderr).not.toContain('did you mean');
    const goal = await run(['--tick-ms', '0', '--autoplay', 'sessions are for mining iron', '--max-turns', '1']);
    expect(goal.stderr).toBe('');
    expect(goal.code).toBe(0);
    expect(goal.stdout).toContain('Autoplay ended');
  });
});

describe('skipper completion', () => {
  it.each(['bash', 'zsh', 'fish'])('%s: names every command', async (shell) => {
    const { code, stdout } = await run(['completion', shell]);
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(stdout).toContain(command);
    expect(stdout).toMatch(shell === 'fish' ? /-l autoplay/ : /--autoplay/);
  });

  it('refuses another shell with exit 2', async () => {
    const { code, stderr } = await run(['completion', 'tcsh']);
    expect(code).toBe(2);
    expect(stderr).toContain('Allowed choices are bash, zsh, fish');
  });

  it('bash: the script completes commands, options and choices in a real bash', () => {
    const script = execFileSync(process.execPath, [cliPath, 'completion', 'bash'], { encoding: 'utf8' });
    const complete = (line: string): string[] => {
      const words = line.split(' ');
      const program = `${script}\nCOMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _skipper; printf '%s\\n' "\${COMPREPLY[@]}"`;
      return execFileSync('bash', ['-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
    };
    expect(complete('skipper se')).toEqual(['serve', 'sessions']);
    expect(complete('skipper --model x/y rep')).toEqual(['replay', 'report']);
    expect(complete('skipper --auto')).toEqual(['--autoplay']);
    expect(complete('skipper memory --li')).toEqual(['--limit']);
    expect(complete('skipper memory l')).toEqual(['list']);
    expect(complete('skipper completion ')).toEqual(expect.arrayContaining(['bash', 'zsh', 'fish']));
  });

  // zsh and fish are not everywhere: checked where they are installed.
  it.skipIf(!installed('fish'))('fish: the script loads and completes commands, subcommands and choices', () => {
    const script = execFileSync(process.execPath, [cliPath, 'completion', 'fish'], { encoding: 'utf8' });
    const complete = (line: string): string[] =>
      execFileSync('fish', ['-c', `${script}\ncomplete -C ${JSON.stringify(line)}`], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((entry) => entry.split('\t')[0] ?? '');
    expect(complete('skipper se')).toEqual(['serve', 'sessions']);
    expect(complete('skipper memory ')).toEqual(expect.arrayContaining(['list', 'rm', 'clear']));
    expect(complete('skipper completion ')).toEqual(['bash', 'fish', 'zsh']);
  });

  it.skipIf(!installed('zsh'))('zsh: the script parses, and its function offers commands, options and choices', () => {
    const script = execFileSync(process.execPath, [cliPath, 'completion', 'zsh'], { encoding: 'utf8' });
    // Outside a completion widget: compadd and _describe stubbed to print what they are offered.
    const driver = `compdef() { :; }
compadd() { [[ $1 == -- ]] && shift; print -l -- "$@"; }
_describe() { local -a offered; offered=("\${(@P)2}"); print -l -- "\${offered[@]%%:*}"; }
${script}
words=("\${(@s: :)1}"); CURRENT=\${#words}; PREFIX=\${words[-1]}
_skipper | grep -- "^$PREFIX"`;
    const complete = (line: string): string[] =>
      spawnSync('zsh', ['-c', driver, 'zsh', line], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    expect(complete('skipper se')).toEqual(['serve', 'sessions']);
    expect(complete('skipper --model x/y rep')).toEqual(['replay', 'report']);
    expect(complete('skipper memory --li')).toEqual(['--limit']);
    expect(complete('skipper completion z')).toEqual(['zsh']);
  });
});

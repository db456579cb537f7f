// `skipper completion bash|zsh|fish`: a shell completion script for the commands and their options, read from the
// commander program itself so a new command or flag completes without touching this file. Slash commands (chat) are
// typed inside Skipper, not in the shell: not here.
import { Argument, type Command } from 'commander';

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

export interface CompletionFlag {
  long?: string;
  short?: string;
  description: string;
  takesValue: boolean;
}

export interface CompletionCommand {
  name: string;
  description: string;
  options: CompletionFlag[];
  subcommands: Array<{ name: string; description: string; takesSession?: boolean }>;
  /** The values its first argument takes, when it lists them (`completion bash|zsh|fish`). */
  choices: string[];
  /** Its first argument is a stored session's name (`replay NAME`): bash completes it from `skipper sessions --names`. */
  takesSession?: boolean;
}

export interface CompletionSpec {
  options: CompletionFlag[];
  commands: CompletionCommand[];
}

const HELP: CompletionFlag = { long: '--help', short: '-h', description: 'show help', takesValue: false };

/** The first clause of a description: a completion menu has one short line per entry. */
function short(text: string): string {
  const first = (text.split('\n')[0] ?? '').split(/[;:(]| — /)[0] ?? '';
  const trimmed = first.trim();
  return trimmed.length > 60 ? `${trimmed.slice(0, 59)}…` : trimmed;
}

function flagsOf(command: Command): CompletionFlag[] {
  const flags = command.options.map((option): CompletionFlag => ({
    ...(option.long ? { long: option.long } : {}),
    ...(option.short ? { short: option.short } : {}),
    description: short(option.description),
    takesValue: option.required || option.optional,
  }));
  return [...flags, HELP];
}

/** A first argument documented as "session name …" takes a stored session's name. */
const takesSession = (command: Command): boolean =>
  /^session name\b/.test(command.registeredArguments[0]?.description ?? '');

export function completionSpec(program: Command): CompletionSpec {
  return {
    options: flagsOf(program),
    commands: program.commands.map((command) => ({
      name: command.name(),
      description: short(command.description()),
      options: flagsOf(command),
      subcommands: command.commands.map((sub) => ({
        name: sub.name(),
        description: short(sub.description()),
        ...(takesSession(sub) ? { takesSession: true } : {}),
      })),
      choices: [...(command.registeredArguments[0]?.argChoices ?? [])],
      ...(takesSession(command) ? { takesSession: true } : {}),
    })),
  };
}

const words = (flags: readonly CompletionFlag[]): string =>
  flags.flatMap((flag) => [flag.long, flag.short].filter((name): name is string => name !== undefined)).join(' ');

/** What may follow a command: its subcommands, its argument's choices, its options. */
const operands = (command: CompletionCommand): string[] =>
  [...command.subcommands.map((sub) => sub.name), ...command.choices, words(command.options)].filter(Boolean);

/** One `case` arm of the bash script: what may follow the command, and whether a session name may. */
function bashCase(command: CompletionCommand): string {
  const sessionSubs = command.subcommands.filter((sub) => sub.takesSession).map((sub) => sub.name);
  const sub =
    sessionSubs.length > 0
      ? `; case " \${COMP_WORDS[*]:1:COMP_CWORD-1} " in ${sessionSubs.map((name) => `*" ${name} "*`).join('|')}) words="--yes --home"; session=1 ;; esac`
      : '';
  return `    ${command.name}) words="${operands(command).join(' ')}"${command.takesSession ? '; session=1' : ''}${sub} ;;`;
}

function bash(spec: CompletionSpec): string {
  const cases = spec.commands.map(bashCase).join('\n');
  const sessionFlags = spec.options
    .filter((flag) => flag.long === '--session')
    .flatMap((flag) => [flag.long, flag.short].filter((name): name is string => name !== undefined));
  return `# skipper completion for bash. Load it in this shell:  source <(skipper completion bash)
# or for good:  skipper completion bash > ~/.local/share/bash-completion/completions/skipper
# Stored session names, from \`skipper sessions --names\` (with the --home typed on the line, if any); quiet on errors.
_skipper_sessions() {
  local home="" i
  for ((i = 1; i < COMP_CWORD; i++)); do [[ "\${COMP_WORDS[i]}" == --home ]] && home="\${COMP_WORDS[i+1]}"; done
  "\${COMP_WORDS[0]}" \${home:+--home "$home"} sessions --names 2>/dev/null
}
_skipper() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" commands="${spec.commands.map((command) => command.name).join(' ')}" command="" words word session=""
  case " ${sessionFlags.join(' ')} " in *" $prev "*) COMPREPLY=($(compgen -W "$(_skipper_sessions)" -- "$cur")); return ;; esac
  for word in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case " $commands " in *" $word "*) command="$word"; break ;; esac
  done
  case "$command" in
${cases}
    *) if [[ "$cur" == -* ]]; then words="${words(spec.options)}"; else words="$commands"; fi ;;
  esac
  [[ -n "$session" && "$cur" != -* ]] && words="$(_skipper_sessions)"
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _skipper skipper
`;
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
// _describe splits name:description at the first unescaped colon.
const zshQuote = (text: string): string => shellQuote(text.replace(/:/g, '\\:').replace(/^([^\\]*)\\:/, '$1:'));

function zsh(spec: CompletionSpec): string {
  const commands = spec.commands
    .map((command) => `    ${zshQuote(`${command.name}:${command.description}`)}`)
    .join('\n');
  const perCommand = spec.commands
    .map((command) => `    [${command.name}]=${shellQuote(operands(command).join(' '))}`)
    .join('\n');
  return `#compdef skipper
# skipper completion for zsh. Load it in this shell (after compinit):  source <(skipper completion zsh)
# or for good:  skipper completion zsh > "\${fpath[1]}/_skipper"
_skipper() {
  local -a commands
  commands=(
${commands}
  )
  local -A per_command
  per_command=(
${perCommand}
  )
  local command="" word
  for word in "\${(@)words[2,CURRENT-1]}"; do
    if (( \${+per_command[$word]} )); then command="$word"; break; fi
  done
  if [[ -n "$command" ]]; then
    compadd -- \${=per_command[$command]}
  elif [[ "$PREFIX" == -* ]]; then
    compadd -- ${words(spec.options)}
  else
    _describe 'command' commands
  fi
}
if [[ "\${funcstack[1]}" == "_skipper" ]]; then _skipper "$@"; else compdef _skipper skipper; fi
`;
}

const fishQuote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fishFlag(flag: CompletionFlag, condition: string): string {
  const parts = [`complete -c skipper -n ${fishQuote(condition)}`];
  if (flag.short) parts.push(`-s ${flag.short.replace(/^-/, '')}`);
  if (flag.long) parts.push(`-l ${flag.long.replace(/^--/, '')}`);
  if (flag.takesValue) parts.push('-r');
  if (flag.description) parts.push(`-d ${fishQuote(flag.description)}`);
  return parts.join(' ');
}

function fish(spec: CompletionSpec): string {
  const lines = [
    '# skipper completion for fish. Load it in this shell:  skipper completion fish | source',
    '# or for good:  skipper completion fish > ~/.config/fish/completions/skipper.fish',
    'complete -c skipper -f',
  ];
  for (const command of spec.commands) {
    lines.push(`complete -c skipper -n __fish_use_subcommand -a ${command.name} -d ${fishQuote(command.description)}`);
  }
  for (const flag of spec.options) lines.push(fishFlag(flag, '__fish_use_subcommand'));
  for (const command of spec.commands) {
    const inside = `__fish_seen_subcommand_from ${command.name}`;
    for (const sub of command.subcommands)
      lines.push(`complete -c skipper -n ${fishQuote(inside)} -a ${sub.name} -d ${fishQuote(sub.description)}`);
    if (command.choices.length > 0)
      lines.push(`complete -c skipper -n ${fishQuote(inside)} -a ${fishQuote(command.choices.join(' '))}`);
    for (const flag of command.options) lines.push(fishFlag(flag, inside));
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: CompletionShell, spec: CompletionSpec): string {
  return shell === 'bash' ? bash(spec) : shell === 'zsh' ? zsh(spec) : fish(spec);
}

/** `skipper completion SHELL`: registered last, so the script knows every other command. */
export function registerCompletionCommand(
  program: Command,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', COMPLETION_SHELLS.join(', ')).choices(COMPLETION_SHELLS))
    .addHelpText(
      'after',
      `
Install:
  bash  echo 'source <(skipper completion bash)' >> ~/.bashrc
  zsh   echo 'source <(skipper completion zsh)' >> ~/.zshrc      (after compinit)
  fish  skipper completion fish > ~/.config/fish/completions/skipper.fish`,
    )
    // commander refuses any other shell (exit 2, naming the choices).
    .action((shell: CompletionShell) => write(completionScript(shell, completionSpec(program))));
}

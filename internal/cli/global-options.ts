// Options given before a command mean what they mean after it: `skipper --home B sessions rm x` acts on B, as
// `skipper sessions rm x --home B` does. With positional options the program parses what comes before the command's
// name, so the command would never see it and would act on the default home. Each such option is replayed as typed
// into the command that runs (its own parser and checks apply). Where that command has no such option, or was given
// a different value after its name, the run stops with a usage error (exit 2) that says where the option goes.
import type { EventEmitter } from 'node:events';
import type { Command, Option } from 'commander';
import { UsageError } from '../shared/index.js';

interface Given {
  option: Option;
  /** As typed, in order (undefined for a flag without a value). */
  values: Array<string | undefined>;
}

/** Installs the forwarding on the program; call once, after its own options are declared. */
export function forwardGlobalOptions(program: Command): void {
  const given = new Map<string, Given>();
  for (const option of program.options) {
    program.on(`option:${option.name()}`, (value?: string) => {
      const entry = given.get(option.name()) ?? { option, values: [] };
      entry.values.push(value);
      given.set(option.name(), entry);
    });
  }
  program.hook('preAction', (_program, command) => {
    if (command === program) return;
    for (const entry of given.values()) replay(command, entry);
  });
}

/** "sessions rm" for the `rm` under `sessions`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

function typed(option: Option, values: Array<string | undefined>): string {
  const flag = option.long ?? option.flags;
  return values.map((value) => (value === undefined ? flag : `${flag} ${value}`)).join(' ');
}

function replay(command: Command, { option, values }: Given): void {
  const path = commandPath(command);
  const own = command.options.find((candidate) => candidate.long !== undefined && candidate.long === option.long);
  if (!own) {
    throw new UsageError(
      `\`skipper ${path}\` has no ${option.long ?? option.flags} option: it goes with \`skipper\` alone ` +
        `(\`skipper ${typed(option, values)}\`, playing). See \`skipper ${path} --help\` for what it takes.`,
    );
  }
  const key = own.attributeName();
  const givenAfter = command.getOptionValueSource(key) === 'cli';
  const before = JSON.stringify(command.getOptionValue(key));
  // Commander's own listener for this event parses and checks the value, as when typed after the command.
  const events = command as unknown as EventEmitter;
  for (const value of values) events.emit(`option:${own.name()}`, value);
  if (givenAfter && JSON.stringify(command.getOptionValue(key)) !== before) {
    throw new UsageError(
      `${own.long ?? own.flags} was given twice with different values, before and after \`${path}\`: ` +
        `give it once, after the command (\`skipper ${path} ${typed(option, values)}\`).`,
    );
  }
}

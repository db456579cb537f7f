// cmd/program.ts declares the commands with light modules and imports a command's own module only when the command
// line names it; the commands not named are stubs. The root help and every command's help must not tell the
// difference.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../cmd/program.js';
import { ConfigEnvSchema } from '../../../internal/cli/config-schema.js';
import { PRESET_API_KEY_VARIABLES } from '../../../internal/provider/index.js';

const names = (program: Command): string[] => program.commands.map((command) => command.name());
const isStub = (command: Command): boolean => command.options.some((option) => option.long === '--stub');

describe('the program, loaded lazily', () => {
  it('shows the same root help with stubs as with every command loaded', async () => {
    const light = await buildProgram(['--help']);
    const full = await buildProgram([], 'all');
    expect(names(light)).toEqual(names(full));
    expect(light.helpInformation()).toBe(full.helpInformation());
    expect(light.commands.filter(isStub).map((command) => command.name())).toEqual(
      names(full).filter((name) => name !== 'completion'),
    );
    expect(full.commands.filter(isStub)).toEqual([]);
  });

  it('loads a command named on the command line for real, with its own options and help', async () => {
    const full = await buildProgram([], 'all');
    for (const name of names(full)) {
      const program = await buildProgram([name, '--help']);
      const command = program.commands.find((candidate) => candidate.name() === name)!;
      const real = full.commands.find((candidate) => candidate.name() === name)!;
      expect(isStub(command), name).toBe(false);
      expect(command.helpInformation(), name).toBe(real.helpInformation());
    }
  });

  it('loads everything for `completion`, whose script reads every option', async () => {
    const program = await buildProgram(['completion', 'bash']);
    expect(program.commands.filter(isStub)).toEqual([]);
  });
});

describe('the root help', () => {
  /** Every environment variable the source reads by name (`env.X`, `env().X`, `process.env.X`, `from.X`). */
  function variablesRead(): Set<string> {
    const names = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          for (const match of readFileSync(path, 'utf8').matchAll(/\b(?:env|env\(\)|from)\.([A-Z][A-Z0-9_]+)/g))
            names.add(match[1]!);
        }
      }
    };
    walk('internal');
    walk('cmd');
    return names;
  }

  it('names every environment variable the code reads', async () => {
    const program = await buildProgram(['--help']);
    let help = '';
    program.configureOutput({ writeOut: (text) => (help += text) });
    program.outputHelp();
    // PATH and HOME are the system's (finding the command, `~`), not settings.
    const read = [...variablesRead()].filter((name) => name !== 'PATH' && name !== 'HOME');
    expect(read).toEqual(expect.arrayContaining(['SKIPPER_TICK_MS', 'SKIPPER_USERNAME', 'SKIPPER_API_KEY_ENV']));
    const expected = [...read, ...Object.keys(ConfigEnvSchema.shape), ...PRESET_API_KEY_VARIABLES];
    const environment = help.slice(help.indexOf('Environment:'));
    for (const name of expected) expect(environment, name).toMatch(new RegExp(`\\b${name}\\b`));
  });
});

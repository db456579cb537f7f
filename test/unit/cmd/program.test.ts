// cmd/program.ts declares the commands with light modules and imports a command's own module only when the command
// line names it; the commands not named are stubs. The root help and every command's help must not tell the
// difference.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../cmd/program.js';

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

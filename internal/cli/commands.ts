// Every subcommand of the CLI room, one shape: a card with the stubs the root help shows (name, arguments,
// description) and how to register the real command, whose module is imported only then (so `skipper --help` stays
// light). The command's own module takes its description from its card: what the root help says is said once.
// cmd/program.ts lists the cards (with `skipper web`'s, kept in cmd/web.ts) once.
import type { Command } from 'commander';

/** What the root help shows of a command: its name, arguments and description. */
export interface CommandStub {
  name: string;
  args?: string;
  description: string;
}

/** Commands registered together by one module. */
export interface CommandCard {
  stubs: CommandStub[];
  /** Registers the real commands (imports their module). */
  register(program: Command): Promise<void>;
}

/** Declares a command from its stub: its name, arguments and description as the root help shows them. */
export function commandFrom(program: Command, stub: CommandStub): Command {
  return program.command(stub.name).description(stub.description);
}

export const SERVE: CommandStub = {
  name: 'serve',
  description: 'Run minimolt, the embedded game, as an MCP server (Streamable HTTP) that any MCP client can play.',
};
export const FLEET: CommandStub = {
  name: 'fleet',
  args: '[file]',
  description: 'run a fleet of captains from a YAML/JSON file in one process; status, stop, park, resume, order',
};
export const DOCTOR: CommandStub = {
  name: 'doctor',
  description: 'Check that Skipper can play a game: its tools, and logged in, what Skipper reads from its answers.',
};
export const SESSIONS: CommandStub = {
  name: 'sessions',
  description: 'list stored sessions: name, game, model, turns, last active, credits Δ, tokens, cost',
};
export const REPLAY: CommandStub = {
  name: 'replay',
  args: '<name>',
  description: 'show a stored session again, with the same renderer as live play',
};
export const EVAL: CommandStub = {
  name: 'eval',
  args: '<targets...>',
  description: 'counterfactual replays over many sessions: what each model would have done, a Markdown table per model',
};
export const EXPORT: CommandStub = {
  name: 'export',
  args: '<name>',
  description: 'write a shareable transcript (secrets redacted)',
};
export const MEMORY: CommandStub = {
  name: 'memory',
  description: 'what your captains remember across sessions: list, rm ID, clear',
};
export const REPORT: CommandStub = {
  name: 'report',
  args: '<name>',
  description: 'outcome report of a stored session: net worth and credits over time, actions, errors, tokens, cost',
};
export const BENCH: CommandStub = {
  name: 'bench',
  description:
    'outcome benchmark on fresh turbo minimolt worlds: your model(s) next to builtin/random and builtin/autopilot',
};

/** The CLI room's commands, in the order the root help lists them (`web` goes after `fleet`: see cmd/program.ts). */
export const SERVE_CARD: CommandCard = {
  stubs: [SERVE],
  register: async (program) => void (await import('./serve.js')).registerServeCommand(program),
};
export const FLEET_CARD: CommandCard = {
  stubs: [FLEET],
  register: async (program) => (await import('./fleet-command.js')).registerFleetCommands(program),
};
export const DOCTOR_CARD: CommandCard = {
  stubs: [DOCTOR],
  register: async (program) => void (await import('./doctor-command.js')).registerDoctorCommand(program),
};
export const SESSION_CARD: CommandCard = {
  stubs: [SESSIONS, REPLAY, EVAL, EXPORT, MEMORY, REPORT],
  register: async (program) => (await import('./session-commands.js')).registerSessionCommands(program),
};
export const BENCH_CARD: CommandCard = {
  stubs: [BENCH],
  register: async (program) => {
    const [{ registerBenchCommand }, { env }] = await Promise.all([
      import('./bench-command.js'),
      import('./config-secrets.js'),
    ]);
    registerBenchCommand(program, { env });
  },
};

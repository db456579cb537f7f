// internal/cli: the user interface room — the play command, the subcommands, the REPL, rendering, config. Its door
// for cmd/ holds only light modules (commander, flags, the command cards), so `skipper --help` loads no game, store or
// model: a command's own modules are imported by its card when it runs.
export {
  commandFrom,
  BENCH_CARD,
  DOCTOR_CARD,
  FLEET_CARD,
  SERVE_CARD,
  SESSION_CARD,
  type CommandCard,
  type CommandStub,
} from './commands.js';
export { durationFlag, integerFlag, numberFlag } from './flags.js';
export { registerCompletionCommand } from './completion.js';
export { accountOptions, loginOptions } from './account-options.js';
export { forwardGlobalOptions } from './global-options.js';
export { unknownCommandMessage } from './did-you-mean.js';
export { fileErrorReason } from './file-errors.js';
export { tidyTerminal } from './output.js';
export { flushed, leaveQuietlyOnBrokenPipe } from './stdout.js';
export type { PlayFlags } from './play-setup.js';

/** The play command, loaded when it runs. */
export async function runPlay(flags: import('./play-setup.js').PlayFlags): Promise<number> {
  return (await import('./play.js')).runPlay(flags);
}

// The counterfactual side of `skipper replay` (`--with MODEL`, `--prompt FILE`, `--json`) and the "Counterfactuals"
// section of `skipper sessions`. The replay command itself lives in sessions.ts; this adds its options and runs it.
import { Option, type Command } from 'commander';
import type { Store } from '../store/index.js';
import { ExitCode, UsageError, storePlaceOf } from '../shared/index.js';
import { agreement, providerFor, readPromptFile, replayWith, type ModelFlags } from './counterfactual.js';
import type { StoreCommandDeps } from './sessions.js';
import { formatTokens, formatUsd, tableLines } from './text.js';

export interface CounterfactualFlags extends ModelFlags {
  with?: string;
  prompt?: string;
  json?: boolean;
  from?: number;
  to?: number;
  db?: string;
}

/** The options `replay` takes for a counterfactual run (and `eval` for its models' endpoints). */
export function addModelOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--base-url <url>', 'OpenAI-compatible endpoint for the --with model (required for custom/MODEL)'),
    )
    .addOption(new Option('--api-key-env <NAME>', 'environment variable holding the API key of the --with model'))
    .addOption(
      new Option(
        '--price <in,out[,cached]>',
        'USD per million input,output[,cached prompt] tokens of the --with model, when not in the price table',
      ),
    );
}

export function addCounterfactualOptions(command: Command): Command {
  command
    .option(
      '--with <model>',
      'counterfactual: ask MODEL what it would have done at each stored decision point (the game is not touched)',
    )
    .option(
      '--prompt <file>',
      "counterfactual: try this system prompt on the same states (with --with, or the session's own model)",
    )
    .option('--json', 'counterfactual: one JSON line per decision, then the totals');
  return addModelOptions(command).addHelpText(
    'after',
    '\nCounterfactuals (stored apart from the session, listed by `skipper sessions`):\n' +
      '  $ skipper replay my-run --with builtin/random\n' +
      '  $ skipper replay my-run --with openai/gpt-4o-mini --from 3 --to 8 --json\n' +
      '  $ skipper replay my-run --prompt terse-prompt.txt',
  );
}

/** True when the replay is a counterfactual one; `--json` alone is refused (a plain replay is for people). */
export function wantsCounterfactual(flags: CounterfactualFlags): boolean {
  if (flags.with !== undefined || flags.prompt !== undefined) return true;
  if (flags.json) throw new UsageError('--json is for counterfactual replays: add --with MODEL (or --prompt FILE)');
  for (const flag of ['baseUrl', 'apiKeyEnv', 'price'] as const) {
    if (flags[flag] !== undefined)
      throw new UsageError(`--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} goes with --with MODEL`);
  }
  return false;
}

/** `skipper replay NAME --with MODEL …`: opens the store for writing (the run is stored), runs, prints. */
export async function runCounterfactualReplay(
  name: string,
  flags: CounterfactualFlags,
  deps: StoreCommandDeps,
): Promise<void> {
  const prompt = flags.prompt !== undefined ? readPromptFile(flags.prompt) : undefined;
  const place = storePlaceOf(flags);
  const store = await deps.openStore(place);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  try {
    const session = await store.getSession(name);
    const secrets = await deps.secrets(store, place);
    const provider = providerFor(flags.with ?? session.model, flags, { session, secrets });
    const result = await replayWith({
      store,
      session,
      provider,
      json: flags.json === true,
      ...(flags.from !== undefined ? { fromTurn: flags.from } : {}),
      ...(flags.to !== undefined ? { toTurn: flags.to } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
      redact: (text) => secrets.redact(text),
      stdout: process.stdout,
      signal: controller.signal,
    });
    if (result.stopped) {
      process.stderr.write(
        `skipper: the counterfactual stopped: ${secrets.redact(result.stopped)}. Check the model's endpoint and key, then run it again.\n`,
      );
      process.exitCode = ExitCode.failure;
    }
    if (controller.signal.aborted) process.exitCode = ExitCode.interrupted;
  } finally {
    process.off('SIGINT', onSignal);
    await store.close();
  }
}

/** The "Counterfactuals" section of `skipper sessions` (nothing when there are none). */
export async function counterfactualsTable(store: Store): Promise<string[]> {
  const rows = await store.counterfactuals.list();
  if (rows.length === 0) return [];
  const header = [
    'COUNTERFACTUAL',
    'OF SESSION',
    'MODEL',
    'DECISIONS',
    'SAME',
    'DIFFERENT',
    'INVALID',
    'AGREEMENT',
    'TOKENS',
    'COST',
    'STATUS',
  ];
  const body = rows.map(({ run, totals }) => [
    run.name,
    run.sessionName,
    `${run.model}${run.prompt !== null ? ' +prompt' : ''}`,
    String(totals.decisions),
    String(totals.same),
    String(totals.different),
    String(totals.invalid),
    `${(100 * agreement(totals)).toFixed(1)}%`,
    formatTokens(totals.tokens),
    formatUsd(totals.costUsd),
    run.status,
  ]);
  return [
    '',
    'Counterfactuals (replays with another model or prompt; the sessions above are unchanged):',
    ...tableLines(header, body),
  ];
}

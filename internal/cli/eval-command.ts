// `skipper eval DIR|NAME… --with MODEL…`: counterfactual replays over many sessions — every recorded session of a
// Skipper home (DIR, e.g. a bench output folder) or sessions by name — for each model, summed up in a Markdown table
// per model (`--json`: one line per session and model, one per model). Each run is stored like `replay --with`'s.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { runCounterfactual } from '../session/index.js';
import type { CounterfactualTotals, Session, Store } from '../store/index.js';
import { databaseFileName } from '../store/index.js';
import { ExitCode, UsageError } from '../shared/index.js';
import { addModelOptions } from './counterfactual-command.js';
import { agreement, providerFor, readPromptFile, totalsJson, type ModelFlags } from './counterfactual.js';
import { integerFlag } from './flags.js';
import { jsonLineWriter } from './json-events.js';
import type { StoreCommandDeps } from './sessions.js';
import { writeChunk } from './stdout.js';
import { formatTokens, formatUsd } from './text.js';

interface EvalFlags extends ModelFlags {
  with: string[];
  prompt?: string;
  json?: boolean;
  from?: number;
  to?: number;
}

interface Target {
  /** The home the session lives in (undefined: the default home or --home). */
  home: string | undefined;
  store: Store;
  session: Session;
}

export interface EvalRow {
  model: string;
  session: string;
  totals: CounterfactualTotals;
}

const emptyTotals = (): CounterfactualTotals => ({
  decisions: 0,
  same: 0,
  sameAction: 0,
  different: 0,
  invalid: 0,
  failed: 0,
  tokens: 0,
  costUsd: 0,
});

function add(a: CounterfactualTotals, b: CounterfactualTotals): CounterfactualTotals {
  return {
    decisions: a.decisions + b.decisions,
    same: a.same + b.same,
    sameAction: a.sameAction + b.sameAction,
    different: a.different + b.different,
    invalid: a.invalid + b.invalid,
    failed: a.failed + b.failed,
    tokens: a.tokens + b.tokens,
    costUsd: a.costUsd + b.costUsd,
  };
}

/** One Markdown table per model: a row per session and a total. */
export function evalTables(rows: readonly EvalRow[]): string[] {
  const lines: string[] = [];
  for (const model of [...new Set(rows.map((row) => row.model))]) {
    const mine = rows.filter((row) => row.model === model);
    const total = mine.reduce((sum, row) => add(sum, row.totals), emptyTotals());
    const cells = (label: string, t: CounterfactualTotals): string =>
      `| ${label} | ${t.decisions} | ${t.same} | ${t.different} | ${t.sameAction} | ${t.invalid} | ${t.failed} | ${(100 * agreement(t)).toFixed(1)}% | ${formatTokens(t.tokens)} | ${formatUsd(t.costUsd)} |`;
    lines.push(
      `### ${model}`,
      '',
      '| session | decisions | same | different | of which same action | invalid | failed | agreement | tokens | cost |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...mine.map((row) => cells(row.session, row.totals)),
      ...(mine.length > 1 ? [cells(`**all ${mine.length} sessions**`, total)] : []),
      '',
    );
  }
  return lines;
}

function isHome(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** DIR: every session of that home with recorded requests; NAME: that session of --home (or the default home). */
function collectTargets(
  args: readonly string[],
  home: string | undefined,
  deps: StoreCommandDeps,
  stores: Map<string, Store>,
): Target[] {
  const storeAt = (at: string | undefined): Store => {
    const key = at ?? '';
    let store = stores.get(key);
    if (!store) {
      store = deps.openStore(at);
      stores.set(key, store);
    }
    return store;
  };
  const targets: Target[] = [];
  for (const arg of args) {
    if (isHome(arg)) {
      if (!existsSync(join(arg, databaseFileName)))
        throw new UsageError(`${arg} is a folder without a Skipper database (${databaseFileName})`);
      const store = storeAt(arg);
      const recorded = store.listSessions().filter((row) => store.requests.count(row.session.id) > 0);
      if (recorded.length === 0)
        throw new UsageError(
          `no session in ${arg} has recorded model requests (sessions played before Skipper kept them cannot be replayed)`,
        );
      for (const row of recorded.reverse()) targets.push({ home: arg, store, session: row.session });
    } else {
      const store = storeAt(home);
      targets.push({ home, store, session: store.getSession(arg) });
    }
  }
  return targets;
}

export function registerEvalCommand(program: Command, deps: StoreCommandDeps): void {
  const command = program
    .command('eval')
    .description(
      'counterfactual replays over many sessions: what each model would have done, a Markdown table per model',
    )
    .argument('<targets...>', 'Skipper homes (every recorded session in them) or session names')
    .requiredOption(
      '--with <models...>',
      'models to ask (builtin/autopilot, builtin/random, openai/…, custom/… with --base-url)',
    )
    .option('--prompt <file>', 'try this system prompt instead of the recorded one')
    .option('--from <turn>', 'first turn of each session', integerFlag({ min: 1 }))
    .option('--to <turn>', 'last turn of each session', integerFlag({ min: 1 }))
    .option('--json', 'one JSON line per session and model, then one per model')
    .option('--home <dir>', 'data directory for session names (default $SKIPPER_HOME or ~/.local/share/skipper)');
  addModelOptions(command)
    .addHelpText(
      'after',
      '\nExamples:\n  $ skipper eval bench-out --with builtin/random openai/gpt-4o-mini\n  $ skipper eval run-1 run-2 --with ollama/qwen2.5:7b --json',
    )
    .action(async (args: string[], flags: EvalFlags) => {
      const prompt = flags.prompt !== undefined ? readPromptFile(flags.prompt) : undefined;
      const stores = new Map<string, Store>();
      const controller = new AbortController();
      const onSignal = (): void => controller.abort();
      process.on('SIGINT', onSignal);
      try {
        const targets = collectTargets(args, flags.home, deps, stores);
        const rows: EvalRow[] = [];
        const secretsOf = new Map(targets.map((target) => [target.store, deps.secrets(target.store, target.home)]));
        const redact = (text: string): string => [...secretsOf.values()].reduce((out, list) => list.redact(out), text);
        const writeJson = flags.json ? jsonLineWriter(process.stdout, { redact }) : undefined;
        for (const model of flags.with) {
          let total = emptyTotals();
          for (const target of targets) {
            if (controller.signal.aborted) break;
            // A fresh provider per session: the built-in autopilot learns from what it is shown, session by session.
            const provider = providerFor(
              model,
              { ...flags, home: target.home ?? flags.home },
              {
                session: target.session,
                ...(secretsOf.get(target.store) ? { secrets: secretsOf.get(target.store) } : {}),
              },
            );
            if (!writeJson) process.stderr.write(`eval: ${model} on ${target.session.name}…\n`);
            const result = await runCounterfactual({
              store: target.store,
              session: target.session,
              provider,
              range: {
                ...(flags.from !== undefined ? { fromTurn: flags.from } : {}),
                ...(flags.to !== undefined ? { toTurn: flags.to } : {}),
              },
              ...(prompt !== undefined ? { prompt } : {}),
              signal: controller.signal,
            });
            rows.push({ model, session: target.session.name, totals: result.totals });
            total = add(total, result.totals);
            writeJson?.(totalsJson(result.run, result.totals, result.skipped));
            if (result.stopped) {
              // The endpoint is down or refuses everything: the next sessions would fail the same way.
              process.stderr.write(`skipper: ${model} stopped on ${target.session.name}: ${redact(result.stopped)}\n`);
              process.exitCode = ExitCode.failure;
              break;
            }
          }
          writeJson?.({
            type: 'eval',
            model,
            sessions: rows.filter((row) => row.model === model).length,
            decisions: total.decisions,
            same: total.same,
            different: total.different,
            invalid: total.invalid,
            same_action: total.sameAction,
            failed: total.failed,
            agreement: Number(agreement(total).toFixed(4)),
            tokens: total.tokens,
            cost_usd: total.costUsd,
          });
        }
        if (!writeJson) for (const line of evalTables(rows)) await writeChunk(process.stdout, `${redact(line)}\n`);
        if (controller.signal.aborted) process.exitCode = ExitCode.interrupted;
      } finally {
        process.off('SIGINT', onSignal);
        for (const store of stores.values()) store.close();
      }
    });
}

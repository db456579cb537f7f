// `skipper eval DIR|NAME… --with MODEL…`: counterfactual replays over many sessions — every recorded session of a
// Skipper home (DIR, e.g. a bench output folder) or sessions by name — for each model, summed up in a Markdown table
// per model (`--json`: one line per session and model, one per model), then every model's agreement per session with
// its error bars (mean, sd, bootstrap 95 % interval, n, the paired difference to the baseline). Each run is stored
// like `replay --with`'s; an eval run again reuses the runs it already finished (same session, model, prompt and
// turns), so one interrupted continues with the sessions it had not done (`--fresh` asks every one again).
import { commandFrom, EVAL } from './commands.js';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { runCounterfactual } from '../session/index.js';
import type { CounterfactualSummary, CounterfactualTotals, Session, SessionSummary, Store } from '../store/index.js';
import { databaseFileName } from '../store/index.js';
import { ExitCode, UsageError, storePlaceOf, type StorePlace } from '../shared/index.js';
import { addModelOptions } from './counterfactual-command.js';
import { agreement, providerFor, readPromptFile, totalsJson, type ModelFlags } from './counterfactual.js';
import type { EvalScore } from './eval-scores.js';
import { dbOption, integerFlag } from './flags.js';
import { jsonLineWriter, type JsonWriter } from './json-events.js';
import type { SecretList } from './secrets.js';
import type { StoreCommandDeps } from './sessions.js';
import { writeChunk } from './stdout.js';
import { formatTokens, formatUsd } from './text.js';

interface EvalFlags extends ModelFlags {
  with: string[];
  prompt?: string;
  json?: boolean;
  from?: number;
  to?: number;
  db?: string;
  fresh?: boolean;
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
  /** The session's home and name: one key per session across homes (the pairs of the difference to the baseline). */
  key: string;
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

/** DIR: every session of that home with recorded requests; NAME: that session of --home and --db (or the default). */
async function collectTargets(
  args: readonly string[],
  place: StorePlace,
  deps: StoreCommandDeps,
  stores: Map<string, Store>,
): Promise<Target[]> {
  const storeAt = async (at: StorePlace): Promise<Store> => {
    const key = JSON.stringify([at.home ?? '', at.db ?? '']);
    let store = stores.get(key);
    if (!store) {
      store = await deps.openStore(at);
      stores.set(key, store);
    }
    return store;
  };
  const { home } = place;
  const targets: Target[] = [];
  for (const arg of args) {
    if (isHome(arg)) {
      if (!existsSync(join(arg, databaseFileName)))
        throw new UsageError(`${arg} is a folder without a Skipper database (${databaseFileName})`);
      const store = await storeAt({ home: arg });
      const recorded: SessionSummary[] = [];
      for (const row of await store.listSessions())
        if ((await store.requests.count(row.session.id)) > 0) recorded.push(row);
      if (recorded.length === 0)
        throw new UsageError(
          `no session in ${arg} has recorded model requests (sessions played before Skipper kept them cannot be replayed)`,
        );
      for (const row of recorded.reverse()) targets.push({ home: arg, store, session: row.session });
    } else {
      const store = await storeAt(place);
      targets.push({ home, store, session: await store.getSession(arg) });
    }
  }
  return targets;
}

export function registerEvalCommand(program: Command, deps: StoreCommandDeps): void {
  const command = commandFrom(program, EVAL)
    .argument('<targets...>', 'Skipper homes (every recorded session in them) or session names')
    .requiredOption(
      '--with <models...>',
      'models to ask (builtin/autopilot, builtin/random, openai/…, custom/… with --base-url)',
    )
    .option('--prompt <file>', 'try this system prompt instead of the recorded one')
    .option('--from <turn>', 'first turn of each session', integerFlag({ min: 1 }))
    .option('--to <turn>', 'last turn of each session', integerFlag({ min: 1 }))
    .option('--json', 'one JSON line per session and model, then one per model')
    .option('--fresh', 'ask every session again, even those this eval (same models, prompt, turns) already finished')
    .option('--home <dir>', 'data directory for session names (default $SKIPPER_HOME or ~/.local/share/skipper)')
    .addOption(dbOption());
  addModelOptions(command)
    .addHelpText(
      'after',
      '\nExamples:\n  $ skipper eval bench-out --with builtin/random openai/gpt-4o-mini\n  $ skipper eval run-1 run-2 --with ollama/qwen2.5:7b --json',
    )
    .action((args: string[], flags: EvalFlags) => runEval(args, flags, deps));
}

/** What every session's replay of one eval shares. */
interface EvalRun {
  flags: EvalFlags;
  prompt: string | undefined;
  signal: AbortSignal;
  secretsOf: Map<Store, SecretList>;
  redact: (text: string) => string;
  writeJson: JsonWriter | undefined;
  /** Each store's finished counterfactual runs, read once (what a re-run of the eval reuses). */
  finished: Map<Store, CounterfactualSummary[]>;
}

/** Each model over every target, then the tables (or the JSON lines); Ctrl+C stops between sessions, exit 130. */
async function runEval(args: string[], flags: EvalFlags, deps: StoreCommandDeps): Promise<void> {
  const prompt = flags.prompt !== undefined ? readPromptFile(flags.prompt) : undefined;
  const stores = new Map<string, Store>();
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  try {
    const targets = await collectTargets(args, storePlaceOf(flags), deps, stores);
    const rows: EvalRow[] = [];
    const secretsOf = new Map<Store, SecretList>();
    // One list per store (a store is one home's): every session of it shares it.
    for (const target of targets)
      if (!secretsOf.has(target.store))
        secretsOf.set(target.store, await deps.secrets(target.store, { home: target.home }));
    const redact = (text: string): string => [...secretsOf.values()].reduce((out, list) => list.redact(out), text);
    const writeJson = flags.json ? jsonLineWriter(process.stdout, { redact }) : undefined;
    const finished = new Map<Store, CounterfactualSummary[]>();
    const run: EvalRun = { flags, prompt, signal: controller.signal, secretsOf, redact, writeJson, finished };
    // The baseline first: every other model's line then carries its difference to it.
    // The scores' statistics come from the bench room, loaded when an eval runs (not for every store command's help).
    const { evalBaseline, evalScore, evalScoreTable } = await import('./eval-scores.js');
    const baseline = evalBaseline(flags.with);
    const models = baseline === undefined ? flags.with : [baseline, ...flags.with.filter((m) => m !== baseline)];
    for (const model of models) {
      const mine = await evalModel(run, model, targets);
      rows.push(...mine);
      writeJson?.(modelJson(model, mine, evalScore(rows, model, baseline)));
    }
    if (!writeJson) {
      const scores = models.map((model) => evalScore(rows, model, baseline));
      for (const line of [...evalTables(rows), ...evalScoreTable(scores, baseline)])
        await writeChunk(process.stdout, `${redact(line)}\n`);
    }
    if (controller.signal.aborted) process.exitCode = ExitCode.interrupted;
  } finally {
    process.off('SIGINT', onSignal);
    for (const store of stores.values()) await store.close();
  }
}

/** One model's replay of every target, a row each; it stops at the first session its endpoint refused. */
async function evalModel(run: EvalRun, model: string, targets: readonly Target[]): Promise<EvalRow[]> {
  const { flags, writeJson } = run;
  const rows: EvalRow[] = [];
  for (const target of targets) {
    if (run.signal.aborted) break;
    // A fresh provider per session: the built-in autopilot learns from what it is shown, session by session.
    const secrets = run.secretsOf.get(target.store);
    const provider = providerFor(
      model,
      { ...flags, home: target.home ?? flags.home },
      { session: target.session, ...(secrets ? { secrets } : {}) },
    );
    const key = `${target.home ?? ''}\u0000${target.session.name}`;
    const done = flags.fresh ? undefined : await finishedRun(run, target, provider.id);
    if (done) {
      if (!writeJson)
        process.stderr.write(`eval: ${model} on ${target.session.name}: done before (${done.run.name})\n`);
      rows.push({ model, session: target.session.name, key, totals: done.totals });
      writeJson?.({ ...totalsJson(done.run, done.totals, 0), skipped: null, reused: true });
      continue;
    }
    if (!writeJson) process.stderr.write(`eval: ${model} on ${target.session.name}…\n`);
    const result = await runCounterfactual({
      store: target.store,
      session: target.session,
      provider,
      range: {
        ...(flags.from !== undefined ? { fromTurn: flags.from } : {}),
        ...(flags.to !== undefined ? { toTurn: flags.to } : {}),
      },
      ...(run.prompt !== undefined ? { prompt: run.prompt } : {}),
      signal: run.signal,
      redact: run.redact,
    });
    rows.push({ model, session: target.session.name, key, totals: result.totals });
    writeJson?.(totalsJson(result.run, result.totals, result.skipped));
    if (result.stopped) {
      // The endpoint is down or refuses everything: the next sessions would fail the same way.
      process.stderr.write(`skipper: ${model} stopped on ${target.session.name}: ${run.redact(result.stopped)}\n`);
      process.exitCode = ExitCode.failure;
      break;
    }
  }
  return rows;
}

/** A replay of the session by the model that finished before, asked with the same prompt and turns. */
async function finishedRun(run: EvalRun, target: Target, model: string): Promise<CounterfactualSummary | undefined> {
  let finished = run.finished.get(target.store);
  if (!finished) {
    finished = (await target.store.counterfactuals.list()).filter((summary) => summary.run.status === 'done');
    run.finished.set(target.store, finished);
  }
  const { flags } = run;
  return finished.find(
    ({ run: stored }) =>
      stored.sessionId === target.session.id &&
      stored.model === model &&
      stored.prompt === (run.prompt ?? null) &&
      stored.fromTurn === (flags.from ?? null) &&
      stored.toTurn === (flags.to ?? null),
  );
}

/** `--json`'s line of one model's totals over its sessions, with its agreement's error bars. */
function modelJson(model: string, rows: readonly EvalRow[], score: EvalScore): Record<string, unknown> {
  const total = rows.reduce((sum, row) => add(sum, row.totals), emptyTotals());
  return {
    type: 'eval',
    model,
    sessions: rows.length,
    decisions: total.decisions,
    same: total.same,
    different: total.different,
    invalid: total.invalid,
    same_action: total.sameAction,
    failed: total.failed,
    agreement: Number(agreement(total).toFixed(4)),
    tokens: total.tokens,
    cost_usd: total.costUsd,
    mean: score.mean,
    sd: score.sd,
    ci95_low: score.ci95_low,
    ci95_high: score.ci95_high,
    n: score.n,
    diff_vs_baseline: score.diff_vs_baseline,
  };
}

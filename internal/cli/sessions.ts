// `skipper sessions`, `sessions rm`, `replay` and `export`: stored sessions listed, shown again with the live
// renderer, and written out as shareable transcripts.
import { commandFrom, SESSIONS, REPLAY, EXPORT } from './commands.js';
import { createWriteStream, type WriteStream } from 'node:fs';
import { Option, type Command } from 'commander';
import type { Redactor, SessionSummary, Store, TurnRecord } from '../store/index.js';
import { exportPieces, redactMessage } from '../store/index.js';
import { ExitCode, UsageError, sleep, type Message, storePlaceOf, type StorePlace } from '../shared/index.js';
import { askYesNo } from './ask.js';
import {
  addCounterfactualOptions,
  counterfactualsTable,
  runCounterfactualReplay,
  wantsCounterfactual,
  type CounterfactualFlags,
} from './counterfactual-command.js';
import { registerEvalCommand } from './eval-command.js';
import { dbOption, numberFlag, integerFlag } from './flags.js';
import { wantsColor, TerminalOutput } from './output.js';
import { createChalk, TranscriptRenderer, type TextSink } from './render.js';
import type { SecretList } from './secrets.js';
import { drained, writeChunk } from './stdout.js';
import { formatCost, formatTokens, signed, tableLines } from './text.js';
import { storedModelPriced } from '../provider/index.js';
import { invocation, passwordNote } from './invocation.js';
import type { StoreAccess } from './home.js';
import { exportOutcomeMarkdown } from './export-outcome.js';
import { openOutputFile, outputFileError } from './file-errors.js';
import { storedFigures, storedFiguresJson, type StoredFiguresJson } from '../session/index.js';
import { sessionPriced } from './report.js';

export interface StoreCommandDeps {
  /** The store of the run's --home and --db (else SKIPPER_DATABASE_URL, else the home's SQLite file). */
  openStore: (place: StorePlace, options?: StoreAccess) => Promise<Store>;
  /** Every secret in reach for this home and store (rule 14): exports and replays are redacted with it. */
  secrets: (store: Store, place: StorePlace) => Promise<SecretList>;
}

function ago(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)}h ago`;
  return `${Math.round(seconds / 86_400)}d ago`;
}

/** The base URL a session was played with (kept for resume), which tells a local custom endpoint. */
export function storedBaseUrl(session: { extra: Record<string, unknown> }): string | undefined {
  return typeof session.extra.baseUrl === 'string' ? session.extra.baseUrl : undefined;
}

/**
 * A start that failed: every turn stored for the session failed before the model replied (a refused key, Ollama not
 * running, the endpoint down). Such a session never played: `sessions` lists it apart, under its own heading.
 */
export function isFailedStart(turns: readonly Pick<TurnRecord, 'outcome'>[]): boolean {
  return turns.length > 0 && turns.every((turn) => turn.outcome === 'failed');
}

async function partitionSessions(store: Store): Promise<{ played: SessionSummary[]; failed: SessionSummary[] }> {
  const played: SessionSummary[] = [];
  const failed: SessionSummary[] = [];
  for (const row of await store.listSessions())
    (isFailedStart(await store.turns(row.session.id)) ? failed : played).push(row);
  return { played, failed };
}

function playedTable(rows: readonly SessionSummary[], now: number): string[] {
  const header = ['NAME', 'GAME', 'MODEL', 'TURNS', 'LAST ACTIVE', 'CREDITS Δ', 'TOKENS', 'COST'];
  const body = rows.map((row) => [
    row.session.name,
    row.session.game,
    row.session.model,
    String(row.turns),
    ago(row.lastActiveAt, now),
    row.creditsDelta === null ? '-' : signed(row.creditsDelta, { grouped: false }),
    formatTokens(row.tokens),
    formatCost({
      costUsd: row.costUsd,
      priced: row.tokens === 0 || row.costUsd > 0 || storedModelPriced(row.session.model, storedBaseUrl(row.session)),
    }),
  ]);
  return tableLines(header, body);
}

export interface SessionsTableOptions {
  all?: boolean;
  /** The run's --home and --db, carried into the commands the listing suggests. */
  place?: StorePlace;
}

/** The failed starts: listed whole with --all, else counted in one line that says how to see them. */
function failedStartLines(rows: readonly SessionSummary[], now: number, options: SessionsTableOptions): string[] {
  if (rows.length === 0) return [];
  if (!options.all) {
    const count = `${rows.length} failed start${rows.length === 1 ? '' : 's'}`;
    const hint = `${invocation({ place: options.place })} sessions --all`;
    return ['', `${count} (no model reply) not listed: \`${hint}\` shows them.`, ...noteLines(options.place)];
  }
  const header = ['NAME', 'GAME', 'MODEL', 'TRIED'];
  const body = rows.map((row) => [row.session.name, row.session.game, row.session.model, ago(row.lastActiveAt, now)]);
  return [
    '',
    'Failed starts (no model reply: a refused key, the endpoint or Ollama down):',
    ...tableLines(header, body),
  ];
}

function noteLines(place: StorePlace | undefined): string[] {
  const note = passwordNote(place);
  return note ? [note] : [];
}

export async function sessionsTable(
  store: Store,
  now = Date.now(),
  options: SessionsTableOptions = {},
): Promise<string[]> {
  const { played, failed } = await partitionSessions(store);
  const start = invocation({ place: options.place });
  const lines =
    played.length === 0
      ? [`No sessions yet. Start one with \`${start}\` or \`${start} --autoplay\`.`, ...noteLines(options.place)]
      : playedTable(played, now);
  return [...lines, ...failedStartLines(failed, now, options), ...(await counterfactualsTable(store))];
}

/** `skipper sessions --json`: one object per played session (and, with --all, per failed start, marked so), its
 * figures under the names `report --json`, the autoplay summary and the export header use, from storedFigures. */
export async function sessionsJson(
  store: Store,
  options: { all?: boolean } = {},
): Promise<Array<Record<string, unknown>>> {
  const { played, failed } = await partitionSessions(store);
  const rows = [
    ...played.map((row) => ({ row, failed: false })),
    ...(options.all ? failed : []).map((row) => ({ row, failed: true })),
  ];
  const objects: Array<Record<string, unknown>> = [];
  // One session at a time: the figures of a long session are read in pages, not all at once.
  for (const { row, failed: failedStart } of rows)
    objects.push({
      name: row.session.name,
      game: row.session.game,
      model: row.session.model,
      captain: row.session.username,
      goal: row.session.goal,
      status: row.session.status,
      failed_start: failedStart,
      ...(await sessionFiguresJson(store, row.session)),
      created_at: new Date(row.session.createdAt).toISOString(),
      last_active_at: new Date(row.lastActiveAt).toISOString(),
    });
  return objects;
}

/** The stored figures of a session, its USD per 1,000 credits null when its model's price is not known. */
async function sessionFiguresJson(
  store: Store,
  session: { id: string; model: string; extra: Record<string, unknown> },
): Promise<StoredFiguresJson> {
  const stored = await storedFigures(store, session.id);
  return storedFiguresJson(stored, { priced: sessionPriced(session, stored.usage) });
}

export interface ReplayOptions {
  store: Store;
  name: string;
  sink: TextSink;
  color: boolean;
  /** Recorded pace scaled by this (2 = twice as fast); undefined or instant = no waiting. */
  speed?: number;
  instant?: boolean;
  fromTurn?: number;
  toTurn?: number;
  /** Longest pause between two messages, whatever the recording says (idle hours are not replayed). */
  maxGapMs?: number;
  signal?: AbortSignal;
  /** Known secrets become `[redacted]` before anything is shown. */
  redact?: Redactor;
  /** Awaited after each message: a slow pipe makes the replay wait instead of piling up output. */
  drained?: () => Promise<void>;
}

/** Shows a stored session again through the live renderer. Returns how many messages were shown. */
export async function replaySession(options: ReplayOptions): Promise<number> {
  const session = await options.store.getSession(options.name);
  const turns = new Map<number, TurnRecord>((await options.store.turns(session.id)).map((turn) => [turn.turn, turn]));
  const range = {
    ...(options.fromTurn !== undefined ? { fromTurn: options.fromTurn } : {}),
    ...(options.toTurn !== undefined ? { toTurn: options.toTurn } : {}),
  };
  // Streamed in pages: a 100,000-message session replays without sitting in memory.
  const messages: AsyncIterable<Message> = options.store.iterateMessages(session.id, range);
  const renderer = new TranscriptRenderer({ sink: options.sink, color: options.color });
  const maxGap = options.maxGapMs ?? 2000;
  let turn: number | undefined;
  let previousAt: number | undefined;
  let shown = 0;
  const endTurn = (number: number | undefined): void => {
    if (number === undefined) return;
    const record = turns.get(number);
    renderer.turnEnd(record ? { outcome: record.outcome, rounds: record.rounds } : { outcome: 'answered', rounds: 0 });
  };
  const redact: Redactor = options.redact ?? ((text) => text);
  for await (const stored of messages) {
    if (options.signal?.aborted) break;
    const message = redactMessage(stored, redact);
    if (!options.instant && options.speed && previousAt !== undefined) {
      const gap = Math.min(maxGap, Math.max(0, message.createdAt - previousAt) / options.speed);
      if (gap > 5) await sleep(gap, options.signal).catch(() => undefined);
    }
    previousAt = message.createdAt;
    if (message.role === 'user') {
      endTurn(turn);
      turn = message.turn;
      const kind = (turn !== undefined ? turns.get(turn)?.inputKind : undefined) ?? 'user';
      renderer.turnStart(turn ?? 0, { kind, text: message.content });
    } else {
      renderer.replayMessage(message);
    }
    shown += 1;
    await options.drained?.();
  }
  endTurn(turn);
  return shown;
}

const homeOption = (): Option =>
  new Option('--home <dir>', 'data directory (default $SKIPPER_HOME or ~/.local/share/skipper)');

export function registerStoreCommands(program: Command, deps: StoreCommandDeps): void {
  registerSessionsCommand(program, deps);
  registerReplayCommand(program, deps);
  registerEvalCommand(program, deps);
  registerExportCommand(program, deps);
}

/** `skipper sessions [--json]` and `skipper sessions rm NAME`. */
function registerSessionsCommand(program: Command, deps: StoreCommandDeps): void {
  const sessions = commandFrom(program, SESSIONS)
    .addOption(homeOption())
    .option('--json', 'one JSON object per session (ticks, credits and net-worth change as report measures them)')
    .option('--all', 'also the failed starts (no model reply), under their own heading')
    .option('--names', 'only the names, one per line, most recent first (quick: for scripts and shell completion)')
    .addOption(dbOption())
    .action(async (options: StorePlace & { json?: boolean; all?: boolean; names?: boolean }) => {
      const place = storePlaceOf(options);
      const store = await deps.openStore(place, { readonly: true });
      try {
        const all = options.all === true;
        const lines = options.names
          ? (await store.listSessions()).map((row) => row.session.name)
          : options.json
            ? (await sessionsJson(store, { all })).map((row) => JSON.stringify(row))
            : await sessionsTable(store, Date.now(), { all, place });
        for (const line of lines) await writeChunk(process.stdout, `${line}\n`);
      } finally {
        await store.close();
      }
    });
  sessions
    .command('rm')
    .description('delete a session and everything recorded for it')
    .argument('<name>', 'session name')
    .option('-y, --yes', 'do not ask')
    .addOption(homeOption())
    .addOption(dbOption())
    .action(async (name: string, options: StorePlace & { yes?: boolean }) => {
      // `sessions --home B rm x` and `sessions rm x --home B` alike.
      const place = storePlaceOf({ ...sessions.opts<StorePlace>(), ...storePlaceOf(options) });
      const store = await deps.openStore(place, { existing: true });
      try {
        const session = await store.getSession(name);
        if (!options.yes) {
          if (!process.stdin.isTTY)
            throw new UsageError(
              `refusing to delete "${session.name}" from ${store.path} without confirmation: add --yes`,
            );
          const count = await store.messageCount(session.id);
          if (!(await askYesNo(`Delete session "${session.name}" (${count} messages) from ${store.path}? [y/N] `))) {
            process.stderr.write('kept.\n');
            return;
          }
        }
        await store.deleteSession(session.id);
        process.stdout.write(`deleted session ${session.name} from ${store.path}\n`);
      } finally {
        await store.close();
      }
    });
  for (const command of sessions.commands) command.exitOverride();
  sessions.exitOverride();
}

/** `skipper replay NAME`: a stored session shown again (or, with --with/--prompt, a counterfactual replay). */
function registerReplayCommand(program: Command, deps: StoreCommandDeps): void {
  const replay = commandFrom(program, REPLAY)
    .argument('<name>', 'session name (see `skipper sessions`)')
    .option('--speed <x>', 'recorded pace scaled by X (2 = twice as fast)', numberFlag({ min: 0.01, max: 1000 }), 1)
    .option('--instant', 'no pauses')
    .option('--from <turn>', 'first turn to show', integerFlag({ min: 1 }))
    .option('--to <turn>', 'last turn to show', integerFlag({ min: 1 }))
    .addOption(homeOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ skipper replay 2026-11-21-amber-falcon --speed 4\n  $ skipper replay my-run --instant --from 10 --to 12',
    )
    .action(async (name: string, options: ReplayFlags) => {
      // --with MODEL / --prompt FILE: a counterfactual replay (counterfactual-command.ts), not a showing.
      if (wantsCounterfactual(options)) return runCounterfactualReplay(name, options, deps);
      await showReplay(name, options, deps);
    });
  addCounterfactualOptions(replay);
}

type ReplayFlags = CounterfactualFlags & {
  speed: number;
  instant?: boolean;
  from?: number;
  to?: number;
  home?: string;
  db?: string;
};

/** Shows a stored session through the live renderer, at its recorded pace scaled (Ctrl+C stops it, exit 130). */
async function showReplay(name: string, options: ReplayFlags, deps: StoreCommandDeps): Promise<void> {
  const place = storePlaceOf(options);
  const store = await deps.openStore(place, { readonly: true });
  const color = wantsColor(process.stdout, process.env);
  const output = new TerminalOutput({
    stdout: process.stdout,
    stderr: process.stderr,
    color,
    interactive: false,
  });
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  try {
    const session = await store.getSession(name);
    if (options.from !== undefined) {
      const turns = (await store.listSessions()).find((row) => row.session.id === session.id)?.turns ?? 0;
      if (options.from > turns)
        throw new UsageError(
          `session ${session.name} has ${turns} turn${turns === 1 ? '' : 's'}: --from ${options.from} is past the end`,
        );
    }
    const secrets = await deps.secrets(store, place);
    const chalk = createChalk(color);
    output.line(chalk.dim(`replay of ${session.name} · game ${session.game} · model ${session.model}`));
    await replaySession({
      store,
      name,
      sink: output,
      color,
      speed: options.speed,
      ...(options.instant ? { instant: true } : {}),
      ...(options.from !== undefined ? { fromTurn: options.from } : {}),
      ...(options.to !== undefined ? { toTurn: options.to } : {}),
      signal: controller.signal,
      redact: (text) => secrets.redact(text),
      drained: () => drained(process.stdout),
    });
    if (controller.signal.aborted) process.exitCode = ExitCode.interrupted;
  } finally {
    process.off('SIGINT', onSignal);
    await store.close();
  }
}

/** `skipper export NAME [-o FILE [--force]]`: a write that fails is one line and exit 1 (issue 30). */
function registerExportCommand(program: Command, deps: StoreCommandDeps): void {
  commandFrom(program, EXPORT)
    .argument('<name>', 'session name')
    .addOption(new Option('--format <format>', 'md or jsonl').choices(['md', 'jsonl']).default('md'))
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--force', 'overwrite the -o file when it exists')
    .addOption(homeOption())
    .addOption(dbOption())
    .action(
      async (name: string, options: StorePlace & { format: 'md' | 'jsonl'; output?: string; force?: boolean }) => {
        const place = storePlaceOf(options);
        const store = await deps.openStore(place, { readonly: true });
        let file: WriteStream | undefined;
        try {
          const secrets = (await deps.secrets(store, place)).list();
          await store.getSession(name); // an unknown session is reported before any file is created
          // Opened here, synchronously: a bad path is a clear error now, not an unhandled stream error later.
          // An existing file is refused without --force; a failed write is one line and exit 1, not a stack trace.
          file = options.output
            ? createWriteStream('', { fd: openOutputFile(options.output, options.force === true) })
            : undefined;
          const target = file ?? process.stdout;
          let messages = 0;
          let headed = options.format !== 'md';
          const figures = { ...storedFiguresJson(await storedFigures(store, name)) };
          for await (const piece of exportPieces(store, name, { format: options.format, secrets, figures })) {
            await writeChunk(target, piece.text);
            if (piece.message) messages++;
            // Markdown opens with the session's header, then its outcome, then the transcript.
            if (!headed) {
              headed = true;
              await writeChunk(target, await exportOutcomeMarkdown(store, name));
            }
          }
          if (file) {
            const stream = file;
            await new Promise<void>((resolve, reject) =>
              stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
            );
            process.stderr.write(`exported ${messages} messages to ${options.output}\n`);
          }
        } catch (error) {
          if (!file || !options.output) throw error;
          file.destroy();
          throw outputFileError(error, options.output);
        } finally {
          await store.close();
        }
      },
    );
}

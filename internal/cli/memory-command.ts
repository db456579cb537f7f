// `skipper memory [list|rm ID|clear] [--captain NAME] [--home DIR] [--db URL]`: what each captain remembers, shown and pruned
// by hand.
import { commandFrom, MEMORY } from './commands.js';
import { askOnTerminal } from './ask.js';
import { Option, type Command } from 'commander';
import { redactSecrets } from '../llm/memory/index.js';
import type { Store } from '../store/index.js';
import { dbOption, integerFlag } from './flags.js';
import type { StoreAccess } from './home.js';
import { captainId } from '../store/index.js';
import { UsageError, type MemoryEntry, type MemoryKind, storePlaceOf, type StorePlace } from '../shared/index.js';
import { clipToWidth, stripAnsi } from './text.js';

export interface MemoryCommandDeps {
  /** `readonly` for listing (nothing created), `existing` for deleting (the home must be there already). */
  openStore: (place: StorePlace, options?: StoreAccess) => Promise<Store>;
  /** Where lines go (stdout by default; tests pass a collector). */
  write?: (line: string) => void;
  /**
   * Asked before `clear` without --yes (default: a y/N prompt on a terminal): true to clear, false when the person
   * said no, undefined when nobody could be asked (not a terminal: refused, --yes needed).
   */
  confirm?: (question: string) => Promise<boolean | undefined>;
  now?: () => number;
  /** Terminal width for clipping entry texts (default: stdout's, or 100). */
  width?: () => number;
}

function ago(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

/** Known captains, most recently active first: every (game, username) of the stored sessions. */
export async function knownCaptains(store: Store): Promise<string[]> {
  const seen = new Set<string>();
  for (const { session } of await store.listSessions()) {
    if (session.username) seen.add(captainId({ game: session.game, username: session.username }));
  }
  return [...seen];
}

/** "nova" or "embedded#nova" → the captain key; UsageError naming the candidates when unknown or ambiguous. */
export async function resolveCaptain(store: Store, name: string): Promise<string> {
  if (name.includes('#')) return name;
  const known = await knownCaptains(store);
  const matches = known.filter((captain) => captain.slice(captain.lastIndexOf('#') + 1) === name);
  if (matches.length === 1) return matches[0] as string;
  if (matches.length > 1) {
    throw new UsageError(`captain "${name}" plays more than one game; pick one with --captain: ${matches.join(', ')}`);
  }
  const list = known.length > 0 ? `known captains: ${known.join(', ')}` : 'no captain has played yet';
  throw new UsageError(`no captain named "${name}" (${list}); use --captain NAME or --captain GAME#NAME`);
}

/** The table `skipper memory list` prints for one captain. */
export function memoryTable(
  entries: readonly MemoryEntry[],
  options: { now: number; width: number; secrets: readonly string[] },
): string[] {
  if (entries.length === 0) return ['  (nothing remembered)'];
  const rows = entries.map((entry) => [
    String(entry.id),
    entry.kind,
    ago(entry.createdAt, options.now),
    String(entry.uses),
  ]);
  const header = ['ID', 'KIND', 'AGE', 'USES'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const prefix = (row: string[]): string =>
    `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}  `;
  const lines = [`${prefix(header)}TEXT`];
  entries.forEach((entry, index) => {
    const start = prefix(rows[index] ?? []);
    const text = redactSecrets(entry.text, options.secrets).replace(/\s+/g, ' ').trim();
    // Plain text: the listing is often piped, so no colour reset after the ellipsis.
    lines.push(start + stripAnsi(clipToWidth(text, Math.max(20, options.width - start.length))));
  });
  return lines;
}

/** The order `memory list` shows kinds in: what the captain chose to keep first, the per-turn episodes last. */
export const MEMORY_KIND_ORDER: readonly MemoryKind[] = ['note', 'lesson', 'handoff', 'episode'];
export const DEFAULT_MEMORY_LIST_LIMIT = 20;

/** One captain's entries as `memory list` shows them: one kind or all (grouped by kind, oldest first in each), at most `limit`. */
export function memoryListing(
  entries: readonly MemoryEntry[],
  options: { limit: number; kind?: MemoryKind },
): { shown: MemoryEntry[]; more: number } {
  const rank = (entry: MemoryEntry): number => MEMORY_KIND_ORDER.indexOf(entry.kind);
  const chosen = entries
    .filter((entry) => options.kind === undefined || entry.kind === options.kind)
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry) - rank(b.entry) || a.index - b.index)
    .map(({ entry }) => entry);
  return { shown: chosen.slice(0, options.limit), more: Math.max(0, chosen.length - options.limit) };
}

interface MemoryFlags {
  captain?: string;
  home?: string;
  db?: string;
  yes?: boolean;
  limit?: number;
  kind?: MemoryKind;
}

/** The memory command's deps with their defaults filled in. */
type MemoryIo = Required<MemoryCommandDeps>;

const captainOption = (): Option =>
  new Option('--captain <name>', 'one captain: NAME or GAME#NAME (default: all, or the latest for clear)');
const homeOption = (): Option =>
  new Option('--home <dir>', 'data directory (default $SKIPPER_HOME or ~/.local/share/skipper)');
const limitOption = (): Option =>
  new Option('--limit <n>', `entries shown per captain (default ${DEFAULT_MEMORY_LIST_LIMIT})`).argParser(
    integerFlag({ min: 1 }),
  );
const kindOption = (): Option => new Option('--kind <kind>', 'only this kind').choices(MEMORY_KIND_ORDER);

export function registerMemoryCommand(program: Command, deps: MemoryCommandDeps): void {
  const io: MemoryIo = {
    openStore: deps.openStore,
    write: deps.write ?? ((line: string) => void process.stdout.write(`${line}\n`)),
    now: deps.now ?? Date.now,
    width: deps.width ?? (() => process.stdout.columns ?? 100),
    confirm: deps.confirm ?? askOnTerminal,
  };
  const memory = commandFrom(program, MEMORY)
    .addOption(captainOption())
    .addOption(homeOption())
    .addOption(dbOption())
    .addOption(limitOption())
    .addOption(kindOption());
  // Flags may come before or after the subcommand: `memory --captain x list` and `memory list --captain x`.
  const flags = (own: MemoryFlags): MemoryFlags => ({ ...memory.opts<MemoryFlags>(), ...stripUndefined(own) });

  memory.action((options: MemoryFlags) => listMemory(io, flags(options)));
  memory
    .command('list')
    .description('entries per captain (notes and lessons first, then handoffs, episodes): id, kind, age, uses, text')
    .addOption(captainOption())
    .addOption(homeOption())
    .addOption(dbOption())
    .addOption(limitOption())
    .addOption(kindOption())
    .action((options: MemoryFlags) => listMemory(io, flags(options)));
  memory
    .command('rm')
    .description('delete one entry for good')
    .argument('<id>', 'entry id (see `skipper memory list`)')
    .addOption(captainOption())
    .addOption(homeOption())
    .addOption(dbOption())
    .action((raw: string, own: MemoryFlags) => removeMemoryEntry(io, raw, flags(own)));
  memory
    .command('clear')
    .description('delete everything a captain remembers (asks first unless --yes)')
    .addOption(captainOption())
    .addOption(homeOption())
    .addOption(dbOption())
    .option('-y, --yes', 'do not ask')
    .action((own: MemoryFlags) => clearMemory(io, flags(own)));

  for (const command of memory.commands) command.exitOverride();
  memory.exitOverride();
}

/** `skipper memory [list]`: a table of entries per captain, the most useful first, `--limit` of them each. */
async function listMemory(io: MemoryIo, options: MemoryFlags): Promise<void> {
  const { write } = io;
  const store = await io.openStore(storePlaceOf(options), { readonly: true });
  try {
    const secrets = store.credentials.passwordList();
    const captains = options.captain ? [await resolveCaptain(store, options.captain)] : await knownCaptains(store);
    if (captains.length === 0) {
      write('No captain has played yet: memory appears after the first session with a logged-in account.');
      return;
    }
    const limit = options.limit ?? DEFAULT_MEMORY_LIST_LIMIT;
    // One captain at a time, in order: the listing reads top to bottom.
    for (const [index, captain] of captains.entries()) {
      const entries = await store.memory.list(captain);
      const { shown, more } = memoryListing(entries, { limit, ...(options.kind ? { kind: options.kind } : {}) });
      const count = shown.length + more;
      if (index > 0) write('');
      write(`${captain}  (${count}${options.kind ? ` ${options.kind}` : ''} entr${count === 1 ? 'y' : 'ies'})`);
      for (const line of memoryTable(shown, { now: io.now(), width: io.width(), secrets })) write(line);
      if (more > 0)
        write(`  … ${more} more, use --limit ${count}${options.kind ? '' : ' or --kind note|lesson|handoff|episode'}`);
    }
  } finally {
    await store.close();
  }
}

/** `skipper memory rm ID`: one entry, refused when it is not there (or not the --captain's). */
async function removeMemoryEntry(io: MemoryIo, raw: string, options: MemoryFlags): Promise<void> {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0)
    throw new UsageError(`"${raw}" is not an entry id: use the number from \`skipper memory list\``);
  const store = await io.openStore(storePlaceOf(options), { existing: true });
  try {
    const entry = await store.memory.get(id);
    const captain = options.captain ? await resolveCaptain(store, options.captain) : undefined;
    if (!entry || (captain !== undefined && entry.captain !== captain)) {
      throw new UsageError(`no memory entry #${id}${captain ? ` for ${captain}` : ''}; see \`skipper memory list\``);
    }
    await store.memory.remove(id);
    io.write(`deleted memory #${id} (${entry.kind}) of ${entry.captain} from ${store.path}`);
  } finally {
    await store.close();
  }
}

/** `skipper memory clear`: all of one captain's memory (the latest captain by default), after a yes. */
async function clearMemory(io: MemoryIo, options: MemoryFlags): Promise<void> {
  const { write } = io;
  const store = await io.openStore(storePlaceOf(options), { existing: true });
  try {
    const captain = options.captain ? await resolveCaptain(store, options.captain) : (await knownCaptains(store))[0];
    if (!captain) {
      write('No captain has played yet: nothing to clear.');
      return;
    }
    const count = (await store.memory.list(captain)).length;
    const question = `Forget all ${count} memory entries of ${captain} in ${store.path}? [y/N] `;
    if (!options.yes) {
      const answer = await io.confirm(question);
      if (answer === undefined)
        throw new UsageError(`kept the memory of ${captain}: confirm on a terminal, or add --yes`);
      if (!answer) {
        write(`nothing cleared: the memory of ${captain} is kept`);
        return;
      }
    }
    write(`cleared ${await store.memory.clear(captain)} memory entries of ${captain} from ${store.path}`);
  } finally {
    await store.close();
  }
}

function stripUndefined(flags: MemoryFlags): MemoryFlags {
  return Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined)) as MemoryFlags;
}

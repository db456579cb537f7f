// How to run Skipper again from where the person is, for the hints it prints (`replay it: …`, `go on: …`): `skipper`
// when that name on PATH is this very program (`npm link`, a global install of skipper-captain); `npx skipper` inside
// this package's folder, where npm runs the folder's own bin; otherwise `node` with this program's full path. A hint
// that says `skipper` where no `skipper` is installed, or `npx skipper` outside the clone (npm would fetch the unrelated
// package named `skipper`), would not run as printed. A run given --home or --db carries them into its hints, or
// the command printed would look in the default home.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pgUrlWithoutPassword, type StorePlace } from '../shared/index.js';

let cached: string | undefined;

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The program `npx skipper` runs in `cwd` without fetching anything: npm exec first looks for a `skipper` bin in the
 * package.json of the folder it runs in. Anywhere else `npx skipper` would download the npm package named `skipper`
 * — an unrelated one (ours is `skipper-captain`) — so it is only ever suggested where this resolves to us.
 */
function localBin(cwd: string): string | undefined {
  const manifest = join(cwd, 'package.json');
  try {
    if (!existsSync(manifest)) return undefined;
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: unknown };
    const target = typeof bin === 'object' && bin !== null ? (bin as Record<string, unknown>).skipper : undefined;
    return typeof target === 'string' ? real(join(cwd, target)) : undefined;
  } catch {
    return undefined;
  }
}

export interface InvocationOptions {
  argv1?: string;
  path?: string;
  cwd?: string;
  /** The run's --home and --db, repeated after the program (an option before a command goes to it). */
  place?: StorePlace;
}

/** How to run Skipper again, with the run's --home and --db: `skipper --home DIR`, then the command of the hint. */
export function invocation(options: InvocationOptions = {}): string {
  return `${program(options)}${placeFlags(options.place)}`;
}

/** A word as a shell reads it back: quoted when it holds anything but plain path and URL characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function placeFlags(place: StorePlace | undefined): string {
  const flags: string[] = [];
  if (place?.home) flags.push(` --home ${shellWord(place.home)}`);
  if (place?.db) flags.push(` --db ${shellWord(pgUrlWithoutPassword(place.db))}`);
  return flags.join('');
}

/**
 * What a hint with --db cannot say: the password its URL had (never printed). Undefined when the URL had none, or
 * the run had no --db.
 */
export function passwordNote(place: StorePlace | undefined): string | undefined {
  if (!place?.db || pgUrlWithoutPassword(place.db) === place.db) return undefined;
  return '(--db is shown without its password: PostgreSQL reads it from PGPASSWORD or ~/.pgpass)';
}

function program(options: InvocationOptions): string {
  if (!options.argv1 && cached) return cached;
  const self = real(options.argv1 ?? process.argv[1] ?? '');
  // Run as a library (tests, benchmarks): the installed name is the best guess.
  if (!self || !/skipper\.js$/.test(self)) return 'skipper';
  const onPath = (options.path ?? process.env.PATH ?? '')
    .split(delimiter)
    // npm exec / npx / npm run put node_modules/.bin on PATH for that one command only: not where the person is.
    .filter((dir) => dir && !/node_modules[\\/]\.bin[\\/]?$/.test(dir))
    .some((dir) => real(join(dir, 'skipper')) === self);
  let result: string;
  if (onPath) {
    result = 'skipper';
  } else {
    const cwd = options.cwd ?? process.cwd();
    result = localBin(cwd) === self ? 'npx skipper' : `node ${/\s/.test(self) ? JSON.stringify(self) : self}`;
  }
  if (!options.argv1) cached = result;
  return result;
}

/** The line chat ends with: the session's name and the exact command that goes on with it (with the run's --home and
 * --db), so a person who leaves knows how to come back. */
export function chatEndLine(
  options: { sessionName: string; place?: StorePlace } & Omit<InvocationOptions, 'place'>,
): string {
  const { sessionName, ...rest } = options;
  return `session ${sessionName} · go on with it: ${invocation(rest)} -s ${shellWord(sessionName)}`;
}

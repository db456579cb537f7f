// How to run Skipper again from where the person is, for the hints it prints (`replay it: …`, `go on: …`): `skipper`
// when that name on PATH is this very program; `npx skipper` inside this package's folder (what `npm ci` sets up);
// otherwise `node` with this program's full path. A hint that says `skipper` where no `skipper` is installed — or where
// `skipper` is someone else's program — would not run as printed.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

let cached: string | undefined;

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export function invocation(options: { argv1?: string; path?: string; cwd?: string } = {}): string {
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
    const manifest = join(cwd, 'package.json');
    let name: unknown;
    try {
      name = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name : undefined;
    } catch {
      name = undefined;
    }
    const here = real(join(cwd, 'dist', 'cmd', 'skipper.js'));
    result = name === 'skipper' && here === self ? 'npx skipper' : `node ${/\s/.test(self) ? JSON.stringify(self) : self}`;
  }
  if (!options.argv1) cached = result;
  return result;
}

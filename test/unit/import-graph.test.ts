// The layering of ARCHITECTURE.md, checked on the source: no folder imports a folder above it (nor a sibling at its
// own level), a folder is entered through its index.ts. (How long a function may grow is the linter's to say: npm run lint.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Lower levels may be imported by higher ones; folders on one level do not import each other. */
const LEVEL: Record<string, number> = {
  shared: 0,
  spacemolt: 1,
  store: 2,
  provider: 2,
  game: 2,
  sim: 2,
  llm: 3,
  session: 4,
  fleet: 5,
  bench: 6,
  cli: 7,
  web: 7,
  cmd: 8,
};

function sourceFiles(dir: string, keep: (name: string) => boolean = (name) => name.endsWith('.ts')): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path, keep));
    else if (keep(name)) out.push(path);
  }
  return out;
}

/** `internal/llm/memory/x.ts` -> `llm`; `cmd/wire.ts` -> `cmd`. */
function folderOf(file: string): string {
  const parts = relative(root, file).split(sep);
  return parts[0] === 'internal' ? parts[1]! : parts[0]!;
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) found.push(match[1]!);
  return found;
}

const files = [...sourceFiles(join(root, 'internal')), ...sourceFiles(join(root, 'cmd'))];

interface Edge {
  file: string;
  target: string;
  from: string;
  to: string;
}

const edges: Edge[] = files.flatMap((file) =>
  relativeImports(file).map((spec) => {
    const target = resolve(dirname(file), spec);
    return { file: relative(root, file), target: relative(root, target), from: folderOf(file), to: folderOf(target) };
  }),
);

describe('import graph', () => {
  it('knows every folder under internal/', () => {
    const folders = readdirSync(join(root, 'internal')).filter((name) =>
      statSync(join(root, 'internal', name)).isDirectory(),
    );
    expect(folders.filter((name) => LEVEL[name] === undefined)).toEqual([]);
    expect(edges.length).toBeGreaterThan(100);
  });

  it('no folder imports a folder above it or beside it', () => {
    const wrong = edges
      .filter((edge) => edge.from !== edge.to && !(LEVEL[edge.to]! < LEVEL[edge.from]!))
      .map((edge) => `${edge.file} -> ${edge.target}`);
    expect(wrong).toEqual([]);
  });

  it('the game domain stands on shared, and shared knows nothing of the game', () => {
    expect(edges.some((edge) => edge.from === 'spacemolt' && edge.to === 'shared')).toBe(true);
    expect(edges.some((edge) => edge.from === 'sim' && edge.to === 'spacemolt')).toBe(true);
    expect(edges.some((edge) => edge.from === 'provider' && edge.to === 'spacemolt')).toBe(true);
    expect(edges.filter((edge) => edge.from === 'shared' && edge.to === 'spacemolt')).toEqual([]);
  });

  it('shared and llm name no game: no SpaceMolt words, no status call, no security words (issue 47)', () => {
    // The game's words live in spacemolt/ and reach the loop through the game profile's guide and the game layer.
    // Case-insensitive, anywhere in the file: code, comments and import paths alike.
    const words = /spacemolt|get_status|police|security|lawless|anarchy|patrol|empire/gi;
    const hits = (file: string): string[] =>
      [...readFileSync(file, 'utf8').matchAll(words)].map((match) => `${relative(root, file)}: ${match[0]}`);
    // The scan reads what it should: the security words' own home is full of them.
    expect(hits(join(root, 'internal', 'spacemolt', 'security.ts')).length).toBeGreaterThan(5);
    const every = (): boolean => true;
    const scanned = [
      ...sourceFiles(join(root, 'internal', 'shared'), every),
      ...sourceFiles(join(root, 'internal', 'llm'), every),
    ];
    expect(scanned.length).toBeGreaterThan(30);
    expect(scanned.flatMap(hits)).toEqual([]);
  });

  it('bench and cli reach the session engine, and bench never reaches cli', () => {
    expect(edges.some((edge) => edge.from === 'bench' && edge.to === 'session')).toBe(true);
    expect(edges.some((edge) => edge.from === 'cli' && edge.to === 'session')).toBe(true);
    expect(edges.filter((edge) => edge.from === 'bench' && edge.to === 'cli')).toEqual([]);
  });

  it('other folders are entered through their index.ts (cmd may wire the UI files directly)', () => {
    const wrong = edges
      .filter((edge) => edge.from !== edge.to && edge.from !== 'cmd')
      .filter((edge) => !edge.target.endsWith(`${sep}index.js`) && !edge.target.endsWith(`${sep}index`))
      .map((edge) => `${edge.file} -> ${edge.target}`);
    expect(wrong).toEqual([]);
  });
});

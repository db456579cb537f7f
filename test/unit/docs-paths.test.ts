// Docs true to the code (issue 47): every repository path that docs/architecture.md and CONTRIBUTING.md name in
// backquotes exists in the tree, so a recipe cannot send the next engineer to a file that moved.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `internal/…`, `cmd/…`, `test/…` and `docs/…` paths written in backquotes (with a file extension or a trailing /). */
function namedPaths(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const paths = new Set<string>();
  for (const match of text.matchAll(/`((?:internal|cmd|test|docs)\/[\w./-]+)`/g)) {
    const path = match[1]!;
    if (/\.(ts|js|md|css|html|svg|mjs)$/.test(path) || path.endsWith('/')) paths.add(path);
  }
  return [...paths];
}

describe('docs name files that exist', () => {
  for (const doc of ['docs/architecture.md', 'CONTRIBUTING.md']) {
    it(`${doc}`, () => {
      const named = namedPaths(doc);
      expect(named.length).toBeGreaterThan(10);
      expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
    });
  }
});

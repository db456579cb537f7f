// How a process's data grew between heap snapshots (internal/bench/heap-growth.ts): snapshots written here as V8
// writes them (meta, a flat node array, a string table), a few nodes each.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataByKind, growthBetween, growthText } from '../../../internal/bench/heap-growth.js';

const dir = mkdtempSync(join(tmpdir(), 'skipper-heap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TYPES = ['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native', 'synthetic'];
type Node = [type: string, name: string, id: number, size: number];

/** A snapshot file with these nodes (fields in V8's order, edges left empty). */
function snapshot(file: string, nodes: Node[]): string {
  const strings: string[] = [];
  const text = (value: string): number => (strings.includes(value) ? strings.indexOf(value) : strings.push(value) - 1);
  const flat = nodes.flatMap(([type, name, id, size]) => [TYPES.indexOf(type), text(name), id, size, 0, 0, 0]);
  const meta = {
    node_fields: ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'],
    node_types: [TYPES, 'string', 'number', 'number', 'number', 'number', 'number'],
  };
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ snapshot: { meta, node_count: nodes.length }, nodes: flat, strings }));
  return path;
}

const base: Node[] = [
  ['synthetic', '(GC roots)', 3, 0],
  ['object', 'Fleet', 101, 200],
  ['object', 'EventStream', 105, 500],
  ['string', 'sleeper', 107, 24],
];

describe('growthBetween', () => {
  it('counts the data by kind, V8 code left out, a thing made again in place of one let go not growth', () => {
    const before = dataByKind(snapshot('before.heapsnapshot', base));
    const after = dataByKind(
      snapshot('after.heapsnapshot', [
        ['synthetic', '(GC roots)', 3, 0],
        ['object', 'Fleet', 101, 200],
        ['object', 'EventStream', 205, 500], // opened again in place of 105
        ['string', 'sleeper', 107, 24],
        ['closure', 'onAbort', 201, 32], // a listener a look: growth
        ['object', 'system / Context', 203, 40],
        ['closure', 'onAbort', 207, 32],
        ['object', 'system / Context', 209, 40],
        ['code', '(code for look)', 211, 4000], // V8 compiling the loop: not the program's data
        ['string', 'UND_ERR', 213, 24], // strings counted by type
      ]),
    );
    const growth = growthBetween(before, after);
    expect(growth.count).toBe(5);
    expect(growth.bytes).toBe(2 * 32 + 2 * 40 + 24);
    expect(growth.top.map((kind) => kind.kind)).toEqual(['object:system / Context', 'closure:onAbort', 'string']);
    expect(growthText(growth)).toBe(
      '+5 objects, +168 B (growing most: object:system / Context +2 × +80 B, closure:onAbort +2 × +64 B, string +1 × +24 B)',
    );
  });

  it('says a shrinking heap with its sign, and nothing growing', () => {
    const before = dataByKind(snapshot('big.heapsnapshot', [...base, ['array', '', 301, 4136]]));
    const after = dataByKind(snapshot('small.heapsnapshot', base));
    expect(growthText(growthBetween(before, after))).toBe('−1 objects, −4.0 KB');
    expect(growthText(growthBetween(after, after))).toBe('+0 objects, +0 B');
  });

  it('refuses a file that is not a heap snapshot, saying which', () => {
    const path = join(dir, 'not.heapsnapshot');
    writeFileSync(path, JSON.stringify({ snapshot: { meta: { node_fields: ['type'], node_types: [[]] } }, nodes: [] }));
    expect(() => dataByKind(path)).toThrow(/not\.heapsnapshot: not a V8 heap snapshot \(its nodes have no name\)/);
  });
});

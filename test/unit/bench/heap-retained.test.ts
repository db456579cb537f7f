// What a process kept of what it made, read from three heap snapshots (internal/bench/heap-retained.ts): written here
// as V8 writes them (meta, a flat node array, a string table), a few nodes each.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { retainedSince, retainedText } from '../../../internal/bench/heap-retained.js';

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

describe('retainedSince', () => {
  it('counts the data objects made after A that B holds and C still holds, by kind', () => {
    const old: Node[] = [
      ['synthetic', '(GC roots)', 3, 0],
      ['object', 'Fleet', 101, 200],
    ];
    const a = snapshot('a.heapsnapshot', old);
    const b = snapshot('b.heapsnapshot', [
      ...old,
      ['closure', 'onAbort', 201, 32], // a listener a look: kept
      ['object', 'system / Context', 203, 40], // its context: kept
      ['object', 'Timeout', 205, 120], // a look's timer: gone by C
      ['code', '(code for look)', 207, 4000], // V8 compiling the loop: not the program's data
      ['string', 'UND_ERR', 209, 24], // kept, counted by type
      ['array', '', 211, 4136], // a table that grew: kept
    ]);
    const c = snapshot('c.heapsnapshot', [
      ...old,
      ['closure', 'onAbort', 201, 32],
      ['object', 'system / Context', 203, 40],
      ['code', '(code for look)', 207, 4000],
      ['string', 'UND_ERR', 209, 24],
      ['array', '', 211, 4136],
      ['closure', 'onAbort', 301, 32], // made after B: not judged (B did not hold it)
    ]);
    const retained = retainedSince(a, b, c);
    expect(retained.count).toBe(4);
    expect(retained.bytes).toBe(32 + 40 + 24 + 4136);
    expect(retained.top.map((kind) => kind.kind)).toEqual([
      'array',
      'object:system / Context',
      'closure:onAbort',
      'string',
    ]);
    expect(retainedText(retained)).toBe(
      '4 objects, 4.1 KB (array 1 × 4.0 KB, object:system / Context 1 × 40 B, closure:onAbort 1 × 32 B)',
    );
  });

  it('says nothing was kept when nothing was', () => {
    const one = snapshot('one.heapsnapshot', [['object', 'Fleet', 101, 200]]);
    expect(retainedText(retainedSince(one, one, one))).toBe('0 objects, 0 B');
  });

  it('refuses a file that is not a heap snapshot, saying which', () => {
    const path = join(dir, 'not.heapsnapshot');
    writeFileSync(path, JSON.stringify({ snapshot: { meta: { node_fields: ['type'], node_types: [[]] } }, nodes: [] }));
    expect(() => retainedSince(path, path, path)).toThrow(
      /not\.heapsnapshot: not a V8 heap snapshot \(its nodes have no name\)/,
    );
  });
});

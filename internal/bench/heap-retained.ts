// What a process kept of what it made over a span, read from three V8 heap snapshots (v8.writeHeapSnapshot) taken at
// A, B and C: the objects made after A (V8 keeps an object's id from one snapshot to the next, so one whose id A does
// not hold was made after it) that are alive at B and still alive at C. Something a process keeps doing and keeps a
// trace of (a listener a look, a timer, a growing list) shows up here however slowly it grows; what it makes and lets
// go (a look's promises, the answer it read) does not. V8's own code and its metadata (compiled functions, bytecode,
// feedback, hidden classes), which grows for a while as the hot paths get compiled and then stops, is left out by
// node type: it is not the program's state.
import { readFileSync } from 'node:fs';

/** Node types that are the program's data. Left out: code, hidden (V8's internals), object shape (hidden classes),
 * synthetic (roots). */
const DATA_TYPES = new Set([
  'object',
  'closure',
  'array',
  'string',
  'concatenated string',
  'sliced string',
  'regexp',
  'number',
  'native',
  'symbol',
  'bigint',
]);

interface HeapSnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface SnapshotNodes {
  /** Per node: its type, name, id and self size. */
  each(visit: (node: { type: string; name: string; id: number; size: number }) => void): void;
}

function readSnapshot(path: string): SnapshotNodes {
  const file = JSON.parse(readFileSync(path, 'utf8')) as HeapSnapshotFile;
  const fields = file.snapshot.meta.node_fields;
  const types = file.snapshot.meta.node_types[0];
  const width = fields.length;
  const at = (name: string): number => {
    const index = fields.indexOf(name);
    if (index < 0) throw new Error(`${path}: not a V8 heap snapshot (its nodes have no ${name})`);
    return index;
  };
  const [type, name, id, size] = [at('type'), at('name'), at('id'), at('self_size')];
  const { nodes, strings } = file;
  return {
    each(visit) {
      for (let base = 0; base < nodes.length; base += width)
        visit({
          type: types[nodes[base + type] as number] ?? '?',
          name: strings[nodes[base + name] as number] ?? '',
          id: nodes[base + id] as number,
          size: nodes[base + size] as number,
        });
    },
  };
}

export interface RetainedKind {
  /** `type:name` (strings and numbers by type alone: their names are their contents). */
  kind: string;
  count: number;
  bytes: number;
}

export interface RetainedObjects {
  count: number;
  /** Their self sizes summed. */
  bytes: number;
  /** The kinds that hold the most bytes, largest first (at most 8). */
  top: RetainedKind[];
}

function kindOf(type: string, name: string): string {
  return type === 'object' || type === 'closure' || type === 'native' ? `${type}:${name || '(anonymous)'}` : type;
}

/** The data objects made after snapshot A that are alive in B and still alive in C (paths in that order). */
export function retainedSince(a: string, b: string, c: string): RetainedObjects {
  const aliveAtStart = new Set<number>();
  readSnapshot(a).each((node) => aliveAtStart.add(node.id));
  const aliveAtEnd = new Set<number>();
  readSnapshot(c).each((node) => aliveAtEnd.add(node.id));
  const kinds = new Map<string, RetainedKind>();
  readSnapshot(b).each((node) => {
    if (aliveAtStart.has(node.id) || !DATA_TYPES.has(node.type) || !aliveAtEnd.has(node.id)) return;
    const kind = kindOf(node.type, node.name);
    const entry = kinds.get(kind) ?? { kind, count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += node.size;
    kinds.set(kind, entry);
  });
  const all = [...kinds.values()];
  return {
    count: all.reduce((sum, kind) => sum + kind.count, 0),
    bytes: all.reduce((sum, kind) => sum + kind.bytes, 0),
    top: all.sort((x, y) => y.bytes - x.bytes || x.kind.localeCompare(y.kind)).slice(0, 8),
  };
}

/** "3 objects, 0.4 KB (array 2 × 4.2 KB, object:Object 1 × 56 B)" */
export function retainedText(retained: RetainedObjects): string {
  const size = (bytes: number): string => (bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} B`);
  const kinds = retained.top.slice(0, 3).map((kind) => `${kind.kind} ${kind.count} × ${size(kind.bytes)}`);
  return `${retained.count} objects, ${size(retained.bytes)}${kinds.length ? ` (${kinds.join(', ')})` : ''}`;
}

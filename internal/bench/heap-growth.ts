// How a process's data grew between V8 heap snapshots (v8.writeHeapSnapshot): the objects of each kind counted in
// each snapshot, and the change from one to the next. Something a process keeps doing and keeps a trace of (a listener
// a look, a timer, a growing list) grows every window however slowly; what it makes and lets go (a look's promises,
// the answer it read) and what it makes in place of what it let go (a connection opened again) do not, nor do the
// one-time things of a long run (a code path taken for the first time) past the window they happen in. V8's own code
// and its metadata (compiled functions, bytecode, feedback, hidden classes), which grow for a while as the hot paths
// get compiled and then stop, are left out by node type: they are not the program's state.
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

export interface KindCount {
  /** `type:name` (strings and numbers by type alone: their names are their contents). */
  kind: string;
  count: number;
  bytes: number;
}

/** A snapshot's data objects by kind (self sizes summed). */
export function dataByKind(path: string): Map<string, KindCount> {
  const file = JSON.parse(readFileSync(path, 'utf8')) as HeapSnapshotFile;
  const fields = file.snapshot.meta.node_fields;
  const types = file.snapshot.meta.node_types[0];
  const at = (name: string): number => {
    const index = fields.indexOf(name);
    if (index < 0) throw new Error(`${path}: not a V8 heap snapshot (its nodes have no ${name})`);
    return index;
  };
  const [typeAt, nameAt, sizeAt] = [at('type'), at('name'), at('self_size')];
  const { nodes, strings } = file;
  const kinds = new Map<string, KindCount>();
  for (let base = 0; base < nodes.length; base += fields.length) {
    const type = types[nodes[base + typeAt] as number] ?? '?';
    if (!DATA_TYPES.has(type)) continue;
    const name = strings[nodes[base + nameAt] as number] ?? '';
    const kind =
      type === 'object' || type === 'closure' || type === 'native' ? `${type}:${name || '(anonymous)'}` : type;
    const entry = kinds.get(kind) ?? { kind, count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += nodes[base + sizeAt] as number;
    kinds.set(kind, entry);
  }
  return kinds;
}

export interface HeapGrowth {
  /** Data objects in the later snapshot less those in the earlier (negative when fewer). */
  count: number;
  bytes: number;
  /** The kinds that grew the most in bytes, largest first (at most 8). */
  top: KindCount[];
}

/** The change of the data from one snapshot's kinds to a later one's. */
export function growthBetween(from: Map<string, KindCount>, to: Map<string, KindCount>): HeapGrowth {
  const changes: KindCount[] = [];
  for (const kind of new Set([...from.keys(), ...to.keys()])) {
    const before = from.get(kind);
    const after = to.get(kind);
    changes.push({
      kind,
      count: (after?.count ?? 0) - (before?.count ?? 0),
      bytes: (after?.bytes ?? 0) - (before?.bytes ?? 0),
    });
  }
  return {
    count: changes.reduce((sum, change) => sum + change.count, 0),
    bytes: changes.reduce((sum, change) => sum + change.bytes, 0),
    top: changes
      .filter((change) => change.bytes > 0)
      .sort((x, y) => y.bytes - x.bytes || x.kind.localeCompare(y.kind))
      .slice(0, 8),
  };
}

function size(bytes: number): string {
  const sign = bytes < 0 ? '−' : '+';
  const magnitude = Math.abs(bytes);
  return `${sign}${magnitude >= 1024 ? `${(magnitude / 1024).toFixed(1)} KB` : `${magnitude} B`}`;
}

/** "+3 objects, +4.1 KB (array +1 × +4.0 KB, …)" */
export function growthText(growth: HeapGrowth): string {
  const kinds = growth.top
    .slice(0, 3)
    .map((kind) => `${kind.kind} ${kind.count >= 0 ? '+' : ''}${kind.count} × ${size(kind.bytes)}`);
  const count = `${growth.count >= 0 ? '+' : '−'}${Math.abs(growth.count)} objects`;
  return `${count}, ${size(growth.bytes)}${kinds.length ? ` (growing most: ${kinds.join(', ')})` : ''}`;
}

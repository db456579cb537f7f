// The lane graph the autopilot has learned: which systems connect, from the map, get_system, a find_route answer or a
// status's `Connections:` line, and the shortest path over it. A lane goes both ways.
import type { SystemInfo } from './knowledge.js';

type Systems = Map<string, SystemInfo>;

/** One lane, both ways; a system first heard of here is known by its id only. */
export function addLane(systems: Systems, a: string, b: string): void {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const known = systems.get(from);
    if (known) known.connections.add(to);
    else systems.set(from, { id: from, name: from, connections: new Set([to]) });
  }
}

/** Lanes out of one system (a status's `Connections:` line). */
export function addLanes(systems: Systems, systemId: string, lanes: readonly string[]): void {
  for (const lane of lanes) addLane(systems, systemId, lane);
}

/** A route is a chain of lanes. */
export function addRoute(systems: Systems, route: readonly string[]): void {
  for (let i = 1; i < route.length; i += 1) addLane(systems, route[i - 1] as string, route[i] as string);
}

/** Shortest path of system ids (both ends included) over known lanes, or undefined. */
export function shortestPath(systems: ReadonlyMap<string, SystemInfo>, from: string, to: string): string[] | undefined {
  if (from === to) return [from];
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    for (const next of [...(systems.get(current)?.connections ?? [])].sort()) {
      if (previous.has(next)) continue;
      previous.set(next, current);
      if (next === to) {
        const path = [to];
        while (path[0] !== from) path.unshift(previous.get(path[0] as string) as string);
        return path;
      }
      queue.push(next);
    }
  }
  return undefined;
}

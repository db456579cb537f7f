// Paths the explore mode weighs: the cheapest way to an unvisited system (lawless space costs more on a worn hull)
// and the nearest system with a station, over the lanes the map told.
import { assumedPolice, type Knowledge } from './knowledge.js';

/** Cost of entering a system: one jump, plus a pirate penalty that is small on a healthy hull and large otherwise. */
function entryCost(knowledge: Knowledge, systemId: string, healthy: boolean): number {
  const police = assumedPolice(knowledge.systems.get(systemId));
  if (police >= 50) return 1;
  const risk = (50 - police) / 50;
  return 1 + (healthy ? 0.3 * risk : 2 + 2 * risk);
}

/** The cheapest unvisited known system to reach (Dijkstra over known lanes), with its path; undefined if none. */
export function pickTarget(
  knowledge: Knowledge,
  from: string,
  healthy: boolean,
): { id: string; path: string[] } | undefined {
  const cost = new Map<string, number>([[from, 0]]);
  const previous = new Map<string, string>();
  const done = new Set<string>();
  for (;;) {
    let current: string | undefined;
    for (const [id, c] of cost) {
      if (done.has(id)) continue;
      const best = current === undefined ? Infinity : (cost.get(current) as number);
      if (c < best || (c === best && current !== undefined && id < current)) current = id;
    }
    if (current === undefined) return undefined;
    done.add(current);
    if (current !== from && !knowledge.visited.has(current)) {
      const path = [current];
      while (path[0] !== from) path.unshift(previous.get(path[0] as string) as string);
      return { id: current, path };
    }
    const base = cost.get(current) as number;
    for (const next of knowledge.systems.get(current)?.connections ?? []) {
      if (done.has(next)) continue;
      const c = base + entryCost(knowledge, next, healthy);
      if (c < (cost.get(next) ?? Infinity)) {
        cost.set(next, c);
        previous.set(next, current);
      }
    }
  }
}

/** Jumps from `from` to the nearest system known to have a station (0 if it has one); a large number if none. */
export function stationJumps(knowledge: Knowledge, from: string): number {
  const route = routeToStation(knowledge, from);
  // No station known anywhere: there is nothing to keep fuel for.
  return route ? route.length - 1 : 0;
}

export function routeToStation(knowledge: Knowledge, from: string): string[] | undefined {
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    if (knowledge.systems.get(current)?.hasStation) {
      const path = [current];
      while (path[0] !== from) path.unshift(previous.get(path[0] as string) as string);
      return path;
    }
    for (const next of [...(knowledge.systems.get(current)?.connections ?? [])].sort()) {
      if (previous.has(next)) continue;
      previous.set(next, current);
      queue.push(next);
    }
  }
  return undefined;
}

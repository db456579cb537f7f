// The autopilot's side of the systems a fleet shares: what it tells the fleet of a system it surveyed (get_system),
// and how the systems its fleet-mates surveyed join its own map, so it plans routes and mining loops there without
// asking get_system itself (every query costs the game's per-account budget and a round). Without a fleet port
// nothing here is called.
import type { FleetKnowledgePort, SharedSystemView } from '../../spacemolt/index.js';
import type { PoiType } from '../../spacemolt/index.js';
import type { PoiInfo, SystemInfo } from './knowledge.js';
import { addLane } from './lanes.js';

/** A system the autopilot surveyed, as the fleet is told it. */
export function publishSystem(options: {
  port: FleetKnowledgePort;
  system: SystemInfo;
  pois: readonly PoiInfo[];
  at: number;
}): void {
  const { port, system, pois, at } = options;
  port.publishSystem({
    systemId: system.id,
    name: system.name,
    ...(system.policeLevel !== undefined ? { policeLevel: system.policeLevel } : {}),
    connections: [...system.connections].sort(),
    pois: pois.map((poi) => ({
      id: poi.id,
      name: poi.name,
      ...(poi.type !== undefined ? { type: poi.type } : {}),
      hasBase: poi.hasBase,
    })),
    at,
  });
}

/**
 * Merges the fleet's surveys of systems this captain has not surveyed itself: their POIs (type, base) and lanes. A
 * system it surveyed stays as it saw it; a POI it knows more of (deposits, yields) keeps what it knows. Returns how
 * many systems were merged.
 */
export function mergeSystems(options: {
  views: readonly SharedSystemView[];
  systems: Map<string, SystemInfo>;
  pois: Map<string, PoiInfo>;
}): number {
  const { views, systems, pois } = options;
  let merged = 0;
  for (const view of views) {
    if (systems.get(view.systemId)?.pois) continue;
    for (const lane of view.connections) addLane(systems, view.systemId, lane);
    const known = systems.get(view.systemId);
    systems.set(view.systemId, {
      connections: new Set(),
      ...known,
      id: view.systemId,
      name: view.name,
      ...(view.policeLevel !== undefined ? { policeLevel: view.policeLevel } : {}),
      hasStation: view.pois.some((poi) => poi.hasBase),
      pois: view.pois.map((poi) => poi.id),
    });
    for (const poi of view.pois) {
      const knownPoi = pois.get(poi.id);
      pois.set(poi.id, {
        yields: new Map(),
        ...knownPoi,
        id: poi.id,
        systemId: view.systemId,
        name: poi.name,
        type: (poi.type as PoiType | undefined) ?? knownPoi?.type,
        hasBase: poi.hasBase,
      });
    }
    merged += 1;
  }
  return merged;
}

// The map's trail windows, as SpaceMolt's Recon offers them (5 minutes … 7 days): each captain's places from its
// stored snapshots made in the window (their `created_at`), one point per change of place, at most
// TRAIL_WINDOW_POINTS per captain (the newest kept) so a week of a busy fleet stays a light page.
import type { SnapshotRecord } from '../store/index.js';

export const TRAIL_WINDOWS = {
  '5m': 5 * 60_000,
  '1h': 60 * 60_000,
  '24h': 24 * 60 * 60_000,
  '7d': 7 * 24 * 60 * 60_000,
} as const;

export type TrailWindow = keyof typeof TRAIL_WINDOWS;

/** Points per captain a window's trail keeps at most. */
export const TRAIL_WINDOW_POINTS = 200;

export interface TrailPoint {
  systemId: string;
  poiId: string | null;
  tick: number;
  /** When the snapshot that first put the ship there was stored (epoch ms). */
  at: number;
}

export function isTrailWindow(value: string): value is TrailWindow {
  return Object.hasOwn(TRAIL_WINDOWS, value);
}

/**
 * The places of the snapshots stored at or after `since` (oldest first), a stay at one place folded into its first
 * snapshot; snapshots in transit (no system) are left out. At most `maxPoints`, the newest.
 */
export function windowTrail(
  snapshots: readonly SnapshotRecord[],
  options: { since: number; maxPoints?: number },
): TrailPoint[] {
  const trail: TrailPoint[] = [];
  for (const snapshot of snapshots) {
    if (snapshot.createdAt < options.since || !snapshot.systemId) continue;
    const last = trail.at(-1);
    if (last && last.systemId === snapshot.systemId && last.poiId === snapshot.poiId) continue;
    trail.push({ systemId: snapshot.systemId, poiId: snapshot.poiId, tick: snapshot.tick, at: snapshot.createdAt });
  }
  return trail.slice(-(options.maxPoints ?? TRAIL_WINDOW_POINTS));
}

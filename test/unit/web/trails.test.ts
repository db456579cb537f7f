// The trail windows (5 minutes … 7 days): a captain's places from the snapshots stored in the window, a stay folded
// into one point, transit left out, the newest points kept under the cap.
import { describe, expect, it } from 'vitest';
import type { SnapshotRecord } from '../../../internal/store/index.js';
import { isTrailWindow, TRAIL_WINDOWS, windowTrail } from '../../../internal/web/trails.js';

const NOW = 1_000_000_000;

function at(minutesAgo: number, systemId: string | null, poiId: string | null, tick: number): SnapshotRecord {
  return { systemId, poiId, tick, createdAt: NOW - minutesAgo * 60_000 } as SnapshotRecord;
}

const SNAPSHOTS = [
  at(60 * 30, 'sol', 'sol_belt', 1),
  at(90, 'sol', 'sol_station', 2),
  at(50, 'rim', null, 3),
  at(4, 'rim', 'rim_belt', 4),
  at(3, 'rim', 'rim_belt', 5),
  at(2, null, null, 6),
  at(1, 'sol', 'sol_station', 7),
];

const since = (window: keyof typeof TRAIL_WINDOWS): number => NOW - TRAIL_WINDOWS[window];

describe('windowTrail', () => {
  it('keeps the places of the snapshots in the window, one point per change of place', () => {
    expect(windowTrail(SNAPSHOTS, { since: since('5m') })).toEqual([
      { systemId: 'rim', poiId: 'rim_belt', tick: 4, at: NOW - 4 * 60_000 },
      { systemId: 'sol', poiId: 'sol_station', tick: 7, at: NOW - 60_000 },
    ]);
    expect(windowTrail(SNAPSHOTS, { since: since('1h') }).map((point) => point.tick)).toEqual([3, 4, 7]);
    expect(windowTrail(SNAPSHOTS, { since: since('24h') }).map((point) => point.tick)).toEqual([2, 3, 4, 7]);
    expect(windowTrail(SNAPSHOTS, { since: since('7d') }).map((point) => point.tick)).toEqual([1, 2, 3, 4, 7]);
  });

  it('keeps the newest points under the cap', () => {
    const many = Array.from({ length: 50 }, (_, index) => at(50 - index, `s${index % 2}`, null, index));
    const trail = windowTrail(many, { since: since('1h'), maxPoints: 10 });
    expect(trail.map((point) => point.tick)).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
  });

  it('knows its windows', () => {
    expect(['5m', '1h', '24h', '7d'].every(isTrailWindow)).toBe(true);
    expect(isTrailWindow('2h')).toBe(false);
    expect(isTrailWindow('toString')).toBe(false);
  });
});

// A fleet worker's share of the captains and the captains that ended for this run (pure parts of fleet-worker.ts).
import { describe, expect, it } from 'vitest';
import { endedCaptains, workerShare } from '../../../internal/fleet/fleet-worker.js';
import type { FleetCaptainRecord } from '../../../internal/store/index.js';

describe('workerShare', () => {
  it('is an even split among live workers, rounded up, never above the broker share', () => {
    expect(workerShare({ captains: 10, liveWorkers: 2, brokerShare: 50 })).toBe(5);
    expect(workerShare({ captains: 10, liveWorkers: 3, brokerShare: 50 })).toBe(4);
    expect(workerShare({ captains: 10, liveWorkers: 1, brokerShare: 50 })).toBe(10);
    expect(workerShare({ captains: 1000, liveWorkers: 1, brokerShare: 50 })).toBe(50);
    expect(workerShare({ captains: 10, liveWorkers: 0, brokerShare: 50 })).toBe(10);
  });
});

describe('endedCaptains', () => {
  const row = (name: string, state: FleetCaptainRecord['state'], updatedAt: number): FleetCaptainRecord =>
    ({ name, state, updatedAt }) as FleetCaptainRecord;
  it('counts finished, failed and stopped captains of this run only', () => {
    const rows = [
      row('a', 'finished', 200),
      row('b', 'failed', 150),
      row('c', 'playing', 300),
      row('d', 'finished', 50),
    ];
    expect([...endedCaptains(rows, 100)].sort()).toEqual(['a', 'b']);
  });
});

// The map's layout depends on what is known, not on who found it first: the same systems and lanes, learnt in any
// order, lay out the same; and the game's names are kept for every id it named.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../internal/shared/index.js';
import { Galaxy } from '../../../internal/web/galaxy.js';

function system(id: string, links: string[]): Message {
  return {
    id: `m-${id}`,
    role: 'tool',
    content: '',
    toolCallId: `c-${id}`,
    toolName: 'get_system',
    createdAt: 0,
    data: {
      op: 'get_system',
      details: {
        system: {
          id,
          name: id.toUpperCase(),
          police_level: id === 'rim' ? 10 : 80,
          pois: [{ id: `${id}_belt`, name: `${id} Belt`, type: 'asteroid_belt' }],
          connections: links.map((other) => ({ system_id: other, name: other.toUpperCase() })),
        },
      },
    },
  } as Message;
}

const SYSTEMS: Array<[string, string[]]> = [
  ['sol', ['alpha', 'beta']],
  ['alpha', ['sol', 'rim']],
  ['beta', ['sol', 'gamma']],
  ['gamma', ['beta', 'rim']],
  ['rim', ['alpha', 'gamma']],
];

describe('Galaxy layout', () => {
  it('lays out the same map the same whatever the order it was learnt in', () => {
    const forward = new Galaxy();
    for (const [id, links] of SYSTEMS) forward.ingest(system(id, links));
    const backward = new Galaxy();
    for (const [id, links] of [...SYSTEMS].reverse()) backward.ingest(system(id, links));
    const place = (galaxy: Galaxy): Record<string, [number, number]> =>
      Object.fromEntries(galaxy.view().map((entry) => [entry.id, [entry.x, entry.y]]));
    expect(place(backward)).toEqual(place(forward));
    // Spread out: no two systems on top of each other.
    const points = Object.values(place(forward));
    for (let i = 0; i < points.length; i++)
      for (let j = i + 1; j < points.length; j++)
        expect(Math.hypot(points[i]![0] - points[j]![0], points[i]![1] - points[j]![1])).toBeGreaterThan(50);
  });

  it('keeps the names, POI kinds and police levels the game said', () => {
    const galaxy = new Galaxy();
    for (const [id, links] of SYSTEMS) galaxy.ingest(system(id, links));
    expect(galaxy.nameOf('sol_belt')).toBe('sol Belt');
    expect(galaxy.nameOf('rim')).toBe('RIM');
    const rim = galaxy.view().find((entry) => entry.id === 'rim')!;
    expect(rim.policeLevel).toBe(10);
    expect(rim.pois['rim_belt']!.type).toBe('asteroid_belt');
  });
});

// The fleet bench's CPU figures: reading a /proc stat line (a command name with spaces and parentheses), the CPU per
// action in each third of a run from readings taken along it, and the note that says both.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuByThirds, cpuNote, cpuTicksOfStat, type RunReading } from '../../../internal/bench/fleet.js';

/** A stat line as /proc writes it, with user and system ticks at fields 14 and 15. */
function statLine(command: string, utime: number, stime: number): string {
  const after = ['S', '1', '1', '1', '0', '-1', '4194560', '100', '0', '0', '0', String(utime), String(stime)];
  return `4242 (${command}) ${after.join(' ')} 0 0 20 0 11 0 12345 1000000 2000 18446744073709551615`;
}

describe('cpuTicksOfStat', () => {
  it('adds user and system ticks, counting fields after the last parenthesis of the command', () => {
    expect(cpuTicksOfStat(statLine('node', 250, 50))).toBe(300);
    expect(cpuTicksOfStat(statLine('we (ird) name', 7, 3))).toBe(10);
  });

  it('reads this process’s own line', () => {
    const ticks = cpuTicksOfStat(readFileSync('/proc/self/stat', 'utf8'));
    expect(Number.isInteger(ticks)).toBe(true);
    expect(ticks).toBeGreaterThanOrEqual(0);
  });

  it('says nothing for a line that is not one', () => {
    expect(cpuTicksOfStat('')).toBeUndefined();
    expect(cpuTicksOfStat('4242 (node) S 1')).toBeUndefined();
  });
});

describe('cpuByThirds', () => {
  // 90 s read every 10 s: 3,000 ms of CPU for 600 actions in the first 30 s, 2,000 for 800 in the next, 1,500 for
  // 1,000 in the last.
  const readings: RunReading[] = [
    { atMs: 10_000, cpuMs: 1_000, actions: 100 },
    { atMs: 20_000, cpuMs: 2_000, actions: 300 },
    { atMs: 30_000, cpuMs: 3_000, actions: 600 },
    { atMs: 40_000, cpuMs: 3_500, actions: 800 },
    { atMs: 50_000, cpuMs: 4_500, actions: 1_100 },
    { atMs: 60_000, cpuMs: 5_000, actions: 1_400 },
    { atMs: 70_000, cpuMs: 5_500, actions: 1_700 },
    { atMs: 80_000, cpuMs: 6_000, actions: 2_000 },
    { atMs: 90_000, cpuMs: 6_500, actions: 2_400 },
  ];

  it('divides each third’s CPU by its actions', () => {
    expect(cpuByThirds(readings)).toEqual([5, 2.5, 1.5]);
  });

  it('reads them in time order, whatever order they came in', () => {
    expect(cpuByThirds([...readings].reverse())).toEqual([5, 2.5, 1.5]);
  });

  it('takes the last reading at or before each boundary when none falls on it', () => {
    const coarse = readings.filter((reading) => reading.atMs !== 30_000 && reading.atMs !== 60_000);
    // The first third ends at the 20 s reading; the second runs from there to the 50 s one.
    expect(cpuByThirds(coarse)).toEqual([2_000 / 300, 2_500 / 800, 2_000 / 1_300]);
  });

  it('gives no figure for a third without an action, and none at all without readings', () => {
    const idleStart = [
      { atMs: 30_000, cpuMs: 900, actions: 0 },
      { atMs: 60_000, cpuMs: 1_900, actions: 500 },
      { atMs: 90_000, cpuMs: 2_900, actions: 1_000 },
    ];
    expect(cpuByThirds(idleStart)).toEqual([undefined, 2, 2]);
    expect(cpuByThirds([])).toEqual([undefined, undefined, undefined]);
  });
});

describe('cpuNote', () => {
  it('says the whole, the main thread’s share and the thirds', () => {
    const note = cpuNote(
      {
        cpuMs: 27_100,
        mainCpuMs: 20_000,
        readings: [
          { atMs: 10_000, cpuMs: 3_000, actions: 600 },
          { atMs: 20_000, cpuMs: 5_000, actions: 1_400 },
          { atMs: 30_000, cpuMs: 6_500, actions: 2_400 },
        ],
      },
      7_917,
    );
    expect(note).toBe(
      '7917 actions (server count), 27.1 s CPU: main thread 20.0 s, other threads 7.1 s; ' +
        'by thirds of the run 5.00 / 2.50 / 1.50 ms an action',
    );
  });

  it('marks a third without an action', () => {
    expect(cpuNote({ cpuMs: 1_000, mainCpuMs: 1_000, readings: [] }, 0)).toContain('by thirds of the run – / – / –');
  });
});

// One definition of tick utilisation for the autoplay summary and `skipper report`: the game's busy ÷ alive when it
// reports them, else the client's own ticks-its-actions-took ÷ ticks elapsed, each labelled with its source.
import { describe, expect, it } from 'vitest';
import { tickUtilisation } from '../../../internal/session/index.js';

describe('tickUtilisation', () => {
  it("prefers the game's own figures, whatever the client counted", () => {
    expect(tickUtilisation({ server: { busy: 45, alive: 50 }, actionTicks: 50, ticksElapsed: 50 })).toEqual({
      value: 0.9,
      source: 'server',
    });
    expect(tickUtilisation({ server: { busy: 0, alive: 0 }, actionTicks: 3, ticksElapsed: 10 })).toBeUndefined();
  });

  it("falls back on the client's estimate, labelled, and is unknown when no tick went by", () => {
    expect(tickUtilisation({ actionTicks: 5, ticksElapsed: 11 })).toEqual({ value: 5 / 11, source: 'estimated' });
    expect(tickUtilisation({ actionTicks: 0, ticksElapsed: 11 })).toEqual({ value: 0, source: 'estimated' });
    expect(tickUtilisation({ actionTicks: 5, ticksElapsed: 0 })).toBeUndefined();
    expect(tickUtilisation({ actionTicks: 5, ticksElapsed: undefined })).toBeUndefined();
  });

  it('never reads above 1: an estimated clock running slow cannot make a tick busier than busy', () => {
    expect(tickUtilisation({ actionTicks: 12, ticksElapsed: 10 })?.value).toBe(1);
  });
});

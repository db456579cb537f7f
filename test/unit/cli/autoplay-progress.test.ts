import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { autoplayProgress, formatStatusLine } from '../../../internal/cli/status.js';

const usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 0 };
const chalk = new Chalk({ level: 0 });

describe('autoplay progress on the status line', () => {
  it('counts ticks from the run’s start against --max-ticks, and time left against --duration', () => {
    expect(autoplayProgress({ startTick: 100, maxTicks: 120 }, 137, 0)).toBe('tick 37/120');
    expect(autoplayProgress({ endsAt: 200_000 }, 5, 70_000)).toBe('2m10s left');
    expect(autoplayProgress({ endsAt: 10_000 }, 5, 1_500)).toBe('9s left');
    expect(autoplayProgress({ endsAt: 8_000_000 }, 5, 0)).toBe('2h13m left');
    expect(autoplayProgress({ startTick: 0, maxTicks: 10, endsAt: 5_000 }, 3, 0)).toBe('tick 3/10 · 5s left');
  });

  it('says nothing without limits or outside autoplay, and never counts a negative tick', () => {
    expect(autoplayProgress(undefined, 5, 0)).toBeUndefined();
    expect(autoplayProgress({ startTick: 3 }, 5, 0)).toBeUndefined();
    expect(autoplayProgress({ startTick: 50, maxTicks: 10 }, 40, 0)).toBe('tick 0/10');
  });

  it('leads the status line while autoplay runs', () => {
    const line = formatStatusLine({
      state: { credits: 150, tick: 42 },
      usage,
      chalk,
      autoplay: { startTick: 2, maxTicks: 120 },
      now: 0,
    });
    expect(line.startsWith('tick 40/120 · ¢ 150')).toBe(true);
    expect(formatStatusLine({ state: { credits: 150, tick: 42 }, usage, chalk })).not.toMatch(/\/120/);
  });
});

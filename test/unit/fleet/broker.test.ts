// The broker's own rules on a fake clock: captains start one after another, a refused registration pauses every
// captain's registration for as long as the server said, the IP health figure is what is left of the tighter budget,
// and without the broker (perConnection) each connection gets a pacer of its own.
import { describe, expect, it } from 'vitest';
import { FleetBroker } from '../../../internal/fleet/index.js';
import { IpPacer } from '../../../internal/game/index.js';
import { AbortedError } from '../../../internal/shared/index.js';

function fakeTime(): {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  slept: number[];
} {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    now: () => now,
    slept,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new AbortedError();
      slept.push(ms);
      now += ms;
    },
  };
}

describe('FleetBroker', () => {
  it('starts captains one startGapMs apart, in the order asked', async () => {
    // Three captains asking at the same instant: each is told to wait one gap more than the one before.
    const waits: number[] = [];
    const broker = new FleetBroker({ startGapMs: 250, now: () => 5000, sleep: async (ms) => void waits.push(ms) });
    await Promise.all([broker.admitStart(), broker.admitStart(), broker.admitStart()]);
    expect(waits).toEqual([250, 500]);
    expect(broker.health().captainsStarted).toBe(3);
  });

  it('a refused registration pauses every registration until the time the server gave', async () => {
    const time = fakeTime();
    const broker = new FleetBroker({ now: time.now, sleep: time.sleep });
    await broker.admitRegistration();
    expect(time.slept).toEqual([]);
    broker.registrationRefused(60_000);
    broker.registrationRefused(10_000); // a shorter pause never shortens the longer one
    await broker.admitRegistration();
    expect(time.slept).toEqual([60_000]);
    expect(broker.registrationWaits).toBe(1);
    await broker.admitRegistration();
    expect(time.slept).toEqual([60_000]);
  });

  it('a pause is cut short by the fleet stopping', async () => {
    const time = fakeTime();
    const broker = new FleetBroker({ now: time.now, sleep: time.sleep });
    broker.registrationRefused(60_000);
    const stop = new AbortController();
    stop.abort();
    await expect(broker.admitRegistration(stop.signal)).rejects.toBeInstanceOf(AbortedError);
  });

  it('IP health is what is left of the tighter budget: logins, or refusals before a timeout', async () => {
    let now = 0;
    const pacer = new IpPacer({
      loginsPerWindow: 10,
      windowMs: 60_000,
      clock: { now: () => now, sleep: async () => {} },
    });
    const broker = new FleetBroker({ pacer, loginsPerWindow: 10, rejectionsToTimeout: 50 });
    expect(broker.health().ipHealth).toBe(100);
    for (let i = 0; i < 3; i++) await pacer.admitLogin(undefined, () => {});
    expect(broker.health().ipHealth).toBe(70);
    for (let i = 0; i < 40; i++) pacer.rejected();
    expect(broker.health().ipHealth).toBe(20);
    expect(broker.health().peakLogins).toBe(3);
    now += 60_001;
    expect(broker.health().ipHealth).toBe(100);
  });

  it('with the broker every connection shares one pacer; without it, each gets its own', () => {
    const shared = new FleetBroker();
    expect(shared.pacerFor()).toBe(shared.pacerFor());
    const alone = new FleetBroker({ perConnection: true });
    expect(alone.pacerFor()).not.toBe(alone.pacerFor());
  });
});

// The fleet bench measures what users run: it plays the /mcp/v2 face `skipper serve`'s banner names (and fails on a
// banner that offers another, rather than measuring the flat /mcp face), and it reads each process's memory from
// /proc while the process lives — a real child that allocates and holds ~120 MB is read at its peak, the peak stays
// after it exited, and a process never read alive makes the sampler fail instead of summing a guess.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BENCH_FACE, gameUrlOfBanner, Sampler, sampleProcess } from '../../../internal/bench/fleet.js';

/** `skipper serve`'s banner as it prints it (port and key from one run). */
const BANNER = [
  'minimolt is serving MCP at http://127.0.0.1:40977/mcp/v2 (grouped tools, recommended; ?preset=basic|standard|full)',
  '  and at http://127.0.0.1:40977/mcp (flat tools)',
  '  registration code: bench-fleet-code  (register needs it)',
  '  seed 42, 30 systems, 1000 ms per tick, world in memory (not saved)',
  '  Connect any MCP client (Streamable HTTP) to either URL; health: http://127.0.0.1:40977/health. Ctrl+C stops.',
  '  Let Skipper play it: node dist/cmd/skipper.js --game http://127.0.0.1:40977/mcp/v2 --registration-code bench-fleet-code',
  '',
].join('\n');

describe('the fleet bench plays the /mcp/v2 face', () => {
  it('takes the --game URL of the banner: /mcp/v2, not the flat /mcp listed before it', () => {
    expect(gameUrlOfBanner(BANNER)).toBe('http://127.0.0.1:40977/mcp/v2');
    expect(new URL(gameUrlOfBanner(BANNER)!).pathname).toBe(BENCH_FACE);
  });

  it('waits for the line to be complete, and fails on a banner that offers another face', () => {
    expect(gameUrlOfBanner(BANNER.split('  Let Skipper')[0]!)).toBeUndefined();
    expect(gameUrlOfBanner('Let Skipper play it: skipper --game http://127.0.0.1:9/mcp/v')).toBeUndefined();
    expect(() =>
      gameUrlOfBanner('Let Skipper play it: skipper --game http://127.0.0.1:9/mcp --registration-code x\n'),
    ).toThrow(/not the \/mcp\/v2 face/);
  });
});

describe('the memory sampler reads processes while they live', () => {
  it('reads a live child at its peak and keeps the peak after it exited', async () => {
    // Holds ~120 MB of touched memory for a second, then exits.
    const child = spawn(process.execPath, [
      '-e',
      'const b = Buffer.alloc(120 * 1024 * 1024, 1); setTimeout(() => console.log(b.length), 1000)',
    ]);
    const pid = child.pid!;
    const sampler = new Sampler(() => [pid], sampleProcess, 50);
    await new Promise((done) => child.once('exit', done));
    expect(sampleProcess(pid)).toBeUndefined(); // gone: nothing is read of it now
    sampler.take(); // a reading after the exit changes nothing
    const peaks = sampler.stop();
    expect(peaks.processes).toBe(1);
    expect(peaks.peakMb).toBeGreaterThan(120);
    expect(peaks.peakTogetherMb).toBeGreaterThan(120);
    expect(peaks.peakTogetherMb).toBeLessThanOrEqual(peaks.peakMb);
  });

  it('sums each process’s own peak, and gives the most held at once apart', () => {
    const readings = new Map<number, Array<{ rssKb: number; peakKb: number }>>([
      [
        1,
        [
          { rssKb: 100 * 1024, peakKb: 100 * 1024 },
          { rssKb: 10 * 1024, peakKb: 100 * 1024 },
        ],
      ],
      [
        2,
        [
          { rssKb: 10 * 1024, peakKb: 10 * 1024 },
          { rssKb: 100 * 1024, peakKb: 100 * 1024 },
        ],
      ],
    ]);
    let reading = 0;
    const sampler = new Sampler(
      () => [1, 2],
      (pid) => {
        const row = readings.get(pid)![Math.min(reading, 1)]!;
        return { ...row, cpuTicks: 0, mainTicks: 0 };
      },
      60_000,
    );
    reading = 1;
    sampler.take();
    const peaks = sampler.stop();
    expect(peaks.peakMb).toBe(200);
    expect(peaks.peakTogetherMb).toBe(110); // never both at their peak at once
  });

  it('fails when a process was never read alive (a zombie or gone before the first reading)', () => {
    const sampler = new Sampler(
      () => [1, 2],
      (pid) => (pid === 1 ? { rssKb: 1024, peakKb: 1024, cpuTicks: 1, mainTicks: 1 } : undefined),
      60_000,
    );
    expect(() => sampler.stop()).toThrow(/1 of 2 processes were never read alive/);
  });
});

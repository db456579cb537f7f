// Fault group — the disk fills while Skipper plays the embedded game (issue 30). SKIPPER_HOME lives on a 3 MB tmpfs
// (we run as root here and in CI; where mount is not permitted the case is skipped and says why). After the first
// turn a file takes all the space left: the run must exit within 5 s with a message that says the disk is full (no
// stack trace), every message its --json stream acknowledged must be in the store, and once space is freed the
// session resumes. It used to hang for as long as the disk stayed full (the log file's flush retried ENOSPC forever).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMinimolt } from '../../internal/sim/index.js';
import type { FatalError } from '../../internal/shared/index.js';
import { runCli } from '../fakes/cli-process.js';
import { checkStore, exitWithin, jsonEvents, stopChild } from './harness.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'skipper-diskfull-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mountPoint], { encoding: 'utf8' });
const mountError = mounted.status === 0 ? undefined : (mounted.stderr || String(mounted.error)).trim();
afterAll(() => {
  if (mountError === undefined) spawnSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Writes zeros until the file system refuses; returns how many bytes it took. */
function fillDisk(path: string): number {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return written;
}

describe('faults: disk full', () => {
  it('a full disk under the embedded game stops play within 5 s, says so, and loses nothing acknowledged', async ({
    task,
    skip,
  }) => {
    task.meta.faultGroup = 'disk full';
    if (mountError !== undefined) {
      task.meta.faultLine = `disk full: skipped, a tmpfs could not be mounted (${mountError})`;
      console.log(`faults: disk full skipped: mount -t tmpfs is not permitted here (${mountError})`);
      skip(mountError);
    }
    const home = join(mountPoint, 'home');
    mkdirSync(home);
    const args = ['-s', 'full', '--autoplay', '--tick-ms', '50', '--json'];
    const cli = runCli(args, { home });
    let exit: Awaited<ReturnType<typeof exitWithin>>;
    let seconds = Number.NaN;
    try {
      await cli.waitFor(/"type":"turn-end"/, { timeoutMs: 30_000 });
      const filled = fillDisk(join(mountPoint, 'filler'));
      const started = Date.now();
      exit = await exitWithin(cli, 5_000);
      seconds = (Date.now() - started) / 1000;
      task.meta.faultLine = `disk full: filled ${(filled / 1024).toFixed(0)} KB; exited ${
        exit ? `with ${exit.code} after ${seconds.toFixed(2)} s` : 'not within 5 s'
      }`;
    } finally {
      await stopChild(cli);
    }
    expect(exit, 'the run did not exit within 5 s of the disk filling').toBeDefined();

    expect(exit!.code).toBe(1);
    expect(cli.stderr()).toMatch(/^skipper: could not write to .*the disk is full\. Nothing already stored is lost/);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);

    // Space again: everything the run acknowledged is stored, and the session plays on from it.
    rmSync(join(mountPoint, 'filler'));
    const acknowledged = jsonEvents(cli).filter((event) => event.type === 'message' && typeof event.id === 'string');
    const store = checkStore(home);
    const lost = acknowledged.filter((event) => !store.ids.has(event.id as string)).length;
    task.meta.faultLine += `; ${acknowledged.length} acknowledged, ${lost} lost`;
    expect(store.integrity).toBe('ok');
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(lost).toBe(0);
    const resumed = runCli(['-s', 'full', '--autoplay', '--max-ticks', '5', '--tick-ms', '0', '--json'], { home });
    resumed.child.stdin.end();
    const again = await exitWithin(resumed, 30_000);
    expect(again?.code, resumed.stderr()).toBe(0);
    expect(resumed.stdout()).toMatch(/"type":"session-start","session":"full"[^\n]*"resumed":true/);
    task.meta.faultLine += ', resumed once space was freed';
  }, 90_000);

  it('the world file alone on a full disk stops the clock and reports it once (the embedded game then ends play)', async ({
    task,
    skip,
  }) => {
    task.meta.faultGroup = 'disk full, world file';
    if (mountError !== undefined) skip(mountError);
    const failures: FatalError[] = [];
    const sim = await createMinimolt({
      worldDb: join(mountPoint, 'world-alone.db'),
      tickMs: 20,
      onDiskFull: (error) => failures.push(error),
    });
    const filler = join(mountPoint, 'filler-world');
    try {
      fillDisk(filler);
      const started = Date.now();
      while (failures.length === 0 && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 20));
      const seconds = (Date.now() - started) / 1000;
      expect(failures, 'no disk-full report within 5 s').toHaveLength(1);
      expect(failures[0]!.message).toMatch(/world-alone\.db: the disk is full\. Nothing already stored is lost/);
      const tick = sim.tick;
      await new Promise((r) => setTimeout(r, 200));
      expect(sim.tick).toBe(tick); // no tick runs that could not be kept
      expect(failures).toHaveLength(1);
      task.meta.faultLine = `disk full, world file alone: reported after ${seconds.toFixed(2)} s, clock stopped`;
    } finally {
      rmSync(filler, { force: true });
      await sim.close();
    }
  });
});

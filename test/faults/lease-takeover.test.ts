// Fault group — kill -9 the session's holder, then resume at once (rule 19). A Skipper killed without warning leaves
// its lease behind; the next `-s NAME` on this host sees that the holder's pid is gone and takes the session over
// without waiting the 30 s a silent lease needs to go stale. N kills on one session (10, short form 2), each followed
// at once by the next run; the final run must play to its end and leave no lease behind (the first run's name lease,
// which no resume asks for, is swept as stale with the next take).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';
import { exitWithin, faultMode, stopChild } from './harness.js';

const home = makeHome();
afterAll(() => removeHome(home));

const KILLS = faultMode() === 'short' ? 2 : 10;
const SESSION = 'faults-lease';
/** Well under the 30 s stale time: a run that had to wait it out would not start its first turn within this. */
const PROMPT_MS = 15_000;

function leaseHolders(): number[] {
  const db = new Database(join(home, 'skipper.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT pid FROM leases WHERE key LIKE 'session:%'").all() as Array<{ pid: number }>).map(
      (row) => row.pid,
    );
  } finally {
    db.close();
  }
}

describe('faults: kill -9 the lease holder', () => {
  it(`kill -9 the player and resume at once, ${KILLS} times`, async ({ task }) => {
    task.meta.faultGroup = 'lease takeover';
    const args = ['-s', SESSION, '--autoplay', '--tick-ms', '50', '--json'];
    const failures: string[] = [];
    let takenOver = 0;
    for (let index = 1; index <= KILLS; index++) {
      const cli = runCli([...args, '--max-ticks', '400'], { home });
      try {
        // The first turn ended: this run holds the lease and has stored the session.
        await cli.waitFor(/"type":"turn-end"/, { timeoutMs: PROMPT_MS });
      } catch (error) {
        failures.push(`run #${index} did not play within ${PROMPT_MS} ms: ${String(error).split('\n')[0]}`);
        await stopChild(cli, 'SIGKILL');
        continue;
      }
      await stopChild(cli, 'SIGKILL');
      // The killed run's leases are still there (a new session's: its id and its name): the next run has to take
      // them over, not find them free.
      const holders = leaseHolders();
      if (holders.length === 0 || holders.some((pid) => pid !== cli.child.pid))
        failures.push(
          `after kill #${index}: leases ${JSON.stringify(holders)}, expected the killed pid ${cli.child.pid}`,
        );
      else takenOver += 1;
      task.meta.faultLine = `lease takeover after kill -9: ${takenOver}/${KILLS} resumed at once`;
    }
    const final = runCli([...args, '--max-ticks', '5'], { home });
    const exit = await exitWithin(final, PROMPT_MS);
    if (exit?.code !== 0)
      failures.push(
        `the final resume exited ${exit ? `with ${exit.code}` : 'not in time'}: ${final.stderr().slice(-300)}`,
      );
    else if (!/"resumed":true/.test(final.stdout())) failures.push('the final run did not resume the session');
    if (leaseHolders().length !== 0) failures.push('the final run left its lease behind');
    if (failures.length > 0) task.meta.faultCause = failures[0];
    expect(failures).toEqual([]);
    expect(takenOver).toBe(KILLS);
  });
});

// Who a lease holder is (rule 19): this process — its pid, this host and a fresh random token — and whether a pid
// still exists on this host (a lease held by a pid that is gone may be taken at once: a resume after kill -9 need not
// wait for the deadline). The leases themselves: lease-rules.ts and each engine's lease table.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { LeaseHolder } from './contract.js';

/** The holder this process is: its pid, this host and a fresh token. */
export function currentLeaseHolder(): LeaseHolder {
  return { pid: process.pid, host: os.hostname(), token: randomUUID() };
}

/** False only when the process surely does not exist (ESRCH); EPERM means it exists under another user. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

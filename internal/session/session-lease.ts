// Holding a session's lease for a playing command (rule 19): taken before the session's first write, kept by the
// store's lease keeper (renewed on an unref'd timer, checked before acting), released when the run ends. A session
// someone else plays is refused with who plays it and what to do; a session taken over from a process that stalled
// past its deadline makes that process stop (`lost`), never play on beside the new holder.
import {
  LEASE_TTL_MS,
  currentLeaseHolder,
  leaseKey,
  takeAndKeep,
  type HeldLease,
  type KeptLeaseTake,
  type Lease,
  type LeaseHolder,
  type Store,
} from '../store/index.js';
import { FatalError, sleep, type Logger } from '../shared/index.js';

export interface HoldLeaseOptions {
  store: Store;
  session: { id: string; name: string };
  /**
   * Not stored yet. The name is leased with the id (as `session:name:NAME`) either way: two runs starting `-s NAME`
   * together each make a draft with its own id, and the second is refused by the name before it could collide with
   * the first's row.
   */
  draft?: boolean;
  logger?: Logger;
  /** For tests; default this process with a fresh token. */
  holder?: LeaseHolder;
  ttlMs?: number;
  renewMs?: number;
  /**
   * How long to wait at most for another holder's deadline instead of refusing at once (default 0: refuse). A fleet
   * worker that took a captain over from a stalled worker meets that worker's session lease, which lapses moments
   * after its captain lease did; a holder that renews meanwhile is refused all the same.
   */
  waitMs?: number;
  /** Ends the wait (the take rejects with its reason). */
  signal?: AbortSignal;
  /** For tests: the clock the wait is measured on, and the wait itself. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Past the holder's deadline before asking again: the store's clock (PostgreSQL's) may run a little behind ours. */
const DEADLINE_MARGIN_MS = 250;

/** A session's lease(s), held. */
export interface SessionLease {
  /** Aborted when the session was taken over by another Skipper (this one stalled past its deadline). */
  readonly lost: AbortSignal;
  /** Resolves false once lost; renews first when this process may have slept through a renewal. */
  ensure(): Promise<boolean>;
  /** Idempotent; a failure is logged, never thrown over the real exit. */
  release(): Promise<void>;
}

/** The refusal a second Skipper on the session sees. */
export function leaseRefusal(options: { name: string; holder: Lease; ttlMs: number }): string {
  const since = new Date(options.holder.takenAt).toTimeString().slice(0, 8);
  return (
    `session ${options.name} is being played by another Skipper (pid ${options.holder.pid} on host ` +
    `${options.holder.host}, since ${since}); stop that one first, or wait ${Math.round(options.ttlMs / 1000)} s ` +
    'if it was killed'
  );
}

/** Takes the session's lease or rejects with a FatalError (exit 1) naming its holder. */
export async function holdSessionLease(options: HoldLeaseOptions): Promise<SessionLease> {
  const { session } = options;
  // The name is leased on a resume too: a run killed while its session was a draft left its name lease behind, and the
  // resume takes it over with the id's (at once when its pid is gone) and gives both up at its end.
  const keys = [leaseKey('session', session.id), draftLeaseKey(session.name)];
  return holdLeases(
    options,
    keys,
    async (holder, ttlMs) => new FatalError('session_leased', leaseRefusal({ name: session.name, holder, ttlMs })),
  );
}

/** The lease key of a game account: one writer per account (host + username, as the game compares names). */
export function accountLeaseKey(gameUrl: string, username: string): string {
  return leaseKey('account', `${gameUrl}/${username.toLowerCase()}`);
}

/**
 * Takes the lease of the game account the captain plays (issue 48: one writer per account, as there is one per
 * session): two sessions on one account would log each other out (`session_replaced`) and report credits the other
 * spent. Refused with the session, pid and host that play it.
 */
export async function holdAccountLease(
  options: Omit<HoldLeaseOptions, 'session' | 'draft'> & { gameUrl: string; username: string; session: string },
): Promise<SessionLease> {
  const { store, gameUrl, username } = options;
  const key = accountLeaseKey(gameUrl, username);
  return holdLeases({ ...options, session: { id: key, name: options.session } }, [key], async (holder, ttlMs) => {
    const playing = await sessionOf(store, holder);
    const since = new Date(holder.takenAt).toTimeString().slice(0, 8);
    return new FatalError(
      'account_leased',
      `account ${username} on ${gameUrl} is being played by ${playing ? `session ${playing}` : 'another Skipper'} ` +
        `(pid ${holder.pid} on host ${holder.host}, since ${since}); stop that one first, wait ` +
        `${Math.round(ttlMs / 1000)} s if it was killed, or play another account (--username)`,
    );
  });
}

/** The session a lease holder plays: the name lease its captain holds with the same holder (one per captain). */
async function sessionOf(store: Store, holder: Lease): Promise<string | undefined> {
  const prefix = draftLeaseKey('');
  try {
    const held = (await store.leases(prefix)).find((lease) => lease.token === holder.token);
    return held?.key.slice(prefix.length);
  } catch {
    return undefined;
  }
}

/** Takes every key, or none: a refusal releases what was taken and rejects with `refusal`'s error. */
async function holdLeases(
  options: HoldLeaseOptions,
  keys: string[],
  refusal: (holder: Lease, ttlMs: number) => Promise<Error>,
): Promise<SessionLease> {
  const { store, session, logger } = options;
  const holder = options.holder ?? currentLeaseHolder();
  const ttlMs = options.ttlMs ?? LEASE_TTL_MS;
  const held: HeldLease[] = [];
  const controller = new AbortController();
  const releaseAll = async (): Promise<void> => {
    await Promise.all(held.splice(0).map((lease) => lease.release()));
  };
  let lostTold = false;
  const take = (key: string, index: number): ReturnType<typeof takeAndKeep> =>
    takeAndKeep(store, key, holder, {
      ttlMs,
      ...(options.renewMs ? { renewMs: options.renewMs } : {}),
      // One line for the session, not one per key: both keys are lost together, and fail together.
      onLost: (reason) => {
        if (lostTold) return;
        lostTold = true;
        logger?.warn({ session: session.name, reason }, 'session lease lost: another Skipper took this session over');
      },
      onError: (error, what) => {
        if (index > 0) return;
        logger?.warn(
          { error: error instanceof Error ? error.message : String(error) },
          `session lease: could not ${what} it`,
        );
      },
    });
  for (const [index, key] of keys.entries()) {
    const result = await takeWaiting(options, () => take(key, index)).catch(async (error: unknown) => {
      await releaseAll();
      throw error;
    });
    if (!result.taken) {
      await releaseAll();
      throw await refusal(result.holder, ttlMs);
    }
    held.push(result.held);
    result.held.lost.addEventListener('abort', () => controller.abort(result.held.lost.reason), { once: true });
  }
  const all = [...held];
  return {
    lost: controller.signal,
    ensure: async () => (await Promise.all(all.map((lease) => lease.ensure()))).every(Boolean),
    release: releaseAll,
  };
}

/** Takes the lease, asking again after another holder's deadline while that falls within `options.waitMs`. */
async function takeWaiting(options: HoldLeaseOptions, take: () => Promise<KeptLeaseTake>): Promise<KeptLeaseTake> {
  const now = options.now ?? Date.now;
  const pause = options.sleep ?? sleep;
  const waitUntil = now() + (options.waitMs ?? 0);
  let result = await take();
  while (!result.taken && result.holder.expiresAt <= waitUntil && now() < waitUntil) {
    await pause(Math.max(0, result.holder.expiresAt - now()) + DEADLINE_MARGIN_MS, options.signal);
    result = await take();
  }
  return result;
}

/** The lease key of a session name not stored yet (never a UUID, so never another session's id). */
export function draftLeaseKey(name: string): string {
  return leaseKey('session', `name:${name}`);
}

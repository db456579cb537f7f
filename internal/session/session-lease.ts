// Holding a session's lease for a playing command (rule 19): taken before the session's first write, renewed by an
// unref'd timer (it never keeps the process alive), released when the run ends. A session someone else plays is
// refused with who plays it and what to do.
import {
  currentLeaseHolder,
  defaultLeaseStaleMs,
  leaseRenewMs,
  type LeaseHolder,
  type LeaseRecord,
  type Store,
} from '../store/index.js';
import { FatalError, type Logger } from '../shared/index.js';

export interface HoldLeaseOptions {
  store: Store;
  session: { id: string; name: string };
  /**
   * Not stored yet: two runs starting `-s NAME` together each make a draft with its own id, so the name is leased too
   * (as `name:NAME`), and the second is refused before it could collide with the first's row.
   */
  draft?: boolean;
  logger?: Logger;
  /** For tests; default this process with a fresh token. */
  holder?: LeaseHolder;
  staleMs?: number;
  renewMs?: number;
}

/** The refusal a second Skipper on the session sees. */
export function leaseRefusal(options: { name: string; holder: LeaseRecord; staleMs: number }): string {
  const since = new Date(options.holder.takenAt).toTimeString().slice(0, 8);
  return (
    `session ${options.name} is being played by another Skipper (pid ${options.holder.pid} on host ` +
    `${options.holder.host}, since ${since}); stop that one first, or wait ${Math.round(options.staleMs / 1000)} s ` +
    'if it was killed'
  );
}

/**
 * Takes the session's lease or throws a FatalError (exit 1) naming its holder. Returns the release, to run on every
 * exit path; it is idempotent.
 */
export function holdSessionLease(options: HoldLeaseOptions): () => void {
  const { store, session } = options;
  const holder = options.holder ?? currentLeaseHolder();
  const staleMs = options.staleMs ?? defaultLeaseStaleMs;
  const keys = options.draft ? [session.id, draftLeaseKey(session.name)] : [session.id];
  const taken: string[] = [];
  const releaseAll = (): void => {
    // A release that fails (the database busy past its timeout) leaves a lease whose pid is about to be gone: the
    // next run on this host takes it over at once, so the failure is logged, never thrown over the real exit.
    for (const key of taken.splice(0)) attempt(() => store.releaseLease(key, holder), options.logger, 'release');
  };
  for (const key of keys) {
    const result = store.takeLease(key, holder, { staleMs });
    if (!result.taken) {
      releaseAll();
      throw new FatalError('session_leased', leaseRefusal({ name: session.name, holder: result.holder, staleMs }));
    }
    taken.push(key);
  }
  let warned = false;
  const timer = setInterval(() => {
    // A lost lease means this process stalled past staleMs and another took the session over: say so once.
    const kept = keys.every((key) => attempt(() => store.renewLease(key, holder), options.logger, 'renew') !== false);
    if (!kept && !warned) {
      warned = true;
      options.logger?.warn({ session: session.name }, 'session lease lost: another Skipper took this session over');
    }
  }, options.renewMs ?? leaseRenewMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    releaseAll();
  };
}

/** Runs a lease write from a timer or a cleanup, where a throw would crash the run or hide its real exit. */
function attempt<T>(run: () => T, logger: Logger | undefined, what: string): T | undefined {
  try {
    return run();
  } catch (error) {
    logger?.warn({ error: (error as Error).message }, `session lease: could not ${what} it`);
    return undefined;
  }
}

/** The lease key of a session name not stored yet (never a UUID, so never another session's id). */
export function draftLeaseKey(name: string): string {
  return `name:${name}`;
}

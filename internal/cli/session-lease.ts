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
  const result = store.takeLease(session.id, holder, { staleMs });
  if (!result.taken) {
    throw new FatalError('session-leased', leaseRefusal({ name: session.name, holder: result.holder, staleMs }));
  }
  let warned = false;
  const timer = setInterval(() => {
    // A lost lease means this process stalled past staleMs and another took the session over: say so once.
    if (!store.renewLease(session.id, holder) && !warned) {
      warned = true;
      options.logger?.warn({ session: session.name }, 'session lease lost: another Skipper took this session over');
    }
  }, options.renewMs ?? leaseRenewMs);
  timer.unref();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    clearInterval(timer);
    store.releaseLease(session.id, holder);
  };
}

// A play session's row in the store, written when there is something to keep. A new session is a draft (its id and
// name chosen, nothing stored) until its first turn starts: a chat opened and quit without a turn leaves no empty
// session behind. Changes made before that (the model switched, the captain logged in) wait in the draft and go into
// the row when it is written; a resumed session is stored already and changes go straight to it.
import { randomUUID } from 'node:crypto';
import {
  generateSessionNameAsync,
  type CreateSessionInput,
  type Session,
  type Store,
  type UpdateSessionInput,
} from '../store/index.js';

export interface SessionRecord {
  /** The session as it is now (the draft before it is stored). */
  session(): Session;
  /** True once the row exists. */
  stored(): boolean;
  /** Writes the row when it is still a draft; await before anything is recorded under the session's id. */
  ensureStored(): Promise<Session>;
  /** Changes the session: in the store when it is there, in the draft otherwise. */
  update(changes: UpdateSessionInput): Promise<Session>;
}

type RecordStore = Pick<Store, 'createSession' | 'findSession' | 'updateSession'>;

/** A session already in the store (resume). */
export function storedSessionRecord(store: RecordStore, session: Session): SessionRecord {
  let current = session;
  return {
    session: () => current,
    stored: () => true,
    ensureStored: async () => current,
    update: async (changes) => (current = await store.updateSession(current.id, changes)),
  };
}

/** A new session: its id and name now (the name is printed at once), its row with the first turn. */
export async function draftSessionRecord(
  store: RecordStore,
  input: CreateSessionInput,
  now: () => number = Date.now,
): Promise<SessionRecord> {
  const at = now();
  let draft: Session = {
    id: randomUUID(),
    name:
      input.name ??
      (await generateSessionNameAsync({
        now: at,
        taken: async (candidate) => (await store.findSession(candidate)) !== undefined,
      })),
    game: input.game,
    model: input.model,
    username: input.username ?? null,
    goal: input.goal ?? null,
    status: 'active',
    createdAt: at,
    updatedAt: at,
    extra: input.extra ?? {},
  };
  let row: Session | undefined;
  // One write however many ask at once (the first turn and a /model switch racing).
  let creating: Promise<Session> | undefined;
  const ensureStored = (): Promise<Session> => {
    if (row) return Promise.resolve(row);
    creating ??= store
      .createSession({
        id: draft.id,
        name: draft.name,
        game: draft.game,
        model: draft.model,
        ...(draft.username ? { username: draft.username } : {}),
        ...(draft.goal ? { goal: draft.goal } : {}),
        extra: draft.extra,
      })
      .then(
        (created) => (row = created),
        (error: unknown) => {
          creating = undefined;
          throw error;
        },
      );
    return creating;
  };
  return {
    session: () => row ?? draft,
    stored: () => row !== undefined,
    ensureStored,
    update: async (changes) => {
      if (creating && !row) await creating.catch(() => undefined);
      if (row) return (row = await store.updateSession(row.id, changes));
      draft = {
        ...draft,
        ...(changes.model !== undefined ? { model: changes.model } : {}),
        ...(changes.username !== undefined ? { username: changes.username } : {}),
        ...(changes.goal !== undefined ? { goal: changes.goal } : {}),
        ...(changes.status !== undefined ? { status: changes.status } : {}),
        ...(changes.extra !== undefined ? { extra: changes.extra } : {}),
        updatedAt: now(),
      };
      return draft;
    },
  };
}

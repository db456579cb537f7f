// Where a run keeps its sessions, as given on its command line: --home and --db. Every command over the store takes
// them (resolved in cmd/store-place.ts) and the commands a run prints for the person to run next repeat them.

export interface StorePlace {
  home?: string | undefined;
  db?: string | undefined;
}

/** The --home and --db of a command's options, and nothing else. */
export function storePlaceOf(options: StorePlace): StorePlace {
  return {
    ...(options.home !== undefined ? { home: options.home } : {}),
    ...(options.db !== undefined ? { db: options.db } : {}),
  };
}

/**
 * The URL as a printed command carries it (`skipper --db … replay NAME`): without its password, which node-postgres
 * then reads from PGPASSWORD or ~/.pgpass. `***` in its place (redactPgUrl, for messages) would be taken for it.
 */
export function pgUrlWithoutPassword(text: string): string {
  return text.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@/]*@/i, '$1@');
}

/** The help of `--db <url>`, the same on every command that takes it. */
export const DB_OPTION_HELP =
  'the store on PostgreSQL (postgres://USER@HOST:PORT/DB; default $SKIPPER_DATABASE_URL, else SQLite in the home)';

// Where a PostgreSQL store is: a `postgres://` URL checked and split (its `schema` parameter is Skipper's, not the
// driver's) and the label every message and log line names it by, without its password.
import { FatalError } from '../../shared/index.js';

export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text);
}

export interface PgLocation {
  /** For node-postgres: the URL without the `schema` parameter. */
  url: string;
  schema: string | undefined;
  /** The URL without its password, for messages and logs. */
  label: string;
}

/** `postgres://user:pw@host:5432/db?schema=skipper` → where to connect, and which schema holds the tables. */
export function parsePgUrl(text: string): PgLocation {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FatalError('usage', `${redactPgUrl(text)} is not a PostgreSQL URL; write postgres://USER@HOST:PORT/DB`);
  }
  const schema = url.searchParams.get('schema') ?? undefined;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new FatalError(
      'usage',
      `schema=${schema} in the database URL is not a plain lower-case name (letters, digits, _); pick another`,
    );
  }
  url.searchParams.delete('schema');
  return { url: url.toString(), schema, label: redactPgUrl(text) };
}

export function redactPgUrl(text: string): string {
  return text.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

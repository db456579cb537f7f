// What a failure of node-postgres means to Skipper, in one place: a database that cannot be reached (refused, cut,
// restarted, timed out, not letting this user in) is `store_unavailable` — the store goes down and retries by itself;
// a statement the server refused maps to the errors SQLite's write guard gives for the same mistake (a missing
// session, a duplicate), so callers never tell the backends apart. Every message is one line and names the database
// by its label, never with its password, and never carries a stack.
import { FatalError, SkipperError, UsageError } from '../../shared/index.js';

/** Node's socket failures: the server is not there, or the network between went away. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** node-postgres says these in words only (no code): the connection ended, or never came. */
const lostConnection = new RegExp(
  [
    'Connection terminated',
    'Connection ended',
    'connection error and is not queryable',
    'Client was closed and is not queryable',
    'timeout expired',
    'timeout exceeded when trying to connect',
    'Query read timeout',
  ].join('|'),
  'i',
);

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * Whether `error` says the database cannot be reached, rather than that it refused a statement. SQLSTATE classes:
 * 08 connection exception, 57P operator intervention (shut down, restarting, terminated), 53300 too many connections,
 * 28 authorisation (a password changed under a running store), 3D000 no such database.
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isUnreachable) || socketCodes.has(codeOf(error));
  const code = codeOf(error);
  if (socketCodes.has(code)) return true;
  if (/^(08|57P|28)/.test(code) || code === '53300' || code === '3D000') return true;
  return error instanceof Error && lostConnection.test(error.message);
}

/** The first line of what went wrong, without a stack: an AggregateError (every address refused) says its first. */
export function oneLine(error: unknown): string {
  if (error instanceof AggregateError && error.message === '' && error.errors.length > 0) {
    return oneLine(error.errors[0]);
  }
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n')[0]?.trim() ?? '';
  return line === '' ? codeOf(error) || 'unknown error' : line;
}

/** A call that could not reach the database: what callers catch to stop acting while it is down. */
export function unavailableError(label: string, reason: string): SkipperError {
  return new SkipperError(
    'store_unavailable',
    `the database ${label} cannot be reached (${reason}); Skipper retries in the background and carries on once it is back`,
  );
}

/** `Key (session_id)=(abc) is not present in table "sessions".` → the column's value and the table. */
function missingKey(error: unknown): { value: string; table: string } | undefined {
  const detail = (error as { detail?: unknown }).detail;
  const match = typeof detail === 'string' ? /\)=\((.*)\) is not present in table "(\w+)"/.exec(detail) : null;
  return match?.[1] !== undefined && match[2] !== undefined ? { value: match[1], table: match[2] } : undefined;
}

/**
 * What a cause keeps of node-postgres's error: its SQLSTATE and constraint, nothing else. Its own objects can carry the
 * client, and with it the connection's password (an idle connection's error does), and a stack: neither may reach a
 * log through a cause.
 */
function causeOf(error: unknown): { code: string; constraint: string | undefined } {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return { code: codeOf(error), constraint: typeof constraint === 'string' ? constraint : undefined };
}

/** A statement the server refused, as SQLite's write guard says it (write-guard.ts). */
export function statementError(error: unknown, options: { label: string; write: boolean }): SkipperError {
  const code = codeOf(error);
  const message = oneLine(error);
  const cause = causeOf(error);
  if (code === '23503') {
    const missing = missingKey(error);
    if (missing?.table === 'sessions') return new UsageError(`no session with id ${missing.value}; create it first`);
    if (missing?.table === 'fleets') {
      return new UsageError(`no fleet "${missing.value}" in the store: start the fleet before adding its captains`);
    }
  }
  if (code === '23505') return new SkipperError('store_duplicate', `already stored: ${message}`, { cause });
  if (code === '57014') {
    return new SkipperError(
      'store_busy',
      `${options.label} did not finish a statement in time (${message}); try again`,
    );
  }
  return new FatalError(
    options.write ? 'store_write' : 'store_read',
    `could not ${options.write ? 'write to' : 'read'} ${options.label}: ${message}`,
    { cause },
  );
}

/** The constraint a duplicate broke (`sessions_name_key`…), when `error` is store_duplicate. */
export function duplicateOf(error: unknown): string | undefined {
  if (!(error instanceof SkipperError) || error.code !== 'store_duplicate') return undefined;
  const constraint = (error.cause as { constraint?: unknown } | undefined)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

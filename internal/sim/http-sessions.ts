// The HTTP server's MCP sessions (each ~40 KB): at most maxSessions, kept in least-recently-used order. When the table
// is full a new session evicts the oldest idle one (no call in flight); its client then gets the usual "session not
// found" and initializes again. A session unused for idleTimeoutMs is closed (on its next request, and by a sweep).
import type { McpSession } from './mcp-server.js';
import type { NodeStreamableTransport } from './node-transport.js';

export interface HttpLimits {
  /** MCP sessions open at once (default 1,000). */
  maxSessions?: number;
  /** A session unused this long is closed (default 30 minutes). */
  idleTimeoutMs?: number;
  /** Largest request body (default 1 MB); a larger one is refused with 413. */
  maxBodyBytes?: number;
}

export const DEFAULT_MAX_SESSIONS = 1000;
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;
export const MAX_BODY_BYTES = 1024 * 1024;
export const BODY_BYTES_RANGE = { min: 1024, max: 64 * 1024 * 1024 } as const;
export const IDLE_TIMEOUT_RANGE = { min: 1000, max: 7 * 24 * 3_600_000 } as const;
export const MAX_SESSIONS_LIMIT = 1_000_000;

function checked(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}, not ${value}`);
  return value;
}

/** The limits with defaults filled in; a value out of range is a RangeError naming the option. */
export function resolveHttpLimits(limits: HttpLimits = {}): Required<HttpLimits> {
  return {
    maxSessions: checked('maxSessions', limits.maxSessions, DEFAULT_MAX_SESSIONS, 1, MAX_SESSIONS_LIMIT),
    idleTimeoutMs: checked(
      'idleTimeoutMs',
      limits.idleTimeoutMs,
      DEFAULT_IDLE_TIMEOUT_MS,
      IDLE_TIMEOUT_RANGE.min,
      IDLE_TIMEOUT_RANGE.max,
    ),
    maxBodyBytes: checked(
      'maxBodyBytes',
      limits.maxBodyBytes,
      MAX_BODY_BYTES,
      BODY_BYTES_RANGE.min,
      BODY_BYTES_RANGE.max,
    ),
  };
}

export interface SessionEntry {
  id: string;
  /** The path the session was opened on: a session answers on its own face only. */
  path: string;
  transport: NodeStreamableTransport;
  session: McpSession;
  lastSeen: number;
  /** POSTs being answered: a session with a call in flight (a blocking travel) is not idle. */
  active: number;
}

export class SessionTable {
  /** Insertion order is use order: the first entries are the least recently used. */
  private readonly entries = new Map<string, SessionEntry>();
  constructor(
    private readonly limits: { maxSessions: number; idleTimeoutMs: number },
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The live session with this id on this path, marked used; undefined when unknown, elsewhere or expired. */
  get(id: string, path: string): SessionEntry | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.path !== path) return undefined;
    if (this.expired(entry)) {
      this.evict(entry);
      return undefined;
    }
    this.touch(entry);
    return entry;
  }

  /** Counts a request in flight until `done` fires. */
  begin(entry: SessionEntry, done: (listener: () => void) => void): void {
    entry.active++;
    done(() => {
      entry.active--;
      if (this.entries.has(entry.id)) this.touch(entry);
    });
  }

  /** Room for one more session: evicts the least recently used idle one when full; false when all are busy. */
  makeRoom(): boolean {
    this.sweep();
    if (this.entries.size < this.limits.maxSessions) return true;
    for (const entry of this.entries.values()) {
      if (entry.active === 0) {
        this.evict(entry);
        return true;
      }
    }
    return false;
  }

  add(entry: SessionEntry): void {
    this.entries.set(entry.id, entry);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  /** Closes every session idle past the timeout. */
  sweep(): void {
    for (const entry of [...this.entries.values()]) if (this.expired(entry)) this.evict(entry);
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((entry) => entry.transport.close().catch(() => {})));
  }

  private expired(entry: SessionEntry): boolean {
    return entry.active === 0 && this.now() - entry.lastSeen > this.limits.idleTimeoutMs;
  }

  private touch(entry: SessionEntry): void {
    entry.lastSeen = this.now();
    this.entries.delete(entry.id);
    this.entries.set(entry.id, entry);
  }

  private evict(entry: SessionEntry): void {
    this.entries.delete(entry.id);
    void entry.transport.close().catch(() => {});
  }
}

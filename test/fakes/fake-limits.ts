// The real SpaceMolt's limits, enforced like a strict server for the fake game (fake-spacemolt-server.ts): per
// account so many queries in a sliding window and get_notifications once a tick; per IP (the whole fake is one
// machine) so many logins + registrations a window, and past so many refusals a window an "IP timeout" in which
// every call fails with ip_timeout. Everything it refused, and every timeout, is recorded for tests to assert on.
// Time is scaled through `now` (share the connection's fake clock).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OP_KINDS, type GameOp } from '../../internal/spacemolt/index.js';

export interface FakeLimitsOptions {
  now: () => number;
  queriesPerWindow?: number;
  windowMs?: number;
  tickMs?: number;
  loginsPerWindow?: number;
  /** Refusals in a window past which the IP is timed out (SpaceMolt: 50). */
  rejectionsToTimeout?: number;
  timeoutMs?: number;
}

/** Every query of Skipper's ops counts against the account's window (the real server counts all of them). */
function isQuery(op: string): boolean {
  return op === 'get_chat_history' || (Object.hasOwn(OP_KINDS, op) && OP_KINDS[op as GameOp] === 'query');
}
const ACCOUNT_OPS = new Set(['login', 'register']);

export class FakeLimits {
  readonly options: Required<FakeLimitsOptions>;
  /** What was refused, by code; `ip_timeout` counts calls refused inside a timeout. */
  readonly refused: Record<string, number> = {};
  /** Timeouts the IP entered: a test asserts this stays 0. */
  ipTimeouts = 0;
  /** The most queries one account had in any window, and logins the IP had in any window. */
  peakQueries = 0;
  peakLogins = 0;
  private readonly queries = new Map<string, number[]>();
  private readonly notificationsAt = new Map<string, number>();
  private readonly logins: number[] = [];
  private readonly rejections: number[] = [];
  private timeoutUntil = -Infinity;

  constructor(options: FakeLimitsOptions) {
    this.options = {
      queriesPerWindow: 300,
      windowMs: 60_000,
      tickMs: 10_000,
      loginsPerWindow: 30,
      rejectionsToTimeout: 50,
      timeoutMs: 120_000,
      ...options,
    };
  }

  /** The refusal for a call about to be answered, or undefined when it is within the limits (and now counted). */
  refuse(call: { op: string; user: string | undefined }): CallToolResult | undefined {
    const now = this.options.now();
    if (now < this.timeoutUntil)
      return this.refusal(
        'ip_timeout',
        'too many rejected requests from this IP; wait out the timeout',
        this.timeoutUntil - now,
      );
    if (ACCOUNT_OPS.has(call.op)) {
      const wait = this.admit(this.logins, this.options.loginsPerWindow, now);
      this.peakLogins = Math.max(this.peakLogins, this.logins.length);
      if (wait > 0) return this.refusal('rate_limited', 'too many logins from this IP', wait);
      return undefined;
    }
    if (!call.user || !isQuery(call.op)) return undefined;
    if (call.op === 'get_notifications') {
      const last = this.notificationsAt.get(call.user);
      if (last !== undefined && now - last < this.options.tickMs) {
        return this.refusal(
          'rate_limited',
          'get_notifications at most once per tick',
          last + this.options.tickMs - now,
        );
      }
    }
    const times = this.queries.get(call.user) ?? [];
    this.queries.set(call.user, times);
    const wait = this.admit(times, this.options.queriesPerWindow, now);
    this.peakQueries = Math.max(this.peakQueries, times.length);
    if (wait > 0) return this.refusal('rate_limited', 'too many queries', wait);
    if (call.op === 'get_notifications') this.notificationsAt.set(call.user, now);
    return undefined;
  }

  /** Every error answer counts against the IP; past the threshold the IP is timed out. */
  answered(result: CallToolResult): void {
    if (!result.isError) return;
    const now = this.options.now();
    if (now < this.timeoutUntil) return;
    drop(this.rejections, this.options.windowMs, now);
    this.rejections.push(now);
    if (this.rejections.length > this.options.rejectionsToTimeout) {
      this.ipTimeouts += 1;
      this.timeoutUntil = now + this.options.timeoutMs;
      this.rejections.length = 0;
    }
  }

  /** Takes a slot in a sliding window; the ms until one frees when it is full (nothing taken then). */
  private admit(times: number[], max: number, now: number): number {
    drop(times, this.options.windowMs, now);
    if (times.length >= max) return (times[times.length - max] ?? now) + this.options.windowMs - now;
    times.push(now);
    return 0;
  }

  private refusal(code: string, message: string, waitMs: number): CallToolResult {
    this.refused[code] = (this.refused[code] ?? 0) + 1;
    const body = { code, message: `${message}`, retry_after: Math.max(0.001, waitMs / 1000) };
    return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
  }
}

function drop(times: number[], windowMs: number, now: number): void {
  while (times.length > 0 && (times[0] ?? now) <= now - windowMs) times.shift();
}

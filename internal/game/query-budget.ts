// One account's query budget (rule 18): the game allows so many queries in a sliding window (SpaceMolt: 300 a
// minute) and get_notifications once a tick. The connection asks it before each query it sends: a call answered
// here (notifications already asked this tick, the same query already answered this tick with no move since)
// never reaches the server, and a full window is waited out on the connection's clock instead of being refused.
import type { ToolResult } from '../shared/index.js';
import type { GameOp } from '../spacemolt/index.js';

export interface QueryBudgetLimits {
  /** Queries allowed in any window (default 300). */
  queriesPerWindow: number;
  /** The sliding window's length in ms (default 60,000). */
  windowMs: number;
  /** The game's tick in ms (default 10,000, SpaceMolt's): notifications and repeated queries are answered once a tick. */
  tickMs: number;
}

export const DEFAULT_QUERY_BUDGET: QueryBudgetLimits = { queriesPerWindow: 300, windowMs: 60_000, tickMs: 10_000 };

export const NOTIFICATIONS_ASKED_TEXT = 'No new notifications (asked already this tick).';

interface Cached {
  at: number;
  result: ToolResult;
}

export class QueryBudget {
  /** Each query of the current window: when its answer came, or undefined while it is in flight (the server counts
   * it on arrival, which the client never sees: until the answer, it holds its slot as if sent just now). */
  private readonly sent: Array<{ at: number | undefined }> = [];
  private notificationsAt: number | undefined;
  private readonly answers = new Map<string, Cached>();

  constructor(readonly limits: QueryBudgetLimits) {}

  /** A local answer for a query the game need not be asked again this tick; undefined when it must be asked. */
  localAnswer(
    call: { op: GameOp | undefined; name: string; args: Record<string, unknown> },
    now: number,
  ): ToolResult | undefined {
    if (call.op === 'get_notifications') {
      if (this.notificationsAt !== undefined && now - this.notificationsAt < this.limits.tickMs) {
        return { text: NOTIFICATIONS_ASKED_TEXT, isError: false };
      }
      return undefined;
    }
    const cached = this.answers.get(queryKey(call.name, call.args));
    return cached && now - cached.at < this.limits.tickMs ? cached.result : undefined;
  }

  /** How long until the window has room for one more query (0: send now). */
  waitMs(now: number): number {
    this.forget(now);
    if (this.limits.queriesPerWindow <= 0 || this.sent.length < this.limits.queriesPerWindow) return 0;
    const times = this.sent.map((query) => query.at ?? now).sort((a, b) => a - b);
    const freeing = times[times.length - this.limits.queriesPerWindow] ?? now;
    return Math.max(1, freeing + this.limits.windowMs - now);
  }

  /** A query is being sent now (called right after waitMs said 0, with no await between: the slot is taken). Its
   * `settle` says when the answer came: the window counts the query from then (the server counted it earlier). */
  take(call: { op: GameOp | undefined }, now: number): { settle: (at: number) => void } {
    const query: { at: number | undefined } = { at: undefined };
    this.sent.push(query);
    if (call.op === 'get_notifications') this.notificationsAt = now;
    return {
      settle: (at) => {
        query.at = at;
        if (call.op === 'get_notifications') this.notificationsAt = Math.max(this.notificationsAt ?? at, at);
      },
    };
  }

  /** A query's answer: kept for the rest of the tick when it is no error (errors are asked again). */
  answered(
    call: { op: GameOp | undefined; name: string; args: Record<string, unknown> },
    result: ToolResult,
    now: number,
  ): void {
    if (result.isError || call.op === 'get_notifications') return;
    this.answers.set(queryKey(call.name, call.args), { at: now, result });
  }

  /** Anything but a query may change what queries answer (a move, a login, a chat line): forget every answer. */
  changed(): void {
    this.answers.clear();
  }

  /** Queries sent in the current window. */
  inWindow(now: number): number {
    this.forget(now);
    return this.sent.length;
  }

  private forget(now: number): void {
    for (let index = this.sent.length - 1; index >= 0; index -= 1) {
      const at = this.sent[index]?.at;
      if (at !== undefined && at <= now - this.limits.windowMs) this.sent.splice(index, 1);
    }
    for (const [key, cached] of this.answers) if (now - cached.at >= this.limits.tickMs) this.answers.delete(key);
  }
}

/** The name and the arguments as canonical JSON (keys sorted at every depth), so `{a,b}` and `{b,a}` are one query. */
export function queryKey(name: string, args: Record<string, unknown>): string {
  return `${name} ${canonicalJson(args)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

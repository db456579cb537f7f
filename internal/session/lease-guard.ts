// A game behind a lease (rule 19): before every call the lease is checked (renewed first when this process may have
// slept through a renewal: SIGSTOP, a laptop lid, a stalled host). A lease another Skipper has taken over meanwhile
// lets nothing more through: the call is answered `lease_lost` without reaching the game, so two processes never
// play one captain at once — the new holder plays, this one stops. The connection's own reads of the game (its
// notifications, fetchEvents) are guarded too: once lost they read nothing.
import type { Game, GameCallOptions, ToolResult } from '../shared/index.js';

export interface LeaseCheck {
  /** Resolves false once the lease is lost. */
  ensure(): Promise<boolean>;
}

export const LEASE_LOST_TEXT =
  'lease_lost: another Skipper took this captain over while this one was stalled; this one stops and sends nothing more';

export function leaseGuardedGame<G extends Game>(game: G, lease: LeaseCheck): G {
  const lost = (): ToolResult => ({ text: LEASE_LOST_TEXT, isError: true, code: 'lease_lost' });
  const call = async (name: string, args: Record<string, unknown>, options?: GameCallOptions): Promise<ToolResult> =>
    (await lease.ensure()) ? game.call(name, args, options) : lost();
  const writeLog = game.writeLog
    ? async (entry: string, options?: GameCallOptions): Promise<ToolResult | undefined> =>
        (await lease.ensure()) ? game.writeLog?.(entry, options) : lost()
    : undefined;
  const source = game as G & { fetchEvents?: (options?: { signal?: AbortSignal; max?: number }) => Promise<unknown> };
  const fetchEvents = source.fetchEvents
    ? async (options?: { signal?: AbortSignal; max?: number }): Promise<unknown> =>
        (await lease.ensure()) ? source.fetchEvents?.(options) : undefined
    : undefined;
  return new Proxy(game, {
    get(target, property) {
      if (property === 'call') return call;
      if (property === 'writeLog') return writeLog;
      if (property === 'fetchEvents') return fetchEvents;
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
